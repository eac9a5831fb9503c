//! The MCP tools' definitions: names, descriptions, input schemas, and output
//! schemas taken from the static API's JSON Schemas where a tool returns an API file.

use std::sync::Arc;

use rmcp::model::{Tool, ToolAnnotations};
use serde_json::{json, Map, Value};

use incident_core::index::FACETS;

use incident_build::mcp_tools::McpTool;
use incident_core::sections::NAMES;

use super::shape::default_sections;
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
    let results = results_schema();
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
    let tool = |tool: McpTool, description: String, input: Value, output: Value| {
        let mut t = Tool::new(tool.name(), description, Arc::new(object(input)));
        t.output_schema = Some(Arc::new(object(output)));
        t.annotations = Some(read_only.clone());
        t
    };
    vec![
        tool(
            McpTool::SearchIncidents,
            "Search public incident reports written in Korean (Korean or English words; particles, spacing, typos and taxonomy synonyms are understood). Returns ranked incidents with ids for get_incident.".into(),
            json!({"type": "object", "required": ["query"], "properties": {"query": {"type": "string", "minLength": 1}, "filters": filters, "sort": sort,
                "limit": {"type": "integer", "minimum": 1, "maximum": SEARCH_LIMIT}, "cursor": {"type": "string", "description": "next_cursor of the previous call"}}}),
            results.clone(),
        ),
        tool(
            McpTool::ListIncidents,
            "List incidents by facet filters alone, newest first (or by relevance with sort), paged with cursor.".into(),
            json!({"type": "object", "properties": {"filters": filters, "sort": sort, "limit": {"type": "integer", "minimum": 1, "maximum": LIST_LIMIT}, "cursor": {"type": "string"}}}),
            results,
        ),
        tool(
            McpTool::GetIncident,
            {
                let others: Vec<&str> = NAMES.iter().copied().filter(|n| !default_sections().contains(n)).collect();
                format!(
                    "One incident: every field, sources, related ids and read-only checks to run against your own system, with its sections in reading order as plain text or Markdown. By default the sections {}; other_sections names the rest the record has ({}): ask with sections, or sections \"all\".",
                    default_sections().join(", "),
                    others.join(", ")
                )
            },
            json!({"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "pattern": incident_build::corpus::ID_PATTERN},
                "format": {"type": "string", "enum": ["text", "markdown"], "default": "text", "description": "how the sections are given"},
                "sections": {"anyOf": [{"type": "string", "enum": ["all"]}, {"type": "array", "items": {"type": "string", "enum": NAMES}}],
                    "description": format!("the sections to give: \"all\", or names; by default {}", default_sections().join(", "))}}}),
            record_schema(api_schema("incident")),
        ),
        tool(
            McpTool::GetTopic,
            format!("A taxonomy value (a facet: {}): description, synonyms, its incidents and related topics. Give facet and slug, or a name (a label or synonym).", FACETS.iter().map(|f| f.key).collect::<Vec<_>>().join(", ")),
            json!({"type": "object", "properties": {"facet": {"type": "string", "enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()}, "slug": {"type": "string"}, "name": {"type": "string"}}}),
            api_schema("topic"),
        ),
        tool(
            McpTool::Vocab,
            "The taxonomy: every facet with its number of values, and a page of values (slug, Korean and English labels, synonyms, incident count), of one facet when given. Page on with next_cursor.".into(),
            json!({"type": "object", "properties": {"facet": {"type": "string", "enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()}, "cursor": {"type": "string", "description": "next_cursor of the previous call"}}}),
            vocab_schema(),
        ),
    ]
    .into_iter()
    .map(portable)
    .collect()
}

/// The incident schema of the API with the sections as `get_incident` gives them: a
/// list in reading order, each with its name and one format's field.
fn record_schema(mut api: Value) -> Value {
    let section = json!({"type": "object", "required": ["name"], "additionalProperties": false, "properties": {
        "name": {"type": "string"}, "text": {"type": "string"}, "markdown": {"type": "string"}}});
    for variant in api["oneOf"].as_array_mut().into_iter().flatten() {
        if let Some(props) = variant.get_mut("properties").and_then(Value::as_object_mut) {
            if props.contains_key("sections") {
                props.insert("sections".into(), json!({"type": "array", "items": section}));
                props.insert("format".into(), json!({"type": "string", "enum": ["text", "markdown"]}));
                props.insert(
                    "other_sections".into(),
                    json!({"type": "array", "items": {"type": "string"}}),
                );
                props.remove("page");
                props.insert(
                    "url".into(),
                    json!({"type": "string", "description": "the incident's page: absolute under --site-url, else relative to the site root"}),
                );
                if let Some(required) = variant.get_mut("required").and_then(Value::as_array_mut) {
                    required.retain(|r| r != "page");
                }
            }
        }
    }
    api
}

/// What `vocab` returns ([`super::shape::vocab_page`]).
fn vocab_schema() -> Value {
    let facet = json!({"type": "object", "required": ["key", "ko", "en", "values"], "properties": {
        "key": {"type": "string"}, "ko": {"type": "string"}, "en": {"type": "string"}, "values": {"type": "integer"}}});
    let value = json!({"type": "object", "required": ["facet", "slug", "ko", "en", "count", "synonyms"], "properties": {
        "facet": {"type": "string"}, "slug": {"type": "string"}, "ko": {"type": "string"}, "en": {"type": "string"},
        "count": {"type": "integer"}, "synonyms": {"type": "array", "items": {"type": "string"}}}});
    json!({"type": "object", "required": ["facets", "total", "values"], "properties": {
        "facets": {"type": "array", "items": facet}, "total": {"type": "integer"},
        "values": {"type": "array", "items": value}, "next_cursor": {"type": "string"}}})
}

/// The tool with schemas that every client reads alike: a type list (`["string",
/// "null"]`) becomes an `anyOf` of single types, which strict checkers prefer.
fn portable(mut tool: Tool) -> Tool {
    fn fix(v: &mut Value) {
        match v {
            Value::Object(map) => {
                if let Some(Value::Array(types)) = map.get("type").cloned() {
                    map.remove("type");
                    // Keywords of the non-null types go with them; the description stays.
                    let description = map.remove("description");
                    let rest = std::mem::take(map);
                    let branches: Vec<Value> = types
                        .iter()
                        .map(|t| {
                            let mut b = if t == "null" { Map::new() } else { rest.clone() };
                            b.insert("type".into(), t.clone());
                            Value::Object(b)
                        })
                        .collect();
                    map.insert("anyOf".into(), Value::Array(branches));
                    if let Some(d) = description {
                        map.insert("description".into(), d);
                    }
                }
                map.values_mut().for_each(fix);
            }
            Value::Array(items) => items.iter_mut().for_each(fix),
            _ => {}
        }
    }
    for schema in [Some(&mut tool.input_schema), tool.output_schema.as_mut()]
        .into_iter()
        .flatten()
    {
        let mut value = Value::Object((**schema).clone());
        fix(&mut value);
        if let Value::Object(map) = value {
            *schema = std::sync::Arc::new(map);
        }
    }
    tool
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

/// What `search_incidents` and `list_incidents` return. The hit is the search's
/// own `Hit`: its schema is derived from the type; the server gives excerpts in
/// place of the matched terms.
fn results_schema() -> Value {
    let mut hit = derived_schema::<incident_core::search::Hit>();
    if let Some(props) = hit["properties"].as_object_mut() {
        props.remove("terms");
        props.insert("excerpts".into(), json!({"type": "array", "description": "where the hit's words occur: up to 2 sections, the one with the most words first; matches in **", "items": {
            "type": "object", "required": ["section", "text", "url"], "additionalProperties": false, "properties": {
                "section": {"type": "string"}, "text": {"type": "string"}, "url": {"type": "string", "description": "the section on the incident page, relative to the site root"}}}}));
    }
    if let Some(required) = hit["required"].as_array_mut() {
        required.retain(|r| r != "terms");
    }
    json!({"type": "object", "required": ["total", "full", "page", "sort", "hits", "understood"], "properties": {
        "total": {"type": "integer", "description": "incidents that match at least one query word"},
        "full": {"type": "integer", "description": "of those, the incidents that match every word"},
        "page": {"type": "integer"}, "sort": {"type": "string"}, "hits": {"type": "array", "items": hit},
        "understood": {"type": "array"}, "next_cursor": {"type": "string"}, "note": {"type": "string"}}})
}
