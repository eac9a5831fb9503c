//! Lists the typed forms of the lexicon that change no search result: forms the
//! vocabulary or the taxonomy already reads the same way, or forms the query drops.
//! Such forms cost bytes in every download and buy nothing.
//!
//! cargo run --release --example lexicon_idle [dist]

use incident_core::index::Index;
use incident_core::search::{search, Request};

fn ranking(index: &Index, q: &str) -> Vec<(String, bool, f64)> {
    let request = Request {
        query: q.into(),
        per_page: 20,
        ..Default::default()
    };
    let r = search(index, &request).unwrap_or_else(|e| panic!("{e}"));
    r.hits.into_iter().map(|h| (h.id, h.full, h.score)).collect()
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "dist".into());
    let index = incident_build::open::load_index(std::path::Path::new(&dir)).unwrap_or_else(|e| panic!("{e}"));
    let mut idle = 0;
    for (e, entry) in index.meta.lexicon.iter().enumerate() {
        for (k, form) in entry.say.iter().enumerate() {
            let mut meta = index.meta.clone();
            meta.lexicon[e].say.remove(k);
            let without = Index::from_parts(meta, index.data.clone()).unwrap_or_else(|e| panic!("{e}"));
            if ranking(&index, form) == ranking(&without, form) {
                println!("{form}");
                idle += 1;
            }
        }
    }
    eprintln!("{idle} idle forms");
}
