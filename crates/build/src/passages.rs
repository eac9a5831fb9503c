//! The passages files: each record's section texts, which the browser reads to
//! show where a hit's terms occur ([`incident_core::excerpt`]).
//!
//! `passages/<id>.json` holds `{"id": "IL-0001", "build": "…", "sections": [["요약",
//! "…"], …]}`: the plain text of every section the record has, in the incident page's
//! reading order, and the build it belongs to (the bundle's version, as in the
//! index files' headers), which the loader checks. Only a shown hit's file is fetched, after its listing, so the first answer
//! never waits for one.

use std::path::Path;

use serde::Serialize;

use incident_core::excerpt::Excerpt;
use incident_core::search::Hit;

use crate::corpus::{Corpus, Incident};

/// The path of an incident's passages file in the bundle.
pub fn path(id: &str) -> String {
    format!("passages/{id}.json")
}

#[derive(Serialize)]
struct Passages<'a> {
    id: &'a str,
    build: &'a str,
    sections: Vec<(&'a str, &'a str)>,
}

/// The passages file of `incident` in build `build`.
pub fn of(incident: &Incident, build: &str) -> Vec<u8> {
    let sections = incident_core::sections::NAMES
        .iter()
        .filter_map(|name| incident.section(name))
        .map(|s| (s.name.as_str(), s.text.as_str()))
        .collect();
    let passages = Passages {
        id: &incident.id,
        build,
        sections,
    };
    serde_json::to_vec(&passages).expect("strings and lists always serialize")
}

/// Every incident's passages file in build `build`, as (path, bytes).
pub fn files(corpus: &Corpus, build: &str) -> Vec<(String, Vec<u8>)> {
    corpus
        .incidents
        .iter()
        .map(|inc| (path(&inc.id), of(inc, build)))
        .collect()
}

/// The section texts of incident `id` from the passages file of the bundle at
/// `bundle`, as (name, text) pairs; `None` when the file is missing or unreadable
/// (a bundle of an earlier version has none).
pub fn read(bundle: &Path, id: &str) -> Option<Vec<(String, String)>> {
    #[derive(serde::Deserialize)]
    struct Stored {
        sections: Vec<(String, String)>,
    }
    let bytes = std::fs::read(bundle.join(path(id))).ok()?;
    serde_json::from_slice::<Stored>(&bytes).ok().map(|s| s.sections)
}

/// Where `hit`'s terms occur in its record ([`incident_core::excerpt::excerpts`]),
/// read from the bundle at `bundle`; none without terms or a passages file.
pub fn excerpts(bundle: &Path, hit: &Hit) -> Vec<Excerpt> {
    if hit.terms.is_empty() {
        return Vec::new();
    }
    read(bundle, &hit.id).map_or_else(Vec::new, |sections| {
        incident_core::excerpt::excerpts(&sections, &hit.terms)
    })
}
