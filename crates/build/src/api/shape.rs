//! The shapes of the API's files, as types: each file's data serialises from one of
//! these, and its JSON Schema is derived from the same type (doc comments become
//! descriptions), so the files and their schemas cannot drift apart. Field order is
//! the files' key order.
//!
//! The types borrow from the corpus: a file is made, written and dropped.

use std::collections::BTreeMap;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use incident_core::index::FACETS;
use incident_core::sections;

use super::SCHEMA_VERSION;

/// The envelope every file has.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Envelope<'a, T> {
    /// The files' shape version; bumped on any incompatible change.
    #[schemars(schema_with = "schema_version")]
    pub schema_version: &'a str,
    /// When the corpus was last changed (the newest record's day), not the wall
    /// clock, so that a rebuild of the same corpus gives the same files.
    #[schemars(with = "String", extend("format" = "date-time"))]
    pub generated_at: &'a str,
    /// The file's content.
    pub data: T,
}

/// `index.json`: what the library holds and where the other files are.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Index {
    /// The library's name.
    pub name: &'static str,
    /// What the API is, in Korean.
    pub description: &'static str,
    /// How many incidents the library holds.
    pub incidents: usize,
    /// The facets, in the library's order.
    pub facets: Vec<FacetLabel>,
    /// Each file or path template, relative to `index.json`.
    pub endpoints: Endpoints,
}

/// A facet's key and labels.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FacetLabel {
    /// The facet's key, as in `facets` of a record.
    pub key: &'static str,
    /// Korean label.
    pub ko: &'static str,
    /// English label.
    pub en: &'static str,
}

/// The `endpoints` of `index.json`.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Endpoints {
    /// The listing's first page.
    pub listing: &'static str,
    /// A further page of the listing.
    pub listing_page: &'static str,
    /// One incident in full.
    pub incident: &'static str,
    /// Every taxonomy value.
    pub topics: &'static str,
    /// One taxonomy value.
    pub topic: &'static str,
    /// Every facet with its values.
    pub vocab: &'static str,
    /// The OpenAPI document.
    pub openapi: &'static str,
    /// The folder of the JSON Schemas.
    pub schemas: &'static str,
}

/// A page of the listing (`incidents.json`, `incidents-2.json`, …), newest first.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListingPage<'a> {
    /// Incidents in the whole listing.
    pub total: usize,
    /// This page's number, from 1.
    #[schemars(range(min = 1))]
    pub page: usize,
    /// How many pages the listing has.
    #[schemars(range(min = 1))]
    pub pages: usize,
    /// The next page's file, or null on the last page.
    #[schemars(schema_with = "nullable_string")]
    pub next: Option<String>,
    /// This page's incidents.
    pub incidents: Vec<ListingEntry<'a>>,
}

/// An incident in the listing.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListingEntry<'a> {
    #[schemars(schema_with = "id")]
    pub id: &'a str,
    /// One Korean sentence.
    pub title: &'a str,
    /// The organisation's slug.
    pub org: &'a str,
    /// The date as far as the sources give it: a day, a month (`2019-06`), a year, a
    /// day of an unknown year (`--10-04`), or a span of two of one kind joined by `/`.
    #[schemars(schema_with = "date")]
    pub date: String,
    /// The date as the page shows it, in Korean.
    pub date_label: String,
    /// The day the record sorts by.
    #[schemars(schema_with = "day")]
    pub sort_date: String,
    /// Facet slugs by facet key.
    pub facets: Facets<'a>,
    /// A short summary.
    pub summary: String,
    /// The incident's file, relative to this one.
    pub url: String,
}

/// An incident's file: the record, or what an id that moved answers with.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(extend("type" = "object"))]
pub enum IncidentFile<'a> {
    /// The record in full.
    Record(Box<Record<'a>>),
    /// Two records of one incident were merged; this id moved.
    Moved(MovedIncident<'a>),
}

/// One incident in full: every field and section, checks included.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Record<'a> {
    #[schemars(schema_with = "id")]
    pub id: &'a str,
    /// One Korean sentence.
    pub title: &'a str,
    /// The organisation's slug.
    pub org: &'a str,
    /// As in the listing.
    #[schemars(schema_with = "date")]
    pub date: String,
    /// The date as the page shows it, in Korean.
    pub date_label: String,
    /// The day the record sorts by.
    #[schemars(schema_with = "day")]
    pub sort_date: String,
    /// Why the sort day was chosen when the sources give no year.
    pub date_bound_note: Option<&'a str>,
    /// Free tags.
    pub tags: &'a [String],
    /// Severity as the source states it.
    pub severity: Option<&'a str>,
    /// What was affected.
    pub impact: Option<&'a str>,
    /// Who was affected.
    pub affected_users: Option<&'a str>,
    /// Regions.
    pub regions: &'a [String],
    /// Time from impact to detection (`19m`).
    pub time_to_detect: Option<&'a str>,
    /// Time from impact to recovery (`7h 45m`).
    pub time_to_recover: Option<&'a str>,
    /// Facet slugs by facet key.
    pub facets: Facets<'a>,
    /// The public reports the record was written from, the primary one first.
    #[schemars(schema_with = "sources")]
    pub sources: &'a [String],
    /// Ids shown as related (listed in the record, or computed).
    #[schemars(schema_with = "ids")]
    pub related: &'a [String],
    /// Read-only checks a reader can run on their own systems.
    pub checks: &'a [String],
    /// The day the record was first published here, when it says.
    #[schemars(schema_with = "nullable_day")]
    pub published: Option<String>,
    /// The day the record was last changed, when it says.
    #[schemars(schema_with = "nullable_day")]
    pub updated: Option<String>,
    /// What changed in it, newest first.
    pub history: &'a [String],
    /// The body, by section name, in reading order.
    pub sections: Sections<'a>,
    /// The incident's page, relative to this file.
    pub page: String,
}

