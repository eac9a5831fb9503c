//! The static JSON API written under `dist/api/v1/`: what is in the library, the
//! incident listing, every incident in full, the topics (taxonomy values) and the
//! vocabulary of facets. Every file has the same envelope
//! (`schema_version`, `generated_at`, `data`); JSON Schemas and an OpenAPI 3.1
//! document describing them are written beside the data (`schemas/`,
//! `openapi.json`). Any static host serves it; no key is needed.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{json, Value};

use incident_core::sections::NAMES;

use crate::corpus::{Corpus, Incident};
use incident_core::index::{FacetDef, FACETS};

mod schema;

pub use schema::{openapi, schemas};

/// Version of the files' shape; bumped on any incompatible change.
pub const SCHEMA_VERSION: &str = "1";
/// Listing entries per `incidents*.json` page.
pub const PAGE_SIZE: usize = 500;

/// The envelope every file has.
#[derive(Serialize)]
struct Envelope<'a, T: Serialize> {
    schema_version: &'a str,
    generated_at: &'a str,
    data: T,
}

fn envelope<T: Serialize>(generated_at: &str, data: T) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(&Envelope {
        schema_version: SCHEMA_VERSION,
        generated_at,
        data,
    })
    .expect("API data serialises");
    bytes.push(b'\n');
    bytes
}

/// Facet slugs of an incident, by facet key.
fn facets_of(incident: &Incident) -> BTreeMap<&'static str, Vec<&str>> {
    FACETS.iter().map(|f| (f.key, incident.facet(f.key))).collect()
}

fn listing_entry(incident: &Incident) -> Value {
    json!({
        "id": incident.id,
        "title": incident.title,
        "org": incident.org,
        "date": incident.when.machine(),
        "date_label": incident.when.label(),
        "sort_date": incident.date.to_string(),
        "facets": facets_of(incident),
        "summary": crate::summary::summary(incident),
        "url": format!("incidents/{}.json", incident.id),
    })
}

/// The API's record of `incident` (`incidents/<id>.json`'s data).
pub(crate) fn full_record(incident: &Incident, related: &[String]) -> Value {
    // In reading order (요약 … 교훈): the JSON keeps the order its objects are made in.
    let sections: serde_json::Map<String, Value> = NAMES
        .iter()
        .filter_map(|name| {
            incident
                .section(name)
                .map(|s| (name.to_string(), json!({ "markdown": s.markdown, "text": s.text })))
        })
        .collect();
    json!({
        "id": incident.id,
        "title": incident.title,
        "org": incident.org,
        "date": incident.when.machine(),
        "date_label": incident.when.label(),
        "sort_date": incident.date.to_string(),
        "date_bound_note": incident.when.bound_note,
        "tags": incident.tags,
        "severity": incident.severity,
        "impact": incident.impact,
        "affected_users": incident.affected_users,
        "regions": incident.regions,
        "time_to_detect": incident.time_to_detect,
        "time_to_recover": incident.time_to_recover,
        "facets": facets_of(incident),
        "sources": incident.sources,
        "related": related,
        "checks": incident.checks,
        "sections": sections,
        "page": format!("../../incidents/{}/", incident.id),
    })
}

/// A file of the API: its path relative to the bundle root and its bytes.
type File = (String, Vec<u8>);

/// The API files, by path relative to the bundle root, each handed to `emit` as it
/// is made. `related[d]` are the ids shown as related for incident `d` (listed or
/// computed).
pub fn files(corpus: &Corpus, related: &[Vec<String>], generated_at: &str, emit: &mut dyn FnMut(File)) {
    let mut by_date: Vec<&Incident> = corpus.incidents.iter().collect();
    by_date.sort_by(|a, b| {
        b.date
            .cmp(&a.date)
            .then(crate::corpus::id_number(&a.id).cmp(&crate::corpus::id_number(&b.id)))
    });
    emit(index_file(corpus, generated_at));
    for file in listing_files(&by_date, generated_at) {
        emit(file);
    }
    incident_files(corpus, related, generated_at, emit);
    let (topic_files, topics) = topic_files(corpus, &by_date, generated_at);
    for file in topic_files {
        emit(file);
    }
    emit((
        "api/v1/topics.json".into(),
        envelope(generated_at, json!({ "topics": topics })),
    ));
    emit(vocab_file(corpus, generated_at));
    for (name, schema) in schemas() {
        emit((format!("api/v1/schemas/{name}.schema.json"), pretty(&schema)));
    }
    emit(("api/v1/openapi.json".into(), pretty(&openapi())));
}

/// `index.json`: what the library holds and where the other files are.
fn index_file(corpus: &Corpus, generated_at: &str) -> File {
    (
        "api/v1/index.json".into(),
        envelope(
            generated_at,
            json!({
                "name": "Incident Library",
                "description": "공개된 장애 보고서를 한국어로 정리한 라이브러리의 정적 API. 키가 필요 없다.",
                "incidents": corpus.incidents.len(),
                "facets": FACETS.iter().map(|f| json!({"key": f.key, "ko": f.ko, "en": f.en})).collect::<Vec<_>>(),
                "endpoints": {
                    "listing": "incidents.json",
                    "listing_page": "incidents-{page}.json",
                    "incident": "incidents/{id}.json",
                    "topics": "topics.json",
                    "topic": "topics/{facet}/{slug}.json",
                    "vocab": "vocab.json",
                    "openapi": "openapi.json",
                    "schemas": "schemas/"
                }
            }),
        ),
    )
}

