//! The MCP tools' definitions: names, descriptions, input schemas, and output
//! schemas taken from the static API's JSON Schemas where a tool returns an API file.

use std::sync::Arc;

use rmcp::model::{Tool, ToolAnnotations};
use serde_json::{json, Map, Value};

use incident_core::index::FACETS;

use incident_build::mcp_tools::McpTool;
use incident_core::sections::NAMES;

use super::args::{GetIncidentArgs, GetTopicArgs, ListArgs, SearchArgs, VocabArgs};
use super::shape::{default_sections, Results, VocabPage};

/// The tool definitions, with input and output schemas.
pub fn tools() -> Vec<Tool> {
    let results = derived_schema::<Results>();
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
            .map(|(_, s)| without_descriptions(s["properties"]["data"].clone()))
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
            input::<SearchArgs>(),
            results.clone(),
        ),
        tool(
            McpTool::ListIncidents,
            "List incidents by facet filters alone, newest first (or by relevance with sort), paged with cursor.".into(),
            input::<ListArgs>(),
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
            input::<GetIncidentArgs>(),
            record_schema(api_schema("incident")),
        ),
        tool(
            McpTool::GetTopic,
            format!("A taxonomy value (a facet: {}): description, synonyms, its incidents and related topics. Give facet and slug, or a name (a label or synonym).", FACETS.iter().map(|f| f.key).collect::<Vec<_>>().join(", ")),
            input::<GetTopicArgs>(),
            api_schema("topic"),
        ),
        tool(
            McpTool::Vocab,
            "The taxonomy: every facet with its number of values, and a page of values (slug, Korean and English labels, synonyms, incident count), of one facet when given. Page on with next_cursor.".into(),
            input::<VocabArgs>(),
            derived_schema::<VocabPage>(),
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
    for variant in api["anyOf"].as_array_mut().into_iter().flatten() {
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

/// An API schema without its fields' descriptions: the API's page documents the
/// fields, and a tool's definition is read into every agent's context.
fn without_descriptions(mut schema: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                if map.get("description").is_some_and(Value::is_string) {
                    map.remove("description");
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut schema);
    schema
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
                            // schemars lists null among an optional enum's values.
                            if let Some(Value::Array(values)) = b.get_mut("enum") {
                                values.retain(|v| !v.is_null());
                            }
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

/// The JSON Schema of `T` ([`incident_build::api::derived_schema`]) to sit inside
/// a tool's definition: without `$schema`.
pub(super) fn derived_schema<T: schemars::JsonSchema>() -> Value {
    let mut schema = incident_build::api::derived_schema::<T>();
    if let Some(map) = schema.as_object_mut() {
        map.remove("$schema");
    }
    schema
}

/// A tool's input schema, derived from its arguments' type ([`super::args`]).
fn input<T: schemars::JsonSchema>() -> Value {
    let mut schema = derived_schema::<T>();
    if let Some(map) = schema.as_object_mut() {
        // The tool's description says what the arguments are for.
        map.remove("description");
    }
    schema
}
