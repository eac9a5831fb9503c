//! The static JSON API written under `dist/api/v1/`: what is in the library, the
//! incident listing, every incident in full, the topics (taxonomy values) and the
//! vocabulary of facets. Every file has the same envelope
//! (`schema_version`, `generated_at`, `data`); JSON Schemas and an OpenAPI 3.1
//! document describing them are written beside the data (`schemas/`,
//! `openapi.json`). Any static host serves it; no key is needed.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{json, Value};

use incident_core::sections::{self, NAMES};

use crate::corpus::{Corpus, Incident};
use incident_core::index::{FacetDef, FACETS};

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

fn envelope_schema(id: &str, data: Value) -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("{id}.schema.json"),
        "type": "object",
        "required": ["schema_version", "generated_at", "data"],
        "additionalProperties": false,
        "properties": {
            "schema_version": {"const": SCHEMA_VERSION},
            "generated_at": {"type": "string", "format": "date-time"},
            "data": data
        }
    })
}

fn strings() -> Value {
    json!({"type": "array", "items": {"type": "string"}})
}

fn facet_map() -> Value {
    let props: BTreeMap<&str, Value> = FACETS.iter().map(|f| (f.key, strings())).collect();
    json!({"type": "object", "required": FACETS.iter().map(|f| f.key).collect::<Vec<_>>(), "properties": props, "additionalProperties": false})
}

fn id_schema() -> Value {
    json!({"type": "string", "pattern": crate::corpus::ID_PATTERN})
}

/// A record date as far as its sources give it: a day, a month (`2019-06`), a day
/// of an unknown year (`--10-04`), or a span of two of one kind joined by `/`.
fn date_schema() -> Value {
    let one = "([0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{2}|[0-9]{4}|--[0-9]{2}-[0-9]{2})";
    json!({"type": "string", "pattern": format!("^{one}(/{one})?$")})
}

fn day_schema() -> Value {
    json!({"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"})
}

fn optional_string() -> Value {
    json!({"type": ["string", "null"]})
}

