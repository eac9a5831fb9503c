//! Measures the per-incident filter candidates on the shipped corpus: bytes per
//! key and the false-positive rate seen when every vocabulary term that a record
//! lacks is looked up in that record's filter. `docs/index-format.md` records the
//! figures and the choice they led to.
//!
//! cargo run --release --example filter_choice

use std::collections::BTreeSet;

use incident_build::indexer::{record_keys, record_terms};
use incident_core::hash::{term_key, Field};
use xorf::{BinaryFuse16, BinaryFuse8, Filter};

/// A classic Bloom filter with `k` hashes derived from one 64-bit key.
struct Bloom {
    bits: Vec<u64>,
    k: u32,
}

impl Bloom {
    fn new(keys: &[u64], bits_per_key: usize) -> Bloom {
        let m = (keys.len() * bits_per_key).max(64);
        let k = ((bits_per_key as f64) * std::f64::consts::LN_2).round().max(1.0) as u32;
        let mut b = Bloom {
            bits: vec![0; m.div_ceil(64)],
            k,
        };
        for &key in keys {
            for i in 0..k {
                let bit = b.bit(key, i);
                b.bits[bit / 64] |= 1 << (bit % 64);
            }
        }
        b
    }
    fn bit(&self, key: u64, i: u32) -> usize {
        let (h1, h2) = (key as u32 as u64, (key >> 32) | 1);
        (h1.wrapping_add((i as u64).wrapping_mul(h2)) % (self.bits.len() as u64 * 64)) as usize
    }
    fn contains(&self, key: u64) -> bool {
        (0..self.k).all(|i| {
            let bit = self.bit(key, i);
            self.bits[bit / 64] & (1 << (bit % 64)) != 0
        })
    }
    fn bytes(&self) -> usize {
        self.bits.len() * 8
    }
}

fn main() {
    let data = std::path::Path::new("data");
    let corpus = incident_build::corpus::load(data).unwrap_or_else(|d| panic!("{} problems in the corpus", d.len()));
    let analyzer = incident_build::bundle::analyzer_for(data).unwrap_or_else(|e| panic!("{e}"));
    let docs: Vec<_> = corpus
        .incidents
        .iter()
        .map(|i| record_terms(i, &analyzer).unwrap())
        .collect();
    let vocab: BTreeSet<&String> = docs.iter().flat_map(|d| d.all()).collect();

    let mut totals = [(0usize, 0usize); 5]; // (bytes, false positives)
    let mut keys_total = 0;
    let mut probes = 0;
    for d in &docs {
        let mut keys: Vec<u64> = record_keys(d, |_| true, &[]).into_iter().map(|(_, k)| k).collect();
        keys.sort_unstable();
        keys.dedup();
        keys_total += keys.len();
        let absent: Vec<u64> = vocab
            .iter()
            .filter(|t| !d.has(t))
            .map(|t| term_key(t, Field::Any))
            .collect();
        probes += absent.len();
        let f8 = BinaryFuse8::try_from(&keys).unwrap();
        let f16 = BinaryFuse16::try_from(&keys).unwrap();
        let b10 = Bloom::new(&keys, 10);
        let b16 = Bloom::new(&keys, 16);
        let b8 = Bloom::new(&keys, 8);
        let fp = |f: &dyn Fn(u64) -> bool| absent.iter().filter(|&&k| f(k)).count();
        let results = [
            (f8.fingerprints.len(), fp(&|k| f8.contains(&k))),
            (f16.fingerprints.len() * 2, fp(&|k| f16.contains(&k))),
            (b8.bytes(), fp(&|k| b8.contains(k))),
            (b10.bytes(), fp(&|k| b10.contains(k))),
            (b16.bytes(), fp(&|k| b16.contains(k))),
        ];
        for (t, r) in totals.iter_mut().zip(results) {
            t.0 += r.0;
            t.1 += r.1;
        }
    }
    println!(
        "{} records, {} filter keys, {} vocabulary terms, {} absent-term probes",
        docs.len(),
        keys_total,
        vocab.len(),
        probes
    );
    println!(
        "{:<22} {:>9} {:>10} {:>12}",
        "filter", "bytes", "bits/key", "false pos."
    );
    for (name, (bytes, fp)) in [
        "binary fuse 8",
        "binary fuse 16",
        "bloom 8 bits/key",
        "bloom 10 bits/key",
        "bloom 16 bits/key",
    ]
    .iter()
    .zip(totals)
    {
        println!(
            "{:<22} {:>9} {:>10.2} {:>11.3}%",
            name,
            bytes,
            bytes as f64 * 8.0 / keys_total as f64,
            100.0 * fp as f64 / probes.max(1) as f64
        );
    }
}
