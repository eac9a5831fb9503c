//! The tools' arguments, as types. Each tool's input schema is derived from its
//! struct (doc comments become descriptions), and a call's arguments are read into
//! the same struct, so what a client is told and what the server accepts are one
//! definition. What a type cannot say (a limit's range, a cursor's owner, whether a
//! slug exists) is checked after reading, with messages that say what was expected.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Map, Value};

use incident_core::index::FACETS;
use incident_core::search::Sort;
use incident_core::sections::NAMES;

use super::shape::default_sections;
use super::{ToolError, LIST_LIMIT, SEARCH_LIMIT};

/// Reads a call's arguments into `T`; a mistake is named by its path
/// (`filters.cause: …`, `limit: invalid type: …`).
pub(super) fn read<T: DeserializeOwned>(args: &Map<String, Value>) -> Result<T, ToolError> {
    serde_path_to_error::deserialize(Value::Object(args.clone())).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        ToolError::Arguments(bounded(&if path == "." {
            format!("arguments: {inner}; the tool's input schema names each argument")
        } else {
            format!("{path}: {inner}")
        }))
    })
}

/// Characters of a message kept from each end when a long one is cut.
const MESSAGE_ENDS: usize = 120;

/// `message` made printable and of bounded length. serde's messages repeat the
/// value they refused (`unknown variant \`…\``), which is the caller's text: its
/// control characters are escaped, and a long one is cut in the middle, so that
/// the end, which says what was expected, stays.
fn bounded(message: &str) -> String {
    let text = crate::commands::printable(message);
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 2 * MESSAGE_ENDS {
        return text;
    }
    let head: String = chars[..MESSAGE_ENDS].iter().collect();
    let tail: String = chars[chars.len() - MESSAGE_ENDS..].iter().collect();
    format!("{head}… ({} characters) …{tail}", chars.len())
}

/// `search_incidents`' arguments. The fields it shares with [`ListArgs`] are written
/// out in both rather than shared through `#[serde(flatten)]`, under which a bad
/// value's error loses its argument's name (`sort: …`).
#[derive(Deserialize, JsonSchema)]
#[schemars(transform = |s: &mut Schema| required(s, "query"))]
pub struct SearchArgs {
    /// The words to search for.
    #[serde(default)]
    #[schemars(length(min = 1))]
    pub query: String,
    pub filters: Option<Filters>,
    pub sort: Option<Sort>,
    /// Incidents per page (10 when not given).
    #[schemars(range(min = 1, max = SEARCH_LIMIT))]
    pub limit: Option<u64>,
    /// next_cursor of the previous call.
    pub cursor: Option<String>,
}

/// `list_incidents`' arguments.
#[derive(Deserialize, JsonSchema)]
pub struct ListArgs {
    pub filters: Option<Filters>,
    pub sort: Option<Sort>,
    /// Incidents per page (10 when not given).
    #[schemars(range(min = 1, max = LIST_LIMIT))]
    pub limit: Option<u64>,
    /// next_cursor of the previous call.
    pub cursor: Option<String>,
}

/// `get_incident`'s arguments.
#[derive(Deserialize, JsonSchema)]
#[schemars(transform = |s: &mut Schema| required(s, "id"))]
pub struct GetIncidentArgs {
    /// The incident's id, e.g. IL-0004.
    #[serde(default)]
    #[schemars(schema_with = "incident_id")]
    pub id: String,
    /// How the sections are given.
    #[serde(default)]
    pub format: Format,
    pub sections: Option<Sections>,
}

/// `get_topic`'s arguments: a facet and slug, or a name.
#[derive(Deserialize, JsonSchema)]
pub struct GetTopicArgs {
    #[schemars(with = "Option<FacetKey>")]
    pub facet: Option<String>,
    /// The value's slug, e.g. cdn-edge.
    pub slug: Option<String>,
    /// A label or synonym, e.g. 메모리 부족.
    pub name: Option<String>,
}

/// `vocab`'s arguments.
#[derive(Deserialize, JsonSchema)]
pub struct VocabArgs {
    /// Only this facet's values.
    #[schemars(with = "Option<FacetKey>")]
    pub facet: Option<String>,
    /// next_cursor of the previous call.
    pub cursor: Option<String>,
}

