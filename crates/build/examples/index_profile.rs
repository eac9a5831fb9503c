//! Prints what the parts of a built index weigh, raw and gzip: the parts of
//! `meta.bin` as it stores them (vocabulary directory, facets with and without each
//! incident's values, lexicon, ids, dates, lengths), and
//! the vocabulary blocks, near-term buckets and listing files, each summed over its files
//! (gzip per file, as a server sends them) with the mean file.
//!
//! cargo run --release --example index_profile [dist]

use std::io::Write;

fn gz(bytes: &[u8]) -> usize {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).unwrap();
    e.finish().unwrap().len()
}

/// The facets as `meta.bin` stores them: the values, then each incident's.
struct Facets<'a>(&'a [incident_core::index::Facet]);

impl serde::Serialize for Facets<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        incident_core::index::packed::facets::serialize(self.0, s)
    }
}

/// The ids as `meta.bin` stores them: the differences of their numbers.
struct Ids<'a>(&'a [String]);

impl serde::Serialize for Ids<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        incident_core::index::packed::ids::serialize(self.0, s)
    }
}

fn row(what: &str, bytes: &[u8]) {
    println!("{what:<28} {:>9} {:>9}", bytes.len(), gz(bytes));
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "dist".into());
    let dir = std::path::Path::new(&dir);
    let index = incident_build::open::load_index(dir).unwrap_or_else(|e| panic!("{e}"));
    let meta = &index.meta;
    println!("{:<28} {:>9} {:>9}", "meta.bin", "raw", "gzip");
    row("  vocabulary directory", &postcard::to_allocvec(&meta.vocab).unwrap());
    // Each part as meta.bin stores it (`Meta`'s `serde(with)` encodings).
    let facets = postcard::to_allocvec(&Facets(&meta.facets)).unwrap();
    let names = postcard::to_allocvec(&meta.facets).unwrap();
    row("  facets", &facets);
    row("    their values and names", &names);
    row("  lexicon", &postcard::to_allocvec(&meta.lexicon).unwrap());
    row("  ids", &postcard::to_allocvec(&Ids(&meta.ids)).unwrap());
    row("  days", &postcard::to_allocvec(&meta.days).unwrap());
    row("  lengths", &postcard::to_allocvec(&meta.lengths).unwrap());
    let mut groups: std::collections::BTreeMap<&str, (usize, usize, usize)> = Default::default();
    for entry in std::fs::read_dir(dir.join("index")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let group = ["vocab-", "near-", "listing-", "meta"]
            .into_iter()
            .find(|p| name.starts_with(p))
            .unwrap_or("other");
        let bytes = std::fs::read(entry.path()).unwrap();
        let g = groups.entry(group).or_default();
        *g = (g.0 + 1, g.1 + bytes.len(), g.2 + gz(&bytes));
    }
    for (group, (files, raw, gzip)) in groups {
        println!(
            "{:<28} {raw:>9} {gzip:>9}   {files} files, {} B gzip each",
            format!("{group}*"),
            gzip / files.max(1)
        );
    }
    let terms: Vec<(&str, incident_core::vocab::Postings)> = index.vocab_terms().collect();
    let count = |f: &dyn Fn(&incident_core::vocab::Postings) -> bool| terms.iter().filter(|(_, p)| f(p)).count();
    println!(
        "{} terms: {} in one incident, {} common, {} pure digits, {} ascii; {} blocks",
        terms.len(),
        count(&|p| matches!(p, incident_core::vocab::Postings::Single(_))),
        count(&|p| matches!(p, incident_core::vocab::Postings::Common { .. })),
        terms
            .iter()
            .filter(|(t, _)| t.chars().all(|c| c.is_ascii_digit()))
            .count(),
        terms.iter().filter(|(t, _)| t.is_ascii()).count(),
        meta.vocab.blocks()
    );
}
