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
    let index = incident_build::open::load_index(std::path::Path::new(&dir)).unwrap_or_else(|e| panic!("{e}"));
    row("vocabulary", &index.meta.vocab);
    row("common bitsets", &postcard::to_allocvec(&index.meta.common).unwrap());
    row("lengths", &postcard::to_allocvec(&index.meta.lengths).unwrap());
    row("lexicon", &postcard::to_allocvec(&index.meta.lexicon).unwrap());
    row("facets", &postcard::to_allocvec(&index.meta.facets).unwrap());
    row(
        "ids + days",
        &postcard::to_allocvec(&(&index.meta.ids, &index.meta.days)).unwrap(),
    );
    let titles: Vec<&str> = index.listings.iter().map(|l| l.title.as_str()).collect();
    let summaries: Vec<&str> = index.listings.iter().map(|l| l.summary.as_str()).collect();
    row("listing titles", &postcard::to_allocvec(&titles).unwrap());
    row("listing summaries", &postcard::to_allocvec(&summaries).unwrap());
    let terms: Vec<&str> = index.vocab.iter().map(|(t, _)| t).collect();
    let single = index
        .vocab
        .iter()
        .filter(|(_, p)| matches!(p, incident_core::vocab::Postings::Single(_)))
        .count();
    let digits = terms.iter().filter(|t| t.chars().all(|c| c.is_ascii_digit())).count();
    let latin = terms.iter().filter(|t| t.is_ascii()).count();
    println!(
        "{} terms: {} in one incident, {} common, {} pure digits, {} ascii",
        terms.len(),
        single,
        index.vocab.common_count(),
        digits,
        latin
    );
    row("vocabulary as lines", terms.join("\n").as_bytes());
}
