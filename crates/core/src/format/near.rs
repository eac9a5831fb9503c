//! Near terms: the vocabulary as the typo and 초성 lookups read it, cut into
//! buckets (`near-NNNN.bin`) so that a lookup fetches two or three small files
//! rather than the whole vocabulary.
//!
//! A term is filed under three keys, each hashed to a bucket:
//!
//! * `<`, its first two 2-set keyboard keys and its length band, and `>`, its
//!   last two and its length band (a large vocabulary's; a small one's keys have
//!   no length, [`length_band`]): a term one edit away from a word keeps either the
//!   word's first two keys or its last two (one edit changes one place, and the two
//!   ends of a word of four keys or more do not overlap), and its length differs by
//!   at most one, so the typo lookup reads the buckets of the word's ends at the
//!   lengths a term that near can have. Of the terms two edits away (words of ten
//!   keys or more) it finds those that keep one end, which is nearly all: a second
//!   edit rarely falls at the other end. The length spreads the terms of a common
//!   end (`<ㄱㅏ`, thousands in a large library) over many keys, so a lookup reads
//!   those of a few lengths, not all of them.
//! * `^` and the initial consonants of its first two syllables, for a term of
//!   Hangul syllables only: a 초성 query of two or more consonants reads the bucket
//!   of its first two.
//!
//! Each bucket lists its terms (sorted, distinct) with their document frequencies.

use serde::{Deserialize, Serialize};

use crate::text::hangul;

/// Keys a bucket holds, about: the build makes as many buckets as that needs.
pub const BUCKET_KEYS: usize = 64;

/// One bucket of near terms (`near-NNNN.bin`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct NearBucket {
    /// The bucket's number: a file saved under another bucket's name is refused.
    pub bucket: u32,
    /// Its terms, sorted, distinct.
    pub terms: Vec<String>,
    /// Each term's document frequency.
    pub dfs: Vec<u32>,
}

/// The file name of bucket `b`.
pub fn file(b: usize) -> String {
    format!("near-{b:04}.bin")
}

/// The width of the length bands that a vocabulary of `terms` terms files its
/// typo keys under, or 0 for none (then the keys hold no length). A small
/// vocabulary has few terms under any end, and a lookup that reads two buckets
/// reads least; a large one has thousands under a common end (`<ㄱㅏ`), and a
/// lookup reads less through the few bands a typo can reach. Measured on the
/// shipped corpus (7,361 terms) and synthetic ones of 1,000, 3,000 and 9,000
/// records (57k, 143k and 278k terms), by the p95 of a first search over both
/// query sets: no bands are best for the first, bands of two lengths for the
/// others (at 9,000 records p95 236 KB without bands, 207 KB with). Bands of one
/// length cost about as many bytes there, but a typo lookup then reads up to ten
/// buckets for each end, where bands of two read fewer: over the blind set 5.1
/// waves of six requests on average against 5.4.
pub fn length_band(terms: usize) -> u32 {
    match terms {
        0..20_000 => 0,
        _ => 2,
    }
}

/// The keys `term` is filed under, with typo keys in length bands of `band`
/// keys (0: no length).
pub fn term_keys(term: &str, band: u32) -> Vec<String> {
    let mut out = typo_keys(&hangul::keys(term), band);
    if let Some(initials) = hangul::initials(term) {
        out.extend(initials_key(&initials));
    }
    out
}

/// The keys of the ends of a key sequence, with its length band: what a term is
/// filed under for the typo lookup.
pub fn typo_keys(keys: &[char], band: u32) -> Vec<String> {
    ends(keys, keys.len()..=keys.len(), band)
}

/// The keys the typo lookup of a word (its key sequence) reads for the terms at
/// most `max` edits away: its ends in every length band such a term can be in.
pub fn typo_lookup_keys(keys: &[char], max: usize, band: u32) -> Vec<String> {
    ends(keys, keys.len().saturating_sub(max).max(2)..=keys.len() + max, band)
}

