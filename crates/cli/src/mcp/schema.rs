//! The MCP tools' definitions: names, descriptions, input schemas, and output
//! schemas taken from the static API's JSON Schemas where a tool returns an API file.

use std::sync::Arc;

use rmcp::model::{Tool, ToolAnnotations};
use serde_json::{json, Map, Value};

use incident_core::index::FACETS;

use super::{LIST_LIMIT, SEARCH_LIMIT};

/// The tool definitions, with input and output schemas.
pub fn tools() -> Vec<Tool> {
    let filters = json!({
        "type": "object",
        "description": "Facet filters: OR within a facet, AND across facets. Values are slugs (see the vocab tool).",
        "properties": FACETS.iter().map(|f| (f.key.to_string(), json!({"type": "array", "items": {"type": "string"}, "description": f.ko}))).collect::<Map<String, Value>>(),
        "additionalProperties": false
    });
    let sort = json!({"type": "string", "enum": ["relevance", "recent"]});
    // The hit is the search's own `Hit`: its schema is derived from the type.
    let hit = derived_schema::<incident_core::search::Hit>();
    let results = json!({"type": "object", "required": ["total", "full", "page", "sort", "hits", "understood"], "properties": {
        "total": {"type": "integer", "description": "incidents that match at least one query word"},
        "full": {"type": "integer", "description": "of those, the incidents that match every word"},
        "page": {"type": "integer"}, "sort": {"type": "string"}, "hits": {"type": "array", "items": hit},
        "understood": {"type": "array"}, "next_cursor": {"type": "string"}, "note": {"type": "string"}}});
    let object = |v: Value| v.as_object().cloned().unwrap_or_default();
    let read_only = ToolAnnotations::new()
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false);
    let api_schema = |name: &str| -> Value {
        incident_build::api::schemas()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| s["properties"]["data"].clone())
            .unwrap_or(json!({"type": "object"}))
    };
    let tool = |name: &'static str, description: &'static str, input: Value, output: Value| {
        let mut t = Tool::new(name, description, Arc::new(object(input)));
        t.output_schema = Some(Arc::new(object(output)));
        t.annotations = Some(read_only.clone());
        t
    };
    vec![
        tool(
            "search_incidents",
            "Search public incident reports written in Korean (Korean or English words; particles, spacing, typos and taxonomy synonyms are understood). Returns ranked incidents with ids for get_incident.",
            json!({"type": "object", "required": ["query"], "properties": {"query": {"type": "string", "minLength": 1}, "filters": filters, "sort": sort,
                "limit": {"type": "integer", "minimum": 1, "maximum": SEARCH_LIMIT}, "cursor": {"type": "string", "description": "next_cursor of the previous call"}}}),
            results.clone(),
        ),
        tool(
            "list_incidents",
            "List incidents by facet filters alone, newest first (or by relevance with sort), paged with cursor.",
            json!({"type": "object", "properties": {"filters": filters, "sort": sort, "limit": {"type": "integer", "minimum": 1, "maximum": LIST_LIMIT}, "cursor": {"type": "string"}}}),
            results,
        ),
        tool(
            "get_incident",
            "One incident in full: every field and section (요약, 증상, 촉발, 원인, 감지, 조치, 후속 조치, 교훈), sources, related ids and read-only checks to run against your own system.",
            json!({"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "pattern": incident_build::corpus::ID_PATTERN}}}),
            api_schema("incident"),
        ),
        tool(
            "get_topic",
            "A taxonomy value (cause, component, symptom, factor or org): description, synonyms, its incidents and related topics. Give facet and slug, or a name (a label or synonym).",
            json!({"type": "object", "properties": {"facet": {"type": "string", "enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()}, "slug": {"type": "string"}, "name": {"type": "string"}}}),
            api_schema("topic"),
        ),
        tool("vocab", "Every facet with its values: slugs, Korean and English labels, synonyms and incident counts.", json!({"type": "object", "properties": {}}), api_schema("vocab")),
    ]
}

/// The JSON Schema of `T`, derived from the type (doc comments become
/// descriptions), with every subschema inlined so that it can sit inside another
/// schema, and without `format` keywords (`float`, `uint`) that validators do not
/// all know.
fn derived_schema<T: schemars::JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("format");
                map.remove("$schema");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut schema);
    schema
}
