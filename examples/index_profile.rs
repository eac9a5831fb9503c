//! Prints what the parts of a built index weigh, raw and gzip: the vocabulary, the
//! common-term bitsets, the facets, the listings (titles, summaries) and the filters.
//!
//! cargo run --release --example index_profile [dist]

use std::io::Write;

fn gz(bytes: &[u8]) -> usize {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).unwrap();
    e.finish().unwrap().len()
}

fn row(what: &str, bytes: &[u8]) {
    println!("{what:<24} {:>8} {:>8}", bytes.len(), gz(bytes));
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "dist".into());
    let index = incident_library::bundle::load_index(std::path::Path::new(&dir)).unwrap_or_else(|e| panic!("{e}"));
    row("vocabulary (fst)", &index.meta.vocab);
    row("common bitsets", &postcard::to_allocvec(&index.meta.common).unwrap());
    row("facets", &postcard::to_allocvec(&index.meta.facets).unwrap());
    row(
        "ids + days",
        &postcard::to_allocvec(&(&index.meta.ids, &index.meta.days)).unwrap(),
    );
    let titles: Vec<&str> = index.listings.iter().map(|l| l.title.as_str()).collect();
    let summaries: Vec<&str> = index.listings.iter().map(|l| l.summary.as_str()).collect();
    row("listing titles", &postcard::to_allocvec(&titles).unwrap());
    row("listing summaries", &postcard::to_allocvec(&summaries).unwrap());
    let terms: Vec<&str> = {
        use fst::Streamer;
        let mut s = index.vocab.stream();
        let mut v = Vec::new();
        while let Some((k, _)) = s.next() {
            v.push(String::from_utf8_lossy(k).into_owned());
        }
        v.leak().iter().map(|s| s.as_str()).collect()
    };
    let digits = terms.iter().filter(|t| t.chars().all(|c| c.is_ascii_digit())).count();
    let latin = terms.iter().filter(|t| t.is_ascii()).count();
    println!("{} terms: {} pure digits, {} ascii", terms.len(), digits, latin);
    row("vocabulary as lines", terms.join("\n").as_bytes());
    let mut front = Vec::new();
    let mut prev = "";
    for t in &terms {
        let common = prev.bytes().zip(t.bytes()).take_while(|(a, b)| a == b).count();
        front.push(common.min(255) as u8);
        front.extend_from_slice(&t.as_bytes()[common..]);
        front.push(0);
        prev = t;
    }
    row("vocabulary front-coded", &front);
}
