//! The JSON Schemas of the static API's files and its OpenAPI document.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use incident_core::index::FACETS;
use incident_core::sections::{self, NAMES};

use super::SCHEMA_VERSION;

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
    let incident = incident_schema();
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
        ("topic", envelope_schema("topic", topic_schema())),
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

/// A record, or what a merged id answers with.
fn incident_schema() -> Value {
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
    incident
}

/// A taxonomy value, or what a merged value's old slug answers with.
fn topic_schema() -> Value {
    json!({"type": "object", "oneOf": [
            {"type": "object", "required": ["facet", "slug", "ko", "en", "description", "synonyms", "incidents", "related_topics", "page"], "additionalProperties": false,
    "properties": {"facet": {"enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()}, "slug": {"type": "string"}, "ko": {"type": "string"}, "en": {"type": "string"},
        "description": {"type": "string"}, "synonyms": strings(), "incidents": {"type": "array", "items": id_schema()}, "page": {"type": "string"},
        "related_topics": {"type": "array", "items": {"type": "object", "required": ["facet", "slug", "ko", "shared"], "additionalProperties": false,
            "properties": {"facet": {"type": "string"}, "slug": {"type": "string"}, "ko": {"type": "string"}, "shared": {"type": "integer", "minimum": 1}}}}}},
            {"type": "object", "required": ["facet", "slug", "moved_to", "url"], "additionalProperties": false,
                "properties": {"facet": {"enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()}, "slug": {"type": "string"}, "moved_to": {"type": "string"}, "url": {"type": "string"}}}
        ]})
}