/// JSON Schemas of the API files, by name.
pub fn schemas() -> Vec<(&'static str, Value)> {
    let listing_entry = json!({
        "type": "object",
        "required": ["id", "title", "org", "date", "date_label", "sort_date", "facets", "summary", "url"],
        "additionalProperties": false,
        "properties": {"id": id_schema(), "title": {"type": "string"}, "org": {"type": "string"}, "date": date_schema(), "date_label": {"type": "string"}, "sort_date": day_schema(), "facets": facet_map(), "summary": {"type": "string"}, "url": {"type": "string"}}
    });
    let section = json!({"type": "object", "required": ["markdown", "text"], "additionalProperties": false, "properties": {"markdown": {"type": "string"}, "text": {"type": "string"}}});
    let sections: BTreeMap<&str, Value> = NAMES.iter().map(|s| (*s, section.clone())).collect();
    let incident = json!({
        "type": "object",
        "required": ["id", "title", "org", "date", "date_label", "sort_date", "tags", "regions", "facets", "sources", "related", "checks", "sections", "page"],
        "additionalProperties": false,
        "properties": {
            "id": id_schema(), "title": {"type": "string"}, "org": {"type": "string"}, "date": date_schema(),
            "date_label": {"type": "string"}, "sort_date": day_schema(), "date_bound_note": optional_string(),
            "tags": strings(), "severity": optional_string(), "impact": optional_string(), "affected_users": optional_string(),
            "regions": strings(), "time_to_detect": optional_string(), "time_to_recover": optional_string(),
            "facets": facet_map(), "sources": {"type": "array", "items": {"type": "string", "format": "uri"}, "minItems": 1},
            "related": {"type": "array", "items": id_schema()}, "checks": strings(),
            "sections": {"type": "object", "required": sections::required().collect::<Vec<_>>(), "properties": sections, "additionalProperties": false},
            "page": {"type": "string"}
        }
    });
    let moved = json!({
        "type": "object",
        "required": ["id", "moved_to", "reason", "url"],
        "additionalProperties": false,
        "properties": {"id": id_schema(), "moved_to": id_schema(), "reason": {"type": "string"}, "url": {"type": "string"}}
    });
    let incident = json!({"type": "object", "oneOf": [incident, moved]});
    let value = json!({"type": "object", "required": ["slug", "ko", "en", "synonyms", "aliases", "count"], "additionalProperties": false,
        "properties": {"slug": {"type": "string"}, "ko": {"type": "string"}, "en": {"type": "string"}, "synonyms": strings(), "aliases": strings(), "count": {"type": "integer", "minimum": 0}}});
    vec![
        (
            "index",
            envelope_schema(
                "index",
                json!({"type": "object", "required": ["name", "incidents", "facets", "endpoints"], "properties": {"name": {"type": "string"}, "description": {"type": "string"}, "incidents": {"type": "integer", "minimum": 0}, "facets": {"type": "array"}, "endpoints": endpoints_schema()}}),
            ),
        ),
        (
            "incidents",
            envelope_schema(
                "incidents",
                json!({"type": "object", "required": ["total", "page", "pages", "next", "incidents"], "additionalProperties": false,
            "properties": {"total": {"type": "integer"}, "page": {"type": "integer", "minimum": 1}, "pages": {"type": "integer", "minimum": 1}, "next": optional_string(), "incidents": {"type": "array", "items": listing_entry}}}),
            ),
        ),
        ("incident", envelope_schema("incident", incident)),
        (
            "topics",
            envelope_schema(
                "topics",
                json!({"type": "object", "required": ["topics"], "properties": {"topics": {"type": "array", "items": {"type": "object",
            "required": ["facet", "slug", "ko", "en", "count", "url"], "additionalProperties": false,
            "properties": {"facet": {"type": "string"}, "slug": {"type": "string"}, "ko": {"type": "string"}, "en": {"type": "string"}, "count": {"type": "integer"}, "url": {"type": "string"}}}}}}),
            ),
        ),
        (
            "topic",
            envelope_schema(
                "topic",
                json!({"type": "object", "oneOf": [
                        {"type": "object", "required": ["facet", "slug", "ko", "en", "description", "synonyms", "incidents", "related_topics", "page"], "additionalProperties": false,
                "properties": {"facet": {"enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()}, "slug": {"type": "string"}, "ko": {"type": "string"}, "en": {"type": "string"},
                    "description": {"type": "string"}, "synonyms": strings(), "incidents": {"type": "array", "items": id_schema()}, "page": {"type": "string"},
                    "related_topics": {"type": "array", "items": {"type": "object", "required": ["facet", "slug", "ko", "shared"], "additionalProperties": false,
                        "properties": {"facet": {"type": "string"}, "slug": {"type": "string"}, "ko": {"type": "string"}, "shared": {"type": "integer", "minimum": 1}}}}}},
                        {"type": "object", "required": ["facet", "slug", "moved_to", "url"], "additionalProperties": false,
                            "properties": {"facet": {"enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()}, "slug": {"type": "string"}, "moved_to": {"type": "string"}, "url": {"type": "string"}}}
                    ]}),
            ),
        ),
        (
            "vocab",
            envelope_schema(
                "vocab",
                json!({"type": "object", "required": ["facets"], "properties": {"facets": {"type": "array", "items": {"type": "object",
            "required": ["key", "ko", "en", "values"], "additionalProperties": false,
            "properties": {"key": {"type": "string"}, "ko": {"type": "string"}, "en": {"type": "string"}, "values": {"type": "array", "items": value}}}}}}),
            ),
        ),
    ]
}

/// The OpenAPI 3.1 document of the static API.
pub fn openapi() -> Value {
    // Every operation: its id, what it returns, and the 404 a static host gives for a
    // file that is not there.
    let get = |id: &str, summary: &str, schema: &str, missing: &str| {
        json!({"get": {"operationId": id, "summary": summary, "responses": {
            "200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": format!("schemas/{schema}.schema.json")}}}},
            "404": {"description": missing}
        }}})
    };
    let mut page = get(
        "getListingPage",
        "A further page of the listing (2, 3, …), as `next` of the page before names it.",
        "incidents",
        "No such page: the listing has fewer.",
    );
    page["get"]["parameters"] = json!([{"name": "page", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 2}, "description": "The page number, from 2"}]);
    let mut get_id = get(
        "getIncident",
        "One incident in full: every field and section, checks included. An id that moved (two records of one incident were merged) answers with `moved_to` instead.",
        "incident",
        "No incident has this id.",
    );
    get_id["get"]["parameters"] = json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^IL-([0-9]{4}|[1-9][0-9]{4,8})$"}, "description": "The incident id, e.g. IL-0004"}]);
    let mut get_topic = get(
        "getTopic",
        "A taxonomy value: labels, description, synonyms, incidents and related topics.",
        "topic",
        "The facet has no value with this slug.",
    );
    get_topic["get"]["parameters"] = json!([
        {"name": "facet", "in": "path", "required": true, "schema": {"type": "string", "enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()}, "description": "The facet"},
        {"name": "slug", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[a-z0-9-]+$"}, "description": "The value's slug, e.g. cdn-edge"}
    ]);
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Incident Library static API",
            "version": SCHEMA_VERSION,
            "description": "Static JSON files; any origin may GET them; no key.",
            "license": {"name": "MIT", "identifier": "MIT"}
        },
        // The files sit beside this document (`api/v1/`), wherever the library is
        // deployed.
        "servers": [{"url": ".", "description": "the folder of this document"}],
        // Public files: no authentication of any kind.
        "security": [],
        "paths": {
            "/index.json": get("getIndex", "What the library holds: counts, facets, endpoints.", "index", "Not a library."),
            "/incidents.json": get("getListing", "The listing, newest first; further pages are named in `next`.", "incidents", "Not a library."),
            "/incidents-{page}.json": page,
            "/incidents/{id}.json": get_id,
            "/topics.json": get("getTopics", "Every taxonomy value with its incident count.", "topics", "Not a library."),
            "/topics/{facet}/{slug}.json": get_topic,
            "/vocab.json": get("getVocab", "Every facet with its values, labels, synonyms and counts.", "vocab", "Not a library.")
        }
    })
}

/// The `endpoints` of `index.json`: each file or path template, relative to it.
fn endpoints_schema() -> Value {
    let keys = [
        "listing",
        "listing_page",
        "incident",
        "topics",
        "topic",
        "vocab",
        "openapi",
        "schemas",
    ];
    json!({
        "type": "object",
        "required": keys,
        "additionalProperties": false,
        "properties": keys.iter().map(|k| (k.to_string(), json!({"type": "string"}))).collect::<serde_json::Map<String, Value>>()
    })
}
