//! Damaged index files never panic: a bounded, deterministic mutation run over every
//! file of a built index, half of the cases with the checksum recomputed so that
//! the damage reaches the decoders. Every case must load cleanly or fail with a
//! `LoadError`, and a loaded index must answer searches without panicking.
//! Inputs that once crashed are kept in `tests/fixtures/crashes/` and replayed.

mod common;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

use incident_core::index::Index;
use incident_core::search::{search, Request};

/// Mutation cases run (at least 2,000, well under a minute).
const CASES: u64 = 2400;
/// The longest a single case may take.
const SLOW: Duration = Duration::from_secs(2);

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Rewrites the header's length and checksum for the (damaged) payload.
fn reseal(bytes: &mut [u8]) {
    use incident_core::format::{CHECKSUM_AT, HEADER_LEN, LENGTH_AT};
    if bytes.len() < HEADER_LEN {
        return;
    }
    let len = (bytes.len() - HEADER_LEN) as u32;
    bytes[LENGTH_AT].copy_from_slice(&len.to_le_bytes());
    let sum = incident_core::format::payload_checksum(&bytes[HEADER_LEN..]);
    bytes[CHECKSUM_AT].copy_from_slice(&sum.to_le_bytes());
}

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    let n = bytes.len();
    let at = incident_core::format::HEADER_LEN + rng.below(n.saturating_sub(incident_core::format::HEADER_LEN));
    match rng.below(7) {
        0 => bytes[at.min(n - 1)] ^= 1 << rng.below(8),
        1 => bytes[at.min(n - 1)] = rng.next() as u8,
        2 => bytes.truncate(at),
        3 => {
            let extra: Vec<u8> = (0..1 + rng.below(64)).map(|_| rng.next() as u8).collect();
            let at = at.min(bytes.len());
            bytes.splice(at..at, extra);
        }
        4 => {
            let end = (at + 1 + rng.below(32)).min(n);
            for b in &mut bytes[at.min(end)..end] {
                *b = 0;
            }
        }
        5 => {
            // A varint made huge: lengths and counts that claim the impossible.
            let end = (at + 4).min(n);
            for b in &mut bytes[at.min(end)..end] {
                *b = 0xff;
            }
        }
        _ => {
            let a = rng.below(n);
            let b = rng.below(n);
            bytes.swap(a, b);
        }
    }
}

/// A vocabulary block's filter as its fields (the crate keeps them private).
#[derive(serde::Serialize, serde::Deserialize)]
struct FilterFields {
    seed: u64,
    segment_length: u32,
    segment_length_mask: u32,
    segment_count_length: u32,
    fingerprints: Vec<u8>,
}

/// A vocabulary block file's payload.
#[derive(serde::Serialize, serde::Deserialize)]
struct BlockFile {
    first: u32,
    terms: Vec<u8>,
    filter: FilterFields,
    common: Vec<(u32, Vec<u8>)>,
    lists: Vec<(u32, Vec<u8>)>,
}

/// A checksum-valid vocabulary block whose filter parameters disagree with each other or
/// with its fingerprints: what a crafted file would hold.
fn craft_filter(rng: &mut Rng, bytes: &[u8]) -> Option<Vec<u8>> {
    use incident_core::format::{decode, encode, Kind};
    let mut part: BlockFile = decode(Kind::Vocab, bytes).ok()?;
    let f = &mut part.filter;
    if f.fingerprints.is_empty() {
        return None;
    }
    match rng.below(6) {
        5 if f.segment_length > 1 && f.segment_count_length > f.segment_length => {
            // Segments that are not whole, with exactly as many fingerprints as the
            // length check asks for: the last segment's flipped indexes run past the end.
            f.segment_count_length -= f.segment_length - 1;
            let needed = f.segment_count_length as usize + 2 * f.segment_length as usize;
            f.fingerprints.truncate(needed);
        }
        0 => f.segment_count_length = f.segment_count_length.wrapping_add(1 + rng.below(7) as u32),
        1 => f.segment_count_length = f.segment_count_length.wrapping_mul(2).wrapping_add(f.segment_length),
        2 => {
            f.segment_length = f.segment_length.wrapping_mul(2);
            f.segment_length_mask = f.segment_length.wrapping_sub(1);
        }
        3 => f.fingerprints.truncate(rng.below(f.fingerprints.len())),
        _ => f.segment_count_length = u32::MAX - rng.below(1000) as u32,
    }
    Some(encode(Kind::Vocab, &part))
}