/// How a record's sections are given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Plain text.
    #[default]
    Text,
    /// Markdown, as written.
    Markdown,
}

impl Format {
    /// The name of the format, which is also the API's field for it.
    pub fn key(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Text => "text",
        }
    }
}

/// Facet filters as (facet, slug) pairs. A facet holds a list of slugs or one
/// slug. Which facets and slugs exist is the search's to say: its errors name the
/// valid ones and the closest slugs.
#[derive(Debug, Default)]
pub struct Filters(pub Vec<(String, String)>);

impl<'de> Deserialize<'de> for Filters {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        let object = value
            .as_object()
            .ok_or_else(|| D::Error::custom("must be an object such as {\"component\": [\"cdn-edge\"]}"))?;
        let mut out = Vec::new();
        for (facet, slugs) in object {
            let slugs: Vec<&str> = match slugs {
                Value::String(s) => vec![s.as_str()],
                Value::Array(a) => a
                    .iter()
                    .map(|v| {
                        v.as_str()
                            .ok_or_else(|| D::Error::custom(format!("{facet} must hold slugs (strings)")))
                    })
                    .collect::<Result<_, _>>()?,
                _ => return Err(D::Error::custom(format!("{facet} must be a list of slugs"))),
            };
            out.extend(slugs.into_iter().map(|slug| (facet.clone(), slug.to_string())));
        }
        Ok(Filters(out))
    }
}

impl JsonSchema for Filters {
    fn schema_name() -> Cow<'static, str> {
        "Filters".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let props: Map<String, Value> = FACETS
            .iter()
            .map(|f| {
                (
                    f.key.to_string(),
                    json!({"type": "array", "items": {"type": "string"}, "description": f.ko}),
                )
            })
            .collect();
        json_schema!({
            "type": "object", "properties": props, "additionalProperties": false,
            "description": "Facet filters: OR within a facet, AND across facets; values are slugs (see vocab)."
        })
    }
}

/// The sections `get_incident` gives: `"all"`, or section names.
#[derive(Debug)]
pub struct Sections(pub Vec<&'static str>);

impl Sections {
    /// The sections asked for, or [`default_sections`] when none were.
    pub fn or_default(sections: Option<Sections>) -> Vec<&'static str> {
        sections.map_or_else(default_sections, |s| s.0)
    }
}

impl<'de> Deserialize<'de> for Sections {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let bad = || {
            D::Error::custom(format!(
                "must be \"all\" or a list of section names: {}",
                NAMES.join(", ")
            ))
        };
        match Value::deserialize(d)? {
            Value::String(s) if s == "all" => Ok(Sections(NAMES.to_vec())),
            Value::Array(names) => names
                .iter()
                .map(|n| {
                    let n = n.as_str().ok_or_else(bad)?.trim();
                    NAMES.iter().copied().find(|s| *s == n).ok_or_else(bad)
                })
                .collect::<Result<_, _>>()
                .map(Sections),
            _ => Err(bad()),
        }
    }
}

impl JsonSchema for Sections {
    fn schema_name() -> Cow<'static, str> {
        "Sections".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "anyOf": [{"type": "string", "enum": ["all"]}, {"type": "array", "items": {"type": "string", "enum": NAMES}}],
            "description": format!("the sections to give: \"all\", or names; by default {}", default_sections().join(", "))
        })
    }
}

/// Marks `field` required in a struct's schema. The field reads as empty when it
/// is missing, so that the tool, not serde, says what to give; and serde's default
/// would otherwise leave it out of `required`, and put a `default` beside it.
fn required(schema: &mut Schema, field: &str) {
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        if let Some(Value::Object(p)) = props.get_mut(field) {
            p.remove("default");
        }
    }
    let list = schema.ensure_object().entry("required").or_insert_with(|| json!([]));
    if let Some(list) = list.as_array_mut() {
        list.push(json!(field));
    }
}

fn incident_id(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "string", "pattern": incident_build::corpus::ID_PATTERN})
}

/// A facet's key: its schema names every facet of [`FACETS`]. The server checks
/// the key itself, to answer with the list.
struct FacetKey;

impl JsonSchema for FacetKey {
    fn schema_name() -> Cow<'static, str> {
        "FacetKey".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()})
    }
}