/// The listing pages, `incidents.json` then `incidents-2.json`, …: [`PAGE_SIZE`]
/// entries each, newest first; one empty page for an empty library.
fn listing_files(by_date: &[&Incident], generated_at: &str) -> Vec<File> {
    let n = by_date.len();
    let pages = n.div_ceil(PAGE_SIZE).max(1);
    let page_name = |p: usize| {
        if p == 1 {
            "incidents.json".to_string()
        } else {
            format!("incidents-{p}.json")
        }
    };
    let mut out = Vec::new();
    for (i, chunk) in by_date
        .chunks(PAGE_SIZE)
        .enumerate()
        .chain((n == 0).then_some((0, &[][..])))
    {
        let page = i + 1;
        out.push((
            format!("api/v1/{}", page_name(page)),
            envelope(
                generated_at,
                json!({
                    "total": n,
                    "page": page,
                    "pages": pages,
                    "next": (page < pages).then(|| page_name(page + 1)),
                    "incidents": chunk.iter().map(|inc| listing_entry(inc)).collect::<Vec<_>>(),
                }),
            ),
        ));
    }
    out
}

/// `incidents/<id>.json`: every incident in full.
fn incident_files(corpus: &Corpus, related: &[Vec<String>], generated_at: &str, emit: &mut dyn FnMut(File)) {
    for (d, incident) in corpus.incidents.iter().enumerate() {
        emit((
            format!("api/v1/incidents/{}.json", incident.id),
            envelope(generated_at, full_record(incident, &related[d])),
        ));
    }
    // A moved id keeps its file, so a client holding the old id learns where the
    // incident went instead of meeting a 404.
    for m in &corpus.moved {
        emit((
            format!("api/v1/incidents/{}.json", m.id),
            envelope(
                generated_at,
                json!({"id": m.id, "moved_to": m.to, "reason": m.reason, "url": format!("{}.json", m.to)}),
            ),
        ));
    }
}

/// `topics/<facet>/<slug>.json` for every taxonomy value, and the entries of
/// `topics.json`.
fn topic_files(corpus: &Corpus, by_date: &[&Incident], generated_at: &str) -> (Vec<File>, Vec<Value>) {
    let mut files = Vec::new();
    let mut topics = Vec::new();
    for (f, &FacetDef { key, .. }) in FACETS.iter().enumerate() {
        for value in &corpus.taxonomy.facets[f] {
            let incidents: Vec<&str> = by_date
                .iter()
                .filter(|i| i.facet(key).contains(&value.slug.as_str()))
                .map(|i| i.id.as_str())
                .collect();
            let related = related_topics(corpus, by_date, f, key, &value.slug);
            files.push((
                format!("api/v1/topics/{key}/{}.json", value.slug),
                envelope(
                    generated_at,
                    json!({
                        "facet": key, "slug": value.slug, "ko": value.ko, "en": value.en,
                        "description": value.description, "synonyms": value.synonyms,
                        "incidents": incidents, "related_topics": related,
                        "page": format!("../../../topics/{key}/{}/", value.slug),
                    }),
                ),
            ));
            topics.push(json!({"facet": key, "slug": value.slug, "ko": value.ko, "en": value.en, "count": incidents.len(), "url": format!("topics/{key}/{}.json", value.slug)}));
            // An old slug keeps its file and says where the value went.
            for alias in &value.aliases {
                files.push((
                    format!("api/v1/topics/{key}/{alias}.json"),
                    envelope(generated_at, json!({"facet": key, "slug": alias, "moved_to": value.slug, "url": format!("{}.json", value.slug)})),
                ));
            }
        }
    }
    (files, topics)
}

/// Related topics of value `slug` of facet `f` (key `key`): the values of other
/// facets (not the organisation) that share the most incidents with it, at most 8.
fn related_topics(corpus: &Corpus, by_date: &[&Incident], f: usize, key: &str, slug: &str) -> Vec<Value> {
    // One pass over the incidents of this value, counting the values they carry,
    // rather than one pass over every incident for every other value: the build
    // time of the API grew with the square of the taxonomy otherwise.
    let mut counts: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    for incident in by_date.iter().filter(|i| i.facet(key).contains(&slug)) {
        for (g, &FacetDef { key: other_key, .. }) in FACETS.iter().enumerate() {
            if g == f || other_key == "org" {
                continue;
            }
            for other in incident.facet(other_key) {
                *counts.entry((g, other)).or_default() += 1;
            }
        }
    }
    let mut shared: Vec<(usize, &str, &str, &str)> = counts
        .into_iter()
        .filter_map(|((g, other), count)| {
            let value = corpus.taxonomy.get(FACETS[g].key, other)?;
            Some((count, FACETS[g].key, value.slug.as_str(), value.ko.as_str()))
        })
        .collect();
    shared.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)).then(a.2.cmp(b.2)));
    shared
        .iter()
        .take(8)
        .map(|(c, k, s, ko)| json!({"facet": k, "slug": s, "ko": ko, "shared": c}))
        .collect()
}

/// `vocab.json`: every facet with its values, labels, synonyms and counts.
fn vocab_file(corpus: &Corpus, generated_at: &str) -> File {
    let vocab: Vec<Value> = FACETS
        .iter()
        .enumerate()
        .map(|(f, &FacetDef { key, ko, en, .. })| {
            json!({
                "key": key, "ko": ko, "en": en,
                "values": corpus.taxonomy.facets[f].iter().map(|v| json!({
                    "slug": v.slug, "ko": v.ko, "en": v.en, "synonyms": v.synonyms, "aliases": v.aliases,
                    "count": corpus.incidents.iter().filter(|i| i.facet(key).contains(&v.slug.as_str())).count(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    (
        "api/v1/vocab.json".into(),
        envelope(generated_at, json!({ "facets": vocab })),
    )
}

fn pretty(v: &Value) -> Vec<u8> {
    let mut b = serde_json::to_vec_pretty(v).expect("JSON serialises");
    b.push(b'\n');
    b
}
