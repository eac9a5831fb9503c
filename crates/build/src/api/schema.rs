//! The JSON Schemas of the static API's files and its OpenAPI document.

use serde_json::{json, Value};

use incident_core::index::FACETS;

use super::shape::{Envelope, IncidentFile, Index, ListingPage, TopicFile, Topics, Vocab};
use super::SCHEMA_VERSION;

/// The JSON Schema (draft 2020-12) of `T`, derived from the type: doc comments
/// become descriptions, every subschema is inlined so that the schema stands alone
/// or sits inside another (the MCP tools' output schemas), and the `format`s that
/// schemars gives integers (`uint`, `int64`, …) are dropped, since validators do not
/// know them; `date-time` and `uri` stay.
pub fn derived_schema<T: schemars::JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                if map
                    .get("format")
                    .and_then(Value::as_str)
                    .is_some_and(|f| !["date-time", "uri"].contains(&f))
                {
                    map.remove("format");
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut schema);
    if let Some(map) = schema.as_object_mut() {
        // The derived title names the Rust type; `$id` names the file.
        map.remove("title");
    }
    schema
}

/// The schema of the file `<name>.schema.json`, whose data is a `T`.
fn file_schema<T: schemars::JsonSchema>(name: &'static str) -> (&'static str, Value) {
    let derived = derived_schema::<Envelope<'static, T>>();
    // `$schema` and `$id` first, as a reader expects them.
    let mut schema = serde_json::Map::new();
    schema.insert("$schema".into(), derived["$schema"].clone());
    schema.insert("$id".into(), json!(format!("{name}.schema.json")));
    if let Value::Object(rest) = derived {
        schema.extend(rest.into_iter().filter(|(k, _)| k != "$schema"));
    }
    (name, Value::Object(schema))
}

/// JSON Schemas of the API files, by name.
pub fn schemas() -> Vec<(&'static str, Value)> {
    vec![
        file_schema::<Index>("index"),
        file_schema::<ListingPage>("incidents"),
        file_schema::<IncidentFile>("incident"),
        file_schema::<Topics>("topics"),
        file_schema::<TopicFile>("topic"),
        file_schema::<Vocab>("vocab"),
    ]
}

/// The OpenAPI 3.1 document of the static API.
pub fn openapi() -> Value {
    // Every operation: its id, what it returns, and the 404 a static host gives for a
    // file that is not there.
    let get = |id: &str, summary: &str, schema: &str, missing: &str| {
        json!({"get": {"operationId": id, "summary": summary, "responses": {
            "200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": format!("schemas/{schema}.schema.json")}}}},
            "404": {"description": format!("{missing} On hosts that read `_redirects`, and under `incident-library serve`, the answer is this JSON (`404.json`); elsewhere it is the host's own page."),
                "content": {"application/json": {"schema": {"type": "object", "required": ["error", "message"], "properties": {
                    "error": {"const": "not_found"}, "message": {"type": "string"}, "path": {"type": "string", "description": "the path asked for (serve only)"}}}}}}
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
