//! The static JSON API written under `dist/api/v1/`: what is in the library, the
//! incident listing, every incident in full, the topics (taxonomy values) and the
//! vocabulary of facets. Every file has the same envelope
//! (`schema_version`, `generated_at`, `data`); JSON Schemas and an OpenAPI 3.1
//! document describing them are written beside the data (`schemas/`,
//! `openapi.json`). Any static host serves it; no key is needed.

use std::collections::BTreeMap;

use serde::Serialize;

use incident_core::sections::NAMES;

use crate::corpus::{Corpus, Incident};
use incident_core::index::{FacetDef, FACETS};

mod schema;
mod shape;

pub use schema::{derived_schema, openapi, schemas};
use shape::*;

/// Version of the files' shape; bumped on any incompatible change.
pub const SCHEMA_VERSION: &str = "1";
/// Listing entries per `incidents*.json` page.
pub const PAGE_SIZE: usize = 500;

fn envelope<T: Serialize>(generated_at: &str, data: T) -> Vec<u8> {
    pretty(&Envelope {
        schema_version: SCHEMA_VERSION,
        generated_at,
        data,
    })
}

/// Facet slugs of an incident, by facet key.
fn facets_of(incident: &Incident) -> Facets<'_> {
    Facets(FACETS.iter().map(|f| (f.key, incident.facet(f.key))).collect())
}

fn listing_entry(incident: &Incident) -> ListingEntry<'_> {
    ListingEntry {
        id: &incident.id,
        title: &incident.title,
        org: &incident.org,
        date: incident.when.machine(),
        date_label: incident.when.label(),
        sort_date: incident.date.to_string(),
        facets: facets_of(incident),
        summary: crate::summary::summary(incident),
        url: format!("incidents/{}.json", incident.id),
    }
}

/// The API's record of `incident` (`incidents/<id>.json`'s data).
fn record<'a>(incident: &'a Incident, related: &'a [String]) -> Record<'a> {
    let sections = NAMES
        .iter()
        .filter_map(|&name| {
            incident.section(name).map(|s| {
                (
                    name,
                    SectionText {
                        markdown: &s.markdown,
                        text: &s.text,
                    },
                )
            })
        })
        .collect();
    Record {
        id: &incident.id,
        title: &incident.title,
        org: &incident.org,
        date: incident.when.machine(),
        date_label: incident.when.label(),
        sort_date: incident.date.to_string(),
        date_bound_note: incident.when.bound_note.as_deref(),
        tags: &incident.tags,
        severity: incident.severity.as_deref(),
        impact: incident.impact.as_deref(),
        affected_users: incident.affected_users.as_deref(),
        regions: &incident.regions,
        time_to_detect: incident.time_to_detect.as_deref(),
        time_to_recover: incident.time_to_recover.as_deref(),
        facets: facets_of(incident),
        sources: &incident.sources,
        related,
        checks: &incident.checks,
        published: incident.published.map(|d| d.to_string()),
        updated: incident.updated.map(|d| d.to_string()),
        history: &incident.history,
        sections: Sections(sections),
        page: format!("../../incidents/{}/", incident.id),
    }
}

/// The API's record of `incident` as JSON, for the Markdown pages.
pub(crate) fn full_record(incident: &Incident, related: &[String]) -> serde_json::Value {
    serde_json::to_value(record(incident, related)).expect("API data serialises")
}

/// What the API answers for a file it does not have: `api/v1/404.json` (`path`
/// `None`), which `_redirects` sends with status 404 on hosts that read it, and
/// `incident-library serve`'s answer (the path asked for).
pub fn not_found(path: Option<&str>) -> Vec<u8> {
    let mut body = serde_json::json!({
        "error": "not_found",
        "message": "No such file in the API; index.json lists its files.",
    });
    if let Some(path) = path {
        body["path"] = serde_json::json!(path);
    }
    pretty(&body)
}

/// The `_redirects` file (Netlify's): a missing file under `api/v1/` answers with
/// [`not_found`] and status 404, not with the site's page. A rule applies only
/// where no file matches.
pub fn redirects() -> String {
    "/api/v1/* /api/v1/404.json 404\n".to_string()
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
    emit(("api/v1/topics.json".into(), envelope(generated_at, Topics { topics })));
    emit(vocab_file(corpus, generated_at));
    for (name, schema) in schemas() {
        emit((format!("api/v1/schemas/{name}.schema.json"), pretty(&schema)));
    }
    emit(("api/v1/openapi.json".into(), pretty(&openapi())));
    emit(("api/v1/404.json".into(), not_found(None)));
    emit(("_redirects".into(), redirects().into_bytes()));
}

