//! Near terms: the vocabulary as the typo and 초성 lookups read it, cut into
//! buckets (`near-NNNN.bin`) so that a lookup fetches two or three small files
//! rather than the whole vocabulary.
//!
//! A term is filed under three keys, each hashed to a bucket:
//!
//! * `<` and its first two 2-set keyboard keys, `>` and its last two: a term one
//!   edit away from a word keeps either the word's first two keys or its last two
//!   (one edit changes one place, and the two ends of a word of four keys or more
//!   do not overlap), so the typo lookup reads the two buckets of the word's ends.
//!   Of the terms two edits away (words of ten keys or more) it finds those that
//!   keep one end, which is nearly all: a second edit rarely falls at the other end.
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

/// The keys `term` is filed under.
pub fn term_keys(term: &str) -> Vec<String> {
    let mut out = typo_keys(&hangul::keys(term));
    if let Some(initials) = hangul::initials(term) {
        out.extend(initials_key(&initials));
    }
    out
}

/// The keys of the ends of a key sequence: what the typo lookup of a word reads,
/// and what a term is filed under.
pub fn typo_keys(keys: &[char]) -> Vec<String> {
    if keys.len() < 2 {
        return Vec::new();
    }
    let first: String = std::iter::once('<').chain(keys[..2].iter().copied()).collect();
    let last: String = std::iter::once('>')
        .chain(keys[keys.len() - 2..].iter().copied())
        .collect();
    vec![first, last]
}

/// The key of initial consonants that a 초성 query reads: its first two.
pub fn initials_key(initials: &[char]) -> Option<String> {
    (initials.len() >= 2).then(|| std::iter::once('^').chain(initials[..2].iter().copied()).collect())
}

/// The buckets of a vocabulary (terms sorted, distinct, with their document
/// frequencies): as many as hold about [`BUCKET_KEYS`] keys each, in order.
pub fn buckets<'a>(terms: impl IntoIterator<Item = (&'a str, u64)>) -> Vec<NearBucket> {
    let filed: Vec<(&str, u64, Vec<String>)> = terms.into_iter().map(|(t, df)| (t, df, term_keys(t))).collect();
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

/// The bucket of `key` among `buckets`.
pub fn bucket_of(key: &str, buckets: u32) -> usize {
    (xxhash_rust::xxh3::xxh3_64_with_seed(key.as_bytes(), 0x494c_0000_0000_0060) % u64::from(buckets.max(1))) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_keeps_an_end() {
        // 재시도 and a typo of it with the middle, the first and the last key changed.
        let word = hangul::keys("재시도");
        for typo in ["재시두", "재씨도", "제시도", "재시도오"] {
            let keys = hangul::keys(typo);
            let shared = typo_keys(&word).iter().any(|k| typo_keys(&keys).contains(k));
            assert!(shared, "{typo}");
        }
        assert_eq!(term_keys("재시도").len(), 3);
        assert_eq!(term_keys("dns").len(), 2);
        assert!(term_keys("a").is_empty());
        assert_eq!(initials_key(&['ㅈ', 'ㅅ', 'ㄷ']), Some("^ㅈㅅ".to_string()));
        assert_eq!(initials_key(&['ㅈ']), None);
        assert!(bucket_of("<wo", 7) < 7);
        assert_eq!(file(3), "near-0003.bin");
    }
}
