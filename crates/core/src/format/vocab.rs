//! The vocabulary: every index term in byte order, with where its incidents are.
//!
//! Stored as three columns, which compress better apart than interleaved:
//!
//! 1. the term count, then each term front-coded: a varint of the leading bytes it
//!    shares with the previous term, a varint of the remaining length, the bytes;
//! 2. one varint per term, its document frequency `df`;
//! 3. for each term with `df = 1`, in term order, its one incident number as a
//!    little-endian integer of 1, 2 or 4 bytes (the fewest that hold `n - 1`).
//!
//! The vocabulary is cut into blocks of [`BLOCK_TERMS`] terms, each its own file
//! (`vocab-NNNN.bin`); `meta.bin` holds only the [`Directory`]: the first term of
//! every block, so that a lookup knows which block to fetch.
//!
//! A term with `df = 1` keeps its incident here. Every other term's incidents are
//! beside the terms in its block's file ([`crate::index::VocabBlock`]), by its
//! vocabulary position: a term with [`is_common`] as a bitset, the others as a
//! list of incident numbers. Either way a term's incidents are exact; the block's
//! filter only says where and how strongly a record uses a term it has.
//!
//! Why not an `fst` map: Korean terms share prefixes but few suffixes, and the
//! automaton's bytes barely compress. Front coding under gzip weighs half as much
//! for the shipped corpus (`examples/index_profile` prints both), and lookups in a
//! few thousand sorted terms cost a binary search either way.

use crate::format::FormatError;

/// Whether a term in `df` of `n` incidents is kept as a bitset rather than as a list
/// of incident numbers: a list entry costs a byte or two for each of `df`
/// incidents, a bitset `n` bits once: past `n / 12` incidents the bitset is smaller.
pub fn is_common(df: u64, n: usize) -> bool {
    df >= 4 && df * 12 > n as u64
}

/// Where the incidents of a term are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Postings {
    /// In exactly this incident.
    Single(u32),
    /// In `df` incidents, through the incident list of vocabulary position `id`.
    Listed {
        /// Document frequency.
        df: u32,
        /// The term's position in the whole vocabulary.
        id: u32,
    },
    /// In `df` incidents, through the common bitset of vocabulary position `id`.
    Common {
        /// Document frequency.
        df: u32,
        /// The term's position in the whole vocabulary.
        id: u32,
    },
}

impl Postings {
    /// Number of incidents with the term.
    pub fn df(self) -> u64 {
        match self {
            Postings::Single(_) => 1,
            Postings::Listed { df, .. } | Postings::Common { df, .. } => df as u64,
        }
    }
}

/// Terms per vocabulary block, at least: small enough that a query's lookups fetch a
/// few kilobytes, large enough that front coding and gzip still work on a block.
pub const BLOCK_TERMS: usize = 24;

/// Most vocabulary blocks: a larger vocabulary gets larger blocks, so that the
/// directory, which every search loads with `meta.bin`, stops growing (about 10 KB
/// gzip at this many blocks).
pub const MAX_BLOCKS: usize = 2048;

/// Terms per block for a vocabulary of `terms` terms: [`BLOCK_TERMS`], or as many as
/// keep the blocks within [`MAX_BLOCKS`].
pub fn block_terms(terms: usize) -> usize {
    BLOCK_TERMS.max(terms.div_ceil(MAX_BLOCKS))
}

/// The shortest start of `first` (whole characters) that sorts after `last`, for
/// `last < first`.
fn separator(last: &str, first: &str) -> String {
    first
        .char_indices()
        .map(|(i, c)| &first[..i + c.len_utf8()])
        .find(|p| p.as_bytes() > last.as_bytes())
        .unwrap_or(first)
        .to_string()
}

/// Where the vocabulary blocks are: `meta.bin`'s part of the vocabulary.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Directory {
    /// Terms in the whole vocabulary.
    pub terms: u32,
    /// Terms per block (the last may hold fewer).
    pub per_block: u32,
    /// Where each block starts, in order: the first block's first term, then for
    /// each other block the shortest start of its first term that sorts after the
    /// previous block's last term (`장애` for a block from `장애물` after one ending
    /// at `장수`). Every term of a block sorts at or after its separator and before
    /// the next, which is all a lookup needs, in fewer bytes than whole terms.
    pub separators: Vec<String>,
}

