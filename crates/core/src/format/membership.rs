//! Membership filters: one binary fuse filter (8-bit fingerprints) per chunk of
//! incidents, over the [`crate::hash::doc_key`]s of its incidents' terms.
//!
//! Why binary fuse 8: at about 10 bits a key (the shipped chunk holds 11,431 keys in
//! 14,354 bytes; the ideal is 9) it is the smallest filter with a
//! false-positive rate under 0.4 %, construction is deterministic (fixed seed
//! sequence), and lookups cost three memory reads. `docs/index-format.md` records
//! the measurements against a Bloom filter and binary fuse 16. False positives are
//! further cut by the vocabulary: only terms that exist in the corpus are looked up.

use serde::{Deserialize, Serialize};
use xorf::{BinaryFuse8, Descriptor, Filter};

/// A serialisable binary fuse filter. An empty key set is stored as no filter at
/// all, which contains nothing.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TermFilter {
    seed: u64,
    segment_length: u32,
    segment_length_mask: u32,
    segment_count_length: u32,
    fingerprints: Vec<u8>,
}

impl TermFilter {
    /// Builds a filter over `keys` (duplicates allowed).
    pub fn build(keys: &[u64]) -> TermFilter {
        let mut keys = keys.to_vec();
        keys.sort_unstable();
        keys.dedup();
        if keys.is_empty() {
            return TermFilter {
                seed: 0,
                segment_length: 0,
                segment_length_mask: 0,
                segment_count_length: 0,
                fingerprints: Vec::new(),
            };
        }
        // Construction fails only for duplicate keys, removed above.
        let fuse = BinaryFuse8::try_from(&keys).expect("binary fuse construction over unique keys");
        TermFilter {
            seed: fuse.descriptor.seed,
            segment_length: fuse.descriptor.segment_length,
            segment_length_mask: fuse.descriptor.segment_length_mask,
            segment_count_length: fuse.descriptor.segment_count_length,
            fingerprints: fuse.fingerprints.to_vec(),
        }
    }

    /// Rebuilds the lookup structure. Fails on inconsistent parameters, which only a
    /// corrupted file can produce.
    pub fn to_lookup(&self) -> Result<Lookup, String> {
        if self.fingerprints.is_empty() {
            return Ok(Lookup(None));
        }
        // xorf indexes the fingerprints at h0 < segment_count_length, and at h0 plus
        // one and two segments with the low bits flipped: every index stays below
        // segment_count_length + 2 * segment_length only when the segments are whole
        // (a power-of-two length, a count that is a multiple of it) and nothing
        // overflows a u32. A file that breaks any of this is refused here rather than
        // reaching an index out of bounds inside the library.
        let (sl, scl) = (self.segment_length as u64, self.segment_count_length as u64);
        let needed = scl + 2 * sl;
        if sl == 0
            || scl == 0
            || !self.segment_length.is_power_of_two()
            || self.segment_length_mask != self.segment_length - 1
            || scl % sl != 0
            || needed + sl > u32::MAX as u64
            || (self.fingerprints.len() as u64) < needed
        {
            return Err("inconsistent filter parameters".into());
        }
        // Built field by field rather than through xorf's constructor, which would
        // pull the construction code into the wasm module.
        let fuse = BinaryFuse8 {
            descriptor: Descriptor {
                seed: self.seed,
                segment_length: self.segment_length,
                segment_length_mask: self.segment_length_mask,
                segment_count_length: self.segment_count_length,
            },
            fingerprints: self.fingerprints.clone().into_boxed_slice(),
        };
        Ok(Lookup(Some(fuse)))
    }

    /// Size of the fingerprints in bytes.
    pub fn size_bytes(&self) -> usize {
        self.fingerprints.len()
    }
}

/// A filter ready for lookups.
#[derive(Debug, Clone)]
pub struct Lookup(Option<BinaryFuse8>);

impl Lookup {
    /// True when `key` may be in the set; false means it certainly is not.
    pub fn contains(&self, key: u64) -> bool {
        self.0.as_ref().is_some_and(|f| f.contains(&key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_false_negatives_and_few_false_positives() {
        let keys: Vec<u64> = (0..500u64)
            .map(|i| crate::hash::term_key(&format!("term{i}"), crate::hash::Field::Any))
            .collect();
        let filter = TermFilter::build(&keys).to_lookup().unwrap();
        assert!(keys.iter().all(|&k| filter.contains(k)));
        let fp = (0..20_000u64)
            .filter(|i| filter.contains(crate::hash::term_key(&format!("other{i}"), crate::hash::Field::Any)))
            .count();
        assert!(fp < 200, "false positives: {fp} of 20000");
    }

    #[test]
    fn empty_and_tiny_sets() {
        assert!(!TermFilter::build(&[]).to_lookup().unwrap().contains(1));
        let one = TermFilter::build(&[42]).to_lookup().unwrap();
        assert!(one.contains(42));
    }

    #[test]
    fn crafted_parameters_are_refused_not_panicked_on() {
        let keys: Vec<u64> = (0..300u64).map(|i| i.wrapping_mul(0x9E3779B97F4A7C15)).collect();
        let good = TermFilter::build(&keys);
        let mut cases = Vec::new();
        for (sl, scl) in [
            (0, 64),
            (3, 64),
            (64, 0),
            (64, 96 + 1),
            (64, 100),
            (1 << 31, 1 << 31),
            (1, u32::MAX),
        ] {
            let mut f = good.clone();
            f.segment_length = sl;
            f.segment_length_mask = sl.wrapping_sub(1);
            f.segment_count_length = scl;
            cases.push(f);
        }
        let mut short = good.clone();
        short.fingerprints.truncate(good.fingerprints.len() / 2);
        cases.push(short);
        for (i, f) in cases.into_iter().enumerate() {
            assert!(f.to_lookup().is_err(), "crafted case {i} was accepted");
        }
        // The filter they were made from still reads, and finds its keys.
        let lookup = good.to_lookup().unwrap();
        assert!(keys.iter().all(|&k| lookup.contains(k)));
    }

    #[test]
    fn deterministic() {
        let keys: Vec<u64> = (0..300u64).map(|i| i.wrapping_mul(0x9E3779B97F4A7C15)).collect();
        assert_eq!(TermFilter::build(&keys), TermFilter::build(&keys));
    }
}
