//! Writes the sitemap files of a library too large for one sitemap, so that the
//! split can be checked against the sitemaps.org schemas (`tests/e2e/feeds.test.mjs`
//! validates `sitemap.xml`, then a sitemap index, against the XSDs): the corpus in
//! `data` read as the build reads it, its records repeated under new ids
//! (`IL-{10001 + i}`, each copy keeping its classification and its `updated` day,
//! its text dropped) until there are `count` records, 50,001 by default, and
//! `sitemap::files` of that corpus written under `out`: `robots.txt`, the index
//! `sitemap.xml` and its parts. A real build of that many records takes minutes;
//! only the sitemap depends on the count, and it is the build's own code here.
//!
//! cargo run --release -p incident-build --example sitemap_split -- data out [count] [site-url]

use std::fs;
use std::path::Path;

use incident_build::sitemap;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: sitemap_split <data> <out> [count] [site-url]");
        std::process::exit(2);
    }
    let (data, out) = (Path::new(&args[0]), Path::new(&args[1]));
    let count: usize = args
        .get(2)
        .map_or(sitemap::MAX_URLS + 1, |s| s.parse().expect("count is a number"));
    let site_url = args.get(3).map_or("https://example.org/lib/", String::as_str);
    let mut corpus = incident_build::corpus::load(data).unwrap_or_else(|diags| {
        eprintln!(
            "{}: {} problems (run incident-library check)",
            data.display(),
            diags.len()
        );
        std::process::exit(1);
    });
    let shipped = std::mem::take(&mut corpus.incidents);
    assert!(!shipped.is_empty(), "{}: no records", data.display());
    corpus.incidents = (0..count)
        .map(|i| {
            let mut copy = shipped[i % shipped.len()].clone();
            copy.id = format!("IL-{}", 10001 + i);
            copy.sections.clear();
            copy.checks.clear();
            copy.history.clear();
            copy.sources.clear();
            copy.related.clear();
            copy
        })
        .collect();
    fs::create_dir_all(out).unwrap();
    for (name, bytes) in sitemap::files(&corpus, Some(site_url)) {
        fs::write(out.join(&name), bytes).unwrap();
        println!("{name}");
    }
}