impl Directory {
    /// The directory of `terms` (sorted, distinct) cut into blocks of `per_block`.
    pub fn of<'a>(terms: impl IntoIterator<Item = &'a str>, per_block: usize) -> Directory {
        let mut count = 0u32;
        let mut separators = Vec::new();
        let mut previous = "";
        for (i, t) in terms.into_iter().enumerate() {
            if i % per_block == 0 {
                separators.push(if i == 0 { t.to_string() } else { separator(previous, t) });
            }
            previous = t;
            count += 1;
        }
        Directory {
            terms: count,
            per_block: per_block as u32,
            separators,
        }
    }

    /// True when `term`, the first term of block `b`, starts with the block's
    /// separator.
    pub fn starts_block(&self, b: usize, term: &str) -> bool {
        self.separators.get(b).is_some_and(|s| term.starts_with(s.as_str()))
    }

    /// Number of blocks.
    pub fn blocks(&self) -> usize {
        self.separators.len()
    }

    /// The block that would hold `term`, or `None` when it sorts before every term
    /// (and so is not in the vocabulary).
    pub fn block_of(&self, term: &str) -> Option<usize> {
        self.separators
            .partition_point(|f| f.as_bytes() <= term.as_bytes())
            .checked_sub(1)
    }

    /// The block that holds vocabulary position `position`.
    pub fn block_at(&self, position: usize) -> usize {
        position / self.per_block.max(1) as usize
    }

    /// The file name of block `b`.
    pub fn file(b: usize) -> String {
        format!("vocab-{b:04}.bin")
    }

    /// Checks that the directory is usable: blocks that cover the term count, first
    /// terms in order.
    pub fn check(&self) -> Result<(), FormatError> {
        let per = self.per_block as u64;
        if per == 0 || (self.terms as u64).div_ceil(per) != self.separators.len() as u64 {
            return Err(bad("the block directory does not cover the term count"));
        }
        if self.separators.windows(2).any(|w| w[0].as_bytes() >= w[1].as_bytes()) {
            return Err(bad("block first terms are out of order"));
        }
        Ok(())
    }

    /// Terms block `b` must hold.
    pub fn block_len(&self, b: usize) -> usize {
        let per = self.per_block as usize;
        (self.terms as usize).saturating_sub(b * per).min(per)
    }
}

/// A decoded vocabulary, or one block of it.
#[derive(Debug, Clone, Default)]
pub struct Vocab {
    /// Vocabulary position of the first term.
    base: u32,
    /// All terms, concatenated in order.
    text: String,
    /// End of each term in `text`.
    ends: Vec<u32>,
    postings: Vec<Postings>,
}

/// Appends `v` as a LEB128 varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn bad(msg: &str) -> FormatError {
    FormatError::Decode(format!("vocabulary: {msg}; rebuild the index"))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn varint(&mut self) -> Result<u64, FormatError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at).ok_or_else(|| bad("truncated"))?;
            self.at += 1;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(bad("varint too long"))
    }

    fn take(&mut self, n: usize) -> Result<&[u8], FormatError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| bad("truncated"))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
}

/// Encodes ascending incident numbers as a list: varints of the differences, the
/// first counted from -1 (so every difference is at least 1).
pub fn encode_list(docs: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(docs.len());
    let mut prev: i64 = -1;
    for &d in docs {
        put_varint(&mut out, (i64::from(d) - prev) as u64);
        prev = i64::from(d);
    }
    out
}

/// Calls `each` with every incident number of a list made by [`encode_list`],
/// refusing a list that is not strictly ascending, names an incident past `n`,
/// or is cut.
pub fn decode_list(bytes: &[u8], n: usize, mut each: impl FnMut(usize)) -> Result<(), FormatError> {
    let mut r = Reader { bytes, at: 0 };
    let mut doc: u64 = u64::MAX; // -1
    while r.at < bytes.len() {
        let delta = r.varint()?;
        if delta == 0 {
            return Err(bad("an incident list is out of order"));
        }
        doc = doc.wrapping_add(delta);
        if doc >= n as u64 {
            return Err(bad("an incident list names an incident past the end"));
        }
        each(doc as usize);
    }
    Ok(())
}

/// Bytes of an incident number in an index of `n` incidents.
fn doc_width(n: usize) -> usize {
    match n {
        0..=0x100 => 1,
        0x101..=0x1_0000 => 2,
        _ => 4,
    }
}