/// `index.json`: what the library holds and where the other files are.
fn index_file(corpus: &Corpus, generated_at: &str) -> File {
    (
        "api/v1/index.json".into(),
        envelope(
            generated_at,
            Index {
                name: "Incident Library",
                description: "공개된 장애 보고서를 한국어로 정리한 라이브러리의 정적 API. 키가 필요 없다.",
                incidents: corpus.incidents.len(),
                facets: FACETS
                    .iter()
                    .map(|f| FacetLabel {
                        key: f.key,
                        ko: f.ko,
                        en: f.en,
                    })
                    .collect(),
                endpoints: Endpoints {
                    listing: "incidents.json",
                    listing_page: "incidents-{page}.json",
                    incident: "incidents/{id}.json",
                    topics: "topics.json",
                    topic: "topics/{facet}/{slug}.json",
                    vocab: "vocab.json",
                    openapi: "openapi.json",
                    schemas: "schemas/",
                },
            },
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
                ListingPage {
                    total: n,
                    page,
                    pages,
                    next: (page < pages).then(|| page_name(page + 1)),
                    incidents: chunk.iter().map(|inc| listing_entry(inc)).collect(),
                },
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
            envelope(
                generated_at,
                IncidentFile::Record(Box::new(record(incident, &related[d]))),
            ),
        ));
    }
    // A moved id keeps its file, so a client holding the old id learns where the
    // incident went instead of meeting a 404.
    for m in &corpus.moved {
        emit((
            format!("api/v1/incidents/{}.json", m.id),
            envelope(
                generated_at,
                IncidentFile::Moved(MovedIncident {
                    id: &m.id,
                    moved_to: &m.to,
                    reason: &m.reason,
                    url: format!("{}.json", m.to),
                }),
            ),
        ));
    }
}

/// `topics/<facet>/<slug>.json` for every taxonomy value, and the entries of
/// `topics.json`.
fn topic_files<'a>(
    corpus: &'a Corpus,
    by_date: &[&'a Incident],
    generated_at: &str,
) -> (Vec<File>, Vec<TopicEntry<'a>>) {
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
            let count = incidents.len();
            files.push((
                format!("api/v1/topics/{key}/{}.json", value.slug),
                envelope(
                    generated_at,
                    TopicFile::Topic(Topic {
                        facet: key,
                        slug: &value.slug,
                        ko: &value.ko,
                        en: &value.en,
                        description: &value.description,
                        synonyms: &value.synonyms,
                        incidents,
                        related_topics: related,
                        page: format!("../../../topics/{key}/{}/", value.slug),
                    }),
                ),
            ));
            topics.push(TopicEntry {
                facet: key,
                slug: &value.slug,
                ko: &value.ko,
                en: &value.en,
                count,
                url: format!("topics/{key}/{}.json", value.slug),
            });
            // An old slug keeps its file and says where the value went.
            for alias in &value.aliases {
                files.push((
                    format!("api/v1/topics/{key}/{alias}.json"),
                    envelope(
                        generated_at,
                        TopicFile::Moved(MovedTopic {
                            facet: key,
                            slug: alias,
                            moved_to: &value.slug,
                            url: format!("{}.json", value.slug),
                        }),
                    ),
                ));
            }
        }
    }
    (files, topics)
}

/// Related topics of value `slug` of facet `f` (key `key`): the values of other
/// facets (not the organisation) that share the most incidents with it, at most 8.
fn related_topics<'a>(
    corpus: &'a Corpus,
    by_date: &[&Incident],
    f: usize,
    key: &str,
    slug: &str,
) -> Vec<RelatedTopic<'a>> {
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
        .map(|&(shared, facet, slug, ko)| RelatedTopic {
            facet,
            slug,
            ko,
            shared,
        })
        .collect()
}

/// `vocab.json`: every facet with its values, labels, synonyms and counts.
fn vocab_file(corpus: &Corpus, generated_at: &str) -> File {
    let facets = FACETS
        .iter()
        .enumerate()
        .map(|(f, &FacetDef { key, ko, en, .. })| VocabFacet {
            key,
            ko,
            en,
            values: corpus.taxonomy.facets[f]
                .iter()
                .map(|v| VocabValue {
                    slug: &v.slug,
                    ko: &v.ko,
                    en: &v.en,
                    synonyms: &v.synonyms,
                    aliases: &v.aliases,
                    count: corpus
                        .incidents
                        .iter()
                        .filter(|i| i.facet(key).contains(&v.slug.as_str()))
                        .count(),
                })
                .collect(),
        })
        .collect();
    ("api/v1/vocab.json".into(), envelope(generated_at, Vocab { facets }))
}

/// Pretty JSON with a final newline, as every file of the API is written.
fn pretty<T: Serialize + ?Sized>(v: &T) -> Vec<u8> {
    let mut b = serde_json::to_vec_pretty(v).expect("API data serialises");
    b.push(b'\n');
    b
}