/// `<` with the first two keys and `>` with the last two, each with every band of
/// `lengths` (none when `band` is 0).
fn ends(keys: &[char], lengths: std::ops::RangeInclusive<usize>, band: u32) -> Vec<String> {
    if keys.len() < 2 {
        return Vec::new();
    }
    let (first, last) = (&keys[..2], &keys[keys.len() - 2..]);
    let mut bands: Vec<String> = Vec::new();
    if band == 0 {
        bands.push(String::new());
    } else {
        for n in lengths {
            let b = (n / band as usize).to_string();
            if !bands.contains(&b) {
                bands.push(b);
            }
        }
    }
    let mut out = Vec::new();
    for (mark, two) in [('<', first), ('>', last)] {
        for b in &bands {
            out.push(format!("{mark}{}{}{b}", two[0], two[1]));
        }
    }
    out
}

/// The key of initial consonants that a 초성 query reads: its first two.
pub fn initials_key(initials: &[char]) -> Option<String> {
    (initials.len() >= 2).then(|| std::iter::once('^').chain(initials[..2].iter().copied()).collect())
}

/// The buckets of a vocabulary (terms sorted, distinct, with their document
/// frequencies), with typo keys in length bands of `band` ([`length_band`]): as
/// many as hold about [`BUCKET_KEYS`] keys each, in order.
pub fn buckets<'a>(terms: impl IntoIterator<Item = (&'a str, u64)>, band: u32) -> Vec<NearBucket> {
    let filed: Vec<(&str, u64, Vec<String>)> = terms.into_iter().map(|(t, df)| (t, df, term_keys(t, band))).collect();
    let keys: usize = filed.iter().map(|(_, _, k)| k.len()).sum();
    let count = keys.div_ceil(BUCKET_KEYS).max(1);
    let mut out: Vec<NearBucket> = (0..count)
        .map(|b| NearBucket {
            bucket: b as u32,
            terms: Vec::new(),
            dfs: Vec::new(),
        })
        .collect();
    for (term, df, keys) in filed {
        for key in keys {
            let bucket = &mut out[bucket_of(&key, count as u32)];
            // Terms come in order, so a term filed twice in a bucket is its last.
            if bucket.terms.last().map(String::as_str) != Some(term) {
                bucket.terms.push(term.to_string());
                bucket.dfs.push(df.min(u32::MAX as u64) as u32);
            }
        }
    }
    out
}

/// The bucket of `key` among `buckets`: FNV-1a (32 bits) of its UTF-8 bytes, a
/// hash the browser's loader computes in a few lines (`nearFiles` in
/// `www/pkg/library.js`) to ask for a word's buckets before the module has started.
pub fn bucket_of(key: &str, buckets: u32) -> usize {
    let hash = key
        .bytes()
        .fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    (hash % buckets.max(1)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_keeps_an_end() {
        // 재시도 and a typo of it with the middle, the first and the last key changed.
        let word = hangul::keys("재시도");
        for typo in ["재시두", "재씨도", "제시도", "재시돈", "재시ㄷ"] {
            let keys = hangul::keys(typo);
            for band in [0, 1, 2, 3] {
                let shared = typo_lookup_keys(&keys, 1, band)
                    .iter()
                    .any(|k| typo_keys(&word, band).contains(k));
                assert!(shared, "{typo} {band}");
            }
        }
        // Filed with its length band: a lookup reads the bands one edit can reach.
        assert_eq!(typo_keys(&word, 0), ["<ㅈㅐ", ">ㄷㅗ"]);
        assert_eq!(typo_keys(&word, 1), ["<ㅈㅐ6", ">ㄷㅗ6"]);
        assert_eq!(
            typo_lookup_keys(&word, 1, 1),
            ["<ㅈㅐ5", "<ㅈㅐ6", "<ㅈㅐ7", ">ㄷㅗ5", ">ㄷㅗ6", ">ㄷㅗ7"]
        );
        assert_eq!(typo_lookup_keys(&word, 1, 4), ["<ㅈㅐ1", ">ㄷㅗ1"]);
        assert_eq!(typo_lookup_keys(&['a', 'b'], 2, 1).len(), 2 * 3);
        assert_eq!(term_keys("재시도", 1).len(), 3);
        assert_eq!(term_keys("dns", 0).len(), 2);
        assert!(term_keys("a", 1).is_empty());
        assert_eq!(initials_key(&['ㅈ', 'ㅅ', 'ㄷ']), Some("^ㅈㅅ".to_string()));
        assert_eq!(initials_key(&['ㅈ']), None);
        assert!(bucket_of("<wo", 7) < 7);
        assert_eq!(file(3), "near-0003.bin");
    }
}