/// Encodes terms (sorted by bytes, distinct) of an index of `n` incidents with
/// their incidents: `docs` of a term is its incident list, of which only the length
/// is kept unless it is one.
pub fn encode<'a>(terms: impl IntoIterator<Item = (&'a str, &'a [u32])>, n: usize) -> Vec<u8> {
    let terms: Vec<(&str, &[u32])> = terms.into_iter().collect();
    let mut out = Vec::new();
    put_varint(&mut out, terms.len() as u64);
    let mut prev: &[u8] = &[];
    for (term, _) in &terms {
        let t = term.as_bytes();
        debug_assert!(prev < t, "vocabulary terms must be sorted and distinct");
        let shared = prev.iter().zip(t).take_while(|(a, b)| a == b).count();
        put_varint(&mut out, shared as u64);
        put_varint(&mut out, (t.len() - shared) as u64);
        out.extend_from_slice(&t[shared..]);
        prev = t;
    }
    for (_, docs) in &terms {
        put_varint(&mut out, docs.len() as u64);
    }
    for (_, docs) in &terms {
        if let [doc] = docs {
            out.extend_from_slice(&doc.to_le_bytes()[..doc_width(n)]);
        }
    }
    out
}

impl Vocab {
    /// Decodes the vocabulary (or the block of it whose first term is at vocabulary
    /// position `base`) of an index of `n` incidents.
    pub fn decode(bytes: &[u8], n: usize, base: u32) -> Result<Vocab, FormatError> {
        let mut r = Reader { bytes, at: 0 };
        let count = r.varint()? as usize;
        if count > bytes.len() {
            return Err(bad("term count exceeds the data"));
        }
        let mut text = String::new();
        let mut ends = Vec::with_capacity(count);
        let mut prev_start = 0usize;
        for _ in 0..count {
            let shared = r.varint()? as usize;
            let rest = r.varint()? as usize;
            if shared > text.len() - prev_start {
                return Err(bad("a term shares more than the previous term has"));
            }
            let start = text.len();
            let mut term = text.as_bytes()[prev_start..prev_start + shared].to_vec();
            term.extend_from_slice(r.take(rest)?);
            let term = String::from_utf8(term).map_err(|_| bad("a term is not UTF-8"))?;
            if !ends.is_empty() && term.as_bytes() <= &text.as_bytes()[prev_start..] {
                return Err(bad("terms are out of order"));
            }
            text.push_str(&term);
            ends.push(text.len() as u32);
            prev_start = start;
        }
        let mut dfs = Vec::with_capacity(count);
        for _ in 0..count {
            let df = r.varint()?;
            if df == 0 || df > n as u64 {
                return Err(bad("a document frequency is out of range"));
            }
            dfs.push(df);
        }
        let mut postings = Vec::with_capacity(count);
        for (i, df) in dfs.into_iter().enumerate() {
            let p = if df == 1 {
                let mut le = [0u8; 4];
                le[..doc_width(n)].copy_from_slice(r.take(doc_width(n))?);
                let doc = u32::from_le_bytes(le);
                if doc as usize >= n {
                    return Err(bad("a term names an incident past the end"));
                }
                Postings::Single(doc)
            } else if is_common(df, n) {
                Postings::Common {
                    df: df as u32,
                    id: base.saturating_add(i as u32),
                }
            } else {
                Postings::Listed {
                    df: df as u32,
                    id: base.saturating_add(i as u32),
                }
            };
            postings.push(p);
        }
        if r.at != bytes.len() {
            return Err(bad("trailing bytes"));
        }
        Ok(Vocab {
            base,
            text,
            ends,
            postings,
        })
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there is no term.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Vocabulary position of the first term.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// Term number `i` of this block (vocabulary position `base + i`).
    pub fn term(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        crate::text::within(&self.text, start..self.ends[i] as usize)
    }

    /// Where the incidents of `term` are, if it is in the vocabulary.
    pub fn get(&self, term: &str) -> Option<Postings> {
        let i = self.lower_bound(term);
        (i < self.len() && self.term(i) == term).then(|| self.postings[i])
    }

    /// The first position whose term is not less than `key`.
    fn lower_bound(&self, key: &str) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.term(mid).as_bytes() < key.as_bytes() {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Terms in `[lo, hi)` (byte order) with their postings.
    pub fn range<'a>(&'a self, lo: &str, hi: &str) -> impl Iterator<Item = (&'a str, Postings)> + 'a {
        let (a, b) = (self.lower_bound(lo), self.lower_bound(hi));
        (a..b.max(a)).map(move |i| (self.term(i), self.postings[i]))
    }

    /// Every term with its postings, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Postings)> + '_ {
        (0..self.len()).map(move |i| (self.term(i), self.postings[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Vec<u8>, usize) {
        let terms: Vec<(&str, Vec<u32>)> = vec![
            ("503", vec![0, 1]),
            ("재시도", (0..20).collect()),
            ("재시도증폭", vec![3]),
            ("재시작", vec![2, 4, 5]),
            ("캐시", vec![7]),
        ];
        let bytes = encode(terms.iter().map(|(t, d)| (*t, d.as_slice())), 24);
        (bytes, 24)
    }

    #[test]
    fn round_trip_with_postings() {
        let (bytes, n) = sample();
        let v = Vocab::decode(&bytes, n, 0).unwrap();
        assert_eq!(v.len(), 5);
        assert_eq!(v.get("503"), Some(Postings::Listed { df: 2, id: 0 }));
        assert_eq!(v.get("재시도"), Some(Postings::Common { df: 20, id: 1 }));
        let later = Vocab::decode(&bytes, n, 256).unwrap();
        assert_eq!(later.get("재시도"), Some(Postings::Common { df: 20, id: 257 }));
        assert_eq!(v.get("재시도증폭"), Some(Postings::Single(3)));
        assert_eq!(v.get("재시작").map(Postings::df), Some(3));
        assert_eq!(v.get("재시"), None);
        assert_eq!(v.get("캐시가"), None);
        let found: Vec<&str> = v.range("재시", "재시\u{10FFFF}").map(|(t, _)| t).collect();
        assert_eq!(found, ["재시도", "재시도증폭", "재시작"]);
        assert_eq!(v.range("캐", "가").count(), 0);
        assert_eq!(v.iter().count(), 5);
    }

    #[test]
    fn incident_lists_round_trip_and_refuse_damage() {
        let docs = [0u32, 1, 7, 300, 8999];
        let bytes = encode_list(&docs);
        let mut back = Vec::new();
        decode_list(&bytes, 9000, |d| back.push(d as u32)).unwrap();
        assert_eq!(back, docs);
        assert!(decode_list(&bytes, 9000 - 1, |_| {}).is_err());
        assert!(decode_list(&[0x80], 10, |_| {}).is_err());
        assert!(decode_list(&[1, 0], 10, |_| {}).is_err());
    }

    #[test]
    fn directory_finds_blocks() {
        let terms = ["a", "b", "c", "d", "e"];
        let dir = Directory::of(terms, 2);
        assert_eq!(dir.separators, ["a", "c", "e"]);
        // Separators: the shortest start of a block's first term after the last
        // term before it.
        let korean = Directory::of(["가나", "장수", "장애물", "장애인", "재시도"], 2);
        assert_eq!(korean.separators, ["가나", "장애", "재"]);
        assert_eq!(korean.block_of("장애물"), Some(1));
        assert_eq!(korean.block_of("장애"), Some(1));
        assert_eq!(korean.block_of("장수"), Some(0));
        assert_eq!(korean.block_of("재시도"), Some(2));
        assert!(korean.starts_block(1, "장애물") && !korean.starts_block(1, "장수"));
        assert_eq!(Directory::of(["ab", "abc"], 1).separators, ["ab", "abc"]);
        assert_eq!(dir.check(), Ok(()));
        assert_eq!(dir.block_of("0"), None);
        assert_eq!(dir.block_of("a"), Some(0));
        assert_eq!(dir.block_of("bz"), Some(0));
        assert_eq!(dir.block_of("c"), Some(1));
        assert_eq!(dir.block_of("zz"), Some(2));
        assert_eq!(dir.block_at(3), 1);
        assert_eq!(dir.block_len(2), 1);
        let mut broken = dir.clone();
        broken.terms = 9;
        assert!(broken.check().is_err());
        broken = dir.clone();
        broken.separators.swap(0, 1);
        assert!(broken.check().is_err());
    }

    #[test]
    fn corrupt_bytes_are_errors_not_panics() {
        let (bytes, n) = sample();
        for cut in 0..bytes.len() {
            assert!(Vocab::decode(&bytes[..cut], n, 0).is_err(), "cut at {cut}");
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(Vocab::decode(&extra, n, 0).is_err());
        // Fewer incidents than a document frequency or an incident number says.
        assert!(Vocab::decode(&bytes, 8, 0).is_err());
        // Wider incident numbers.
        let wide = encode([("a", &[300u32][..]), ("b", &[1, 2][..])], 1000);
        let v = Vocab::decode(&wide, 1000, 0).unwrap();
        assert_eq!(v.get("a"), Some(Postings::Single(300)));
        assert!(Vocab::decode(&wide, 200, 0).is_err());
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0xff;
            let _ = Vocab::decode(&b, n, 0);
        }
    }
}
