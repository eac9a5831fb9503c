//! The shipped corpus: size, coverage of the required fact sheets, own words, and a
//! taxonomy in which every classification value is used.
//!
//! Tests that read `../shared` (the fact sheets and seed pages the records were
//! written from) skip themselves when it is absent.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use incident_build::corpus::{self, Corpus};

fn corpus() -> Corpus {
    corpus::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data"))
        .unwrap_or_else(|d| panic!("{} problems, e.g. {}", d.len(), d[0]))
}

fn shared() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    dir.join("sources/postmortems").is_dir().then_some(dir)
}

/// Fact sheets that must each have a record (uuid prefixes of their files).
const REQUIRED_SHEETS: [&str; 35] = [
    "fde04641", "a0e252d3", "a54b2ace", "27a23dcd", "fccb0ca5", "b79bbd0b", "f70ce67c", "20834b0c", "938b8012",
    "36858814", "9deb5a9a", "24be1eec", "8d520e9f", "adc3b69d", "6bc6cd0c", "a50e7b06", "465ab32f", "d6fb9bc9",
    "ac43196d", "5b73c1c1", "5cbc4e4d", "5bce5ed8", "5a99836e", "80919009", "4da4ac8a", "e242d62d", "96e1c327",
    "91f1928a", "e9248be4", "0d052dd0", "1f3d306d", "4f96113f", "217ee689", "852f277c", "65c669af",
];

#[test]
fn at_least_120_records() {
    let c = corpus();
    assert!(c.incidents.len() >= 120, "{} records", c.incidents.len());
}

/// The `url:` of a fact sheet's front matter.
fn sheet_url(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("url:"))
        .map(|u| u.trim().trim_matches(['"', '\'']).to_string())
}

#[test]
fn every_required_fact_sheet_has_a_record() {
    let Some(shared) = shared() else {
        eprintln!("skipped: ../shared is absent");
        return;
    };
    let cited: HashSet<String> = corpus()
        .incidents
        .iter()
        .flat_map(|i| i.sources.iter().cloned())
        .collect();
    let mut missing = Vec::new();
    for entry in fs::read_dir(shared.join("sources/postmortems")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if let Some(prefix) = REQUIRED_SHEETS.iter().find(|p| name.starts_with(*p)) {
            let url = sheet_url(&fs::read_to_string(&path).unwrap()).unwrap_or_default();
            if !cited.contains(&url) {
                missing.push(format!("{prefix} ({url})"));
            }
        }
    }
    assert!(missing.is_empty(), "fact sheets without a record: {missing:?}");
}

/// Every `n`-character run of `text`, whitespace folded.
fn runs(text: &str, n: usize) -> Vec<String> {
    let folded: Vec<char> = text.split_whitespace().collect::<Vec<_>>().join(" ").chars().collect();
    (0..folded.len().saturating_sub(n))
        .map(|i| folded[i..i + n].iter().collect())
        .collect()
}

#[test]
fn records_are_written_in_our_own_words() {
    let Some(shared) = shared() else {
        eprintln!("skipped: ../shared is absent");
        return;
    };
    let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let seeds: Vec<String> = fs::read_dir(shared.join("seeds"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| fold(&fs::read_to_string(p).unwrap()))
        .collect();
    let sheets: Vec<String> = fs::read_dir(shared.join("sources/postmortems"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| fold(&fs::read_to_string(p).unwrap()))
        .collect();
    // Index the sources by their 40-character runs once.
    let seed_runs: HashSet<String> = seeds.iter().flat_map(|s| runs(s, 40)).collect();
    let sheet_runs: HashSet<String> = sheets.iter().flat_map(|s| runs(s, 60)).collect();
    let mut copied = Vec::new();
    for inc in corpus().incidents {
        // Source URLs are cited on purpose.
        let text = fs::read_to_string(&inc.path).unwrap();
        let text: String = text
            .split_whitespace()
            .filter(|w| !w.contains("://"))
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(r) = runs(&text, 40).into_iter().find(|r| seed_runs.contains(r)) {
            copied.push(format!("{} shares 40 characters with a seed page: {r:?}", inc.id));
        }
        if let Some(r) = runs(&text, 60).into_iter().find(|r| sheet_runs.contains(r)) {
            copied.push(format!("{} shares 60 characters with a fact sheet: {r:?}", inc.id));
        }
    }
    assert!(copied.is_empty(), "{copied:#?}");
}

#[test]
fn every_classification_value_is_used_at_least_twice() {
    let c = corpus();
    let mut rare = BTreeMap::new();
    for (f, &incident_core::index::FacetDef { key, .. }) in incident_core::index::FACETS.iter().enumerate() {
        if key == "org" {
            continue; // one value per organisation, however many incidents it has
        }
        for v in &c.taxonomy.facets[f] {
            let n = c
                .incidents
                .iter()
                .filter(|i| i.facet(key).contains(&v.slug.as_str()))
                .count();
            if n < 2 {
                rare.insert(format!("{key}/{}", v.slug), n);
            }
        }
    }
    assert!(rare.is_empty(), "values used by fewer than two incidents: {rare:?}");
    // Every organisation value is used by some record.
    let orgs: BTreeSet<&str> = c.incidents.iter().map(|i| i.org.as_str()).collect();
    let unused: Vec<&str> = c
        .taxonomy
        .values("org")
        .iter()
        .map(|v| v.slug.as_str())
        .filter(|s| !orgs.contains(s))
        .collect();
    assert!(unused.is_empty(), "organisations without a record: {unused:?}");
}

#[test]
fn every_value_has_labels_a_description_and_synonyms() {
    let c = corpus();
    for (f, &incident_core::index::FacetDef { key, .. }) in incident_core::index::FACETS.iter().enumerate() {
        for v in &c.taxonomy.facets[f] {
            assert!(!v.ko.is_empty() && !v.en.is_empty(), "{key}/{}", v.slug);
            assert!(
                v.description.chars().count() >= 20,
                "{key}/{}: description too short",
                v.slug
            );
            if key != "org" {
                assert!(!v.synonyms.is_empty(), "{key}/{}: no synonyms", v.slug);
            }
        }
    }
}