/// What a merged id answers with.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovedIncident<'a> {
    #[schemars(schema_with = "id")]
    pub id: &'a str,
    /// The record that holds the incident now.
    #[schemars(schema_with = "id")]
    pub moved_to: &'a str,
    /// Why the records were merged.
    pub reason: &'a str,
    /// The file of `moved_to`, relative to this one.
    pub url: String,
}

/// `topics.json`: every taxonomy value.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Topics<'a> {
    pub topics: Vec<TopicEntry<'a>>,
}

/// A taxonomy value with its incident count.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopicEntry<'a> {
    #[schemars(schema_with = "facet_key")]
    pub facet: &'static str,
    pub slug: &'a str,
    pub ko: &'a str,
    pub en: &'a str,
    pub count: usize,
    /// The value's file, relative to `topics.json`.
    pub url: String,
}

/// A taxonomy value's file: the value, or what a merged value's old slug answers
/// with.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(extend("type" = "object"))]
pub enum TopicFile<'a> {
    /// The value.
    Topic(Topic<'a>),
    /// The value was merged into another; this slug moved.
    Moved(MovedTopic<'a>),
}

/// A taxonomy value: labels, description, synonyms, incidents and related topics.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Topic<'a> {
    #[schemars(schema_with = "facet_key")]
    pub facet: &'static str,
    pub slug: &'a str,
    pub ko: &'a str,
    pub en: &'a str,
    pub description: &'a str,
    /// Other words for the value, which the search understands.
    pub synonyms: &'a [String],
    /// The incidents classified with it, newest first.
    #[schemars(schema_with = "ids")]
    pub incidents: Vec<&'a str>,
    /// Values of other facets (not the organisation) that share the most incidents
    /// with it, at most 8.
    pub related_topics: Vec<RelatedTopic<'a>>,
    /// The value's page, relative to this file.
    pub page: String,
}

/// A value that shares incidents with a topic.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelatedTopic<'a> {
    #[schemars(schema_with = "facet_key")]
    pub facet: &'static str,
    pub slug: &'a str,
    pub ko: &'a str,
    /// The incidents the two values share.
    #[schemars(range(min = 1))]
    pub shared: usize,
}

/// What a merged value's old slug answers with.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovedTopic<'a> {
    #[schemars(schema_with = "facet_key")]
    pub facet: &'static str,
    /// The old slug.
    pub slug: &'a str,
    /// The value's slug now.
    pub moved_to: &'a str,
    /// The value's file, relative to this one.
    pub url: String,
}

/// `vocab.json`: every facet with its values.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Vocab<'a> {
    pub facets: Vec<VocabFacet<'a>>,
}

/// A facet with its values.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VocabFacet<'a> {
    #[schemars(schema_with = "facet_key")]
    pub key: &'static str,
    pub ko: &'static str,
    pub en: &'static str,
    pub values: Vec<VocabValue<'a>>,
}

/// A taxonomy value with its labels, other words and count.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VocabValue<'a> {
    pub slug: &'a str,
    pub ko: &'a str,
    pub en: &'a str,
    /// Other words for the value, which the search understands.
    pub synonyms: &'a [String],
    /// Old slugs that still answer, each with `moved_to`.
    pub aliases: &'a [String],
    pub count: usize,
}

/// Facet slugs by facet key: every facet of [`FACETS`] is present.
pub struct Facets<'a>(pub BTreeMap<&'static str, Vec<&'a str>>);

impl Serialize for Facets<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl JsonSchema for Facets<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Facets".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let keys: Vec<&str> = FACETS.iter().map(|f| f.key).collect();
        let props: serde_json::Map<String, serde_json::Value> = keys
            .iter()
            .map(|k| {
                (
                    k.to_string(),
                    serde_json::json!({"type": "array", "items": {"type": "string"}}),
                )
            })
            .collect();
        json_schema!({"type": "object", "required": keys, "properties": props, "additionalProperties": false})
    }
}

/// A section's text.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionText<'a> {
    /// As written.
    pub markdown: &'a str,
    /// Plain text, for search and summaries.
    pub text: &'a str,
}

/// The sections present, by name, in the reading order of
/// [`incident_core::sections`]; the required ones are always there.
pub struct Sections<'a>(pub Vec<(&'static str, SectionText<'a>)>);

impl Serialize for Sections<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, text) in &self.0 {
            map.serialize_entry(name, text)?;
        }
        map.end()
    }
}

impl JsonSchema for Sections<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Sections".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let text = generator.subschema_for::<SectionText>().to_value();
        let props: serde_json::Map<String, serde_json::Value> =
            sections::NAMES.iter().map(|n| (n.to_string(), text.clone())).collect();
        let required: Vec<&str> = sections::required().collect();
        json_schema!({"type": "object", "required": required, "properties": props, "additionalProperties": false})
    }
}

fn schema_version(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"const": SCHEMA_VERSION})
}

/// A string or null, always present.
fn nullable_string(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": ["string", "null"]})
}

fn id(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "string", "pattern": crate::corpus::ID_PATTERN})
}

fn ids(generator: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "array", "items": id(generator)})
}

fn date(_: &mut SchemaGenerator) -> Schema {
    let one = "([0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{2}|[0-9]{4}|--[0-9]{2}-[0-9]{2})";
    json_schema!({"type": "string", "pattern": format!("^{one}(/{one})?$")})
}

fn nullable_day(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": ["string", "null"], "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"})
}

fn day(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"})
}

fn sources(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "array", "items": {"type": "string", "format": "uri"}, "minItems": 1})
}

fn facet_key(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "string", "enum": FACETS.iter().map(|f| f.key).collect::<Vec<_>>()})
}