/// Loads `files` and, when it loads, searches it; Err(message) on a panic.
fn exercise(files: &BTreeMap<String, Vec<u8>>) -> Result<bool, String> {
    catch_unwind(AssertUnwindSafe(|| {
        let queries = [
            "재시도를",
            "깃허브 데이터베이스 페일오버",
            "호주 리전 없는낱말",
            "ㄴㄱㄱ",
            "iptalbes",
            "",
        ];
        let request = |q: &str| Request {
            query: q.into(),
            graph: vec!["cause".into(), "component".into()],
            ..Default::default()
        };
        // As the browser reads it: meta.bin, then each file as a search names it.
        if let Ok(mut opened) = Index::open(|name| files.get(name).cloned().ok_or("missing")) {
            for q in queries {
                for _ in 0..8 {
                    let Ok(r) = search(&opened, &request(q)) else { break };
                    let mut added = false;
                    for name in &r.missing {
                        if let Some(bytes) = files.get(name) {
                            added |= opened.add_file(name, bytes).is_ok();
                        }
                    }
                    if !added {
                        break;
                    }
                }
            }
        }
        let index = Index::load(|name| files.get(name).cloned().ok_or("missing"));
        let Ok(index) = index else { return false };
        // Every term in every incident: reaches every part of every filter.
        let terms: Vec<String> = index.vocab_terms().take(3000).map(|(t, _)| t.to_string()).collect();
        for term in &terms {
            for doc in 0..index.len() {
                let _ = index.has_term(doc, term);
            }
        }
        for q in queries {
            let _ = search(&index, &request(q));
        }
        true
    }))
    .map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

#[test]
fn mutated_index_files_fail_cleanly() {
    let dir = common::shipped_bundle();
    let original = files(&dir.path().join("dist/index"));
    // Mutate the files a search reads, and one listing file.
    let names: Vec<String> = original
        .keys()
        .filter(|n| !n.starts_with("listing-") || n.as_str() == "listing-0000.bin")
        .cloned()
        .collect();
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(0x1234_5678);
    let (mut loaded, mut refused, mut panics, mut slow) = (0, 0, Vec::new(), Vec::new());
    let crashes = common::repo().join("tests/fixtures/crashes");
    let mut replay: Vec<(String, Vec<u8>)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&crashes) {
        for e in entries.flatten() {
            let file = e.file_name().to_string_lossy().into_owned();
            // Fixtures are named <index file>.<case>, e.g. meta.bin.17.
            let target = file.rsplit_once('.').map_or(file.clone(), |(t, _)| t.to_string());
            replay.push((target, std::fs::read(e.path()).unwrap()));
        }
    }
    let started = Instant::now();
    let total = CASES as usize + replay.len();
    for case in 0..total {
        let mut damaged = original.clone();
        let label;
        if case < replay.len() {
            let (target, bytes) = &replay[case];
            damaged.insert(target.clone(), bytes.clone());
            label = format!("fixture for {target}");
        } else {
            let name = &names[rng.below(names.len())];
            let bytes = damaged.get_mut(name).unwrap();
            let crafted = if name.starts_with("vocab-") && rng.below(4) == 0 {
                craft_filter(&mut rng, bytes)
            } else {
                None
            };
            if let Some(c) = crafted {
                *bytes = c;
            } else {
                for _ in 0..1 + rng.below(3) {
                    mutate(&mut rng, bytes);
                }
                if rng.below(2) == 0 {
                    reseal(bytes);
                }
            }
            label = format!("case {case} on {name}");
        }
        let t = Instant::now();
        match exercise(&damaged) {
            Ok(true) => loaded += 1,
            Ok(false) => refused += 1,
            Err(message) => {
                if let Ok(dir) = std::env::var("IL_FUZZ_SAVE") {
                    // Keep the damaged file to commit as a fixture.
                    let name = label.rsplit(' ').next().unwrap_or("x").to_string();
                    let _ = std::fs::create_dir_all(&dir);
                    let _ = std::fs::write(Path::new(&dir).join(format!("{name}.{case}")), &damaged[&name]);
                }
                panics.push(format!("{label}: {message}"))
            }
        }
        if t.elapsed() > SLOW {
            slow.push(format!("{label}: {:?}", t.elapsed()));
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "index mutations: {total} cases in {:?} ({} replayed fixtures): {loaded} loaded and searched, {refused} refused with an error, {} panics, {} over {SLOW:?}",
        started.elapsed(),
        replay.len(),
        panics.len(),
        slow.len()
    );
    assert!(panics.is_empty(), "{} panics:\n{}", panics.len(), panics.join("\n"));
    assert!(slow.is_empty(), "slow cases:\n{}", slow.join("\n"));
}
