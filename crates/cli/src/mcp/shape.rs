//! What the tools return beyond a search: a record with its sections in reading
//! order in one format, a page of the vocabulary, and the short text summary each
//! result carries beside its structured content (a client shows the text; an agent
//! reads the structure, so the text does not repeat it).

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{json, Value};

use incident_core::search::Sort;

use incident_build::mcp_tools::McpTool;
use incident_core::sections::NAMES;

use super::args::Format;

/// Values of the vocabulary a `vocab` call returns at most.
pub const VOCAB_PAGE: usize = 32;

/// The sections `get_incident` gives unless asked for others: what happened, why,
/// and what to learn. The rest are named in `other_sections`.
pub fn default_sections() -> Vec<&'static str> {
    incident_core::sections::brief().collect()
}

/// A record of the API (`incidents/<id>.json`'s data) with the `wanted` sections
/// it has as a list in reading order (요약 … 교훈), each with its `name` and the
/// chosen format's field, and the names of its other sections; nulls and the
/// API's relative page link left out. A moved id's answer is returned as it is.
pub fn record(mut data: Value, format: Format, wanted: &[&str]) -> Value {
    let Some(mut sections) = data
        .get_mut("sections")
        .and_then(Value::as_object_mut)
        .map(std::mem::take)
    else {
        return data;
    };
    let mut list: Vec<Value> = Vec::new();
    let mut others: Vec<Value> = Vec::new();
    for name in NAMES {
        if let Some(section) = sections.remove(name) {
            if wanted.contains(&name) {
                list.push(json!({"name": name, format.key(): section[format.key()]}));
            } else {
                others.push(json!(name));
            }
        }
    }
    if let Some(map) = data.as_object_mut() {
        // What the record does not say costs nothing.
        map.retain(|_, v| !v.is_null());
        map.remove("page");
    }
    data["sections"] = Value::Array(list);
    data["other_sections"] = Value::Array(others);
    data["format"] = json!(format.key());
    data
}

/// What `search_incidents` and `list_incidents` return.
#[derive(Serialize, JsonSchema)]
pub struct Results {
    /// Incidents that match at least one query word.
    pub total: usize,
    /// Of those, the incidents that match every word.
    pub full: usize,
    /// This page's number, from 1.
    pub page: usize,
    pub sort: Sort,
    #[schemars(schema_with = "hits_schema")]
    pub hits: Vec<Value>,
    /// How each query word was read.
    pub understood: Vec<Reading>,
    /// Said when the query was cut to its first words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Give it as `cursor` for the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// How one query word was read.
#[derive(Serialize, JsonSchema)]
pub struct Reading {
    /// The word as typed.
    pub word: String,
    /// Whether any incident holds it.
    pub matched: bool,
    /// Up to four readings: terms, or a taxonomy value as `facet:slug`.
    pub read_as: Vec<String>,
}

/// Where a hit's words occur.
#[derive(Serialize, JsonSchema)]
pub struct HitExcerpt {
    /// The section's name.
    pub section: String,
    /// The sentence, matches in `**`.
    pub text: String,
    /// The section on the incident page.
    pub url: String,
}

/// A hit as the server gives it: the search's own `Hit` (its schema derived from
/// the type) with excerpts in place of the matched terms.
fn hits_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut hit = super::schema::derived_schema::<incident_core::search::Hit>();
    let mut excerpts = super::schema::derived_schema::<Vec<HitExcerpt>>();
    if let Some(map) = excerpts.as_object_mut() {
        map.insert(
            "description".into(),
            json!(format!(
                "up to {EXCERPTS_PER_HIT} sections, the one with the most words first"
            )),
        );
    }
    if let Some(props) = hit["properties"].as_object_mut() {
        props.remove("terms");
        props.insert("excerpts".into(), excerpts);
    }
    if let Some(required) = hit["required"].as_array_mut() {
        required.retain(|r| r != "terms");
    }
    schemars::json_schema!({"type": "array", "items": hit})
}

/// What `vocab` returns.
#[derive(Serialize, JsonSchema)]
pub struct VocabPage {
    /// Every facet with its number of values.
    pub facets: Vec<FacetCount>,
    /// Values of the facet asked for, or of all.
    pub total: usize,
    /// This page of them.
    pub values: Vec<VocabEntry>,
    /// Give it as `cursor` for the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// A facet and how many values it has.
#[derive(Serialize, JsonSchema)]
pub struct FacetCount {
    pub key: String,
    pub ko: String,
    pub en: String,
    pub values: usize,
}

/// A taxonomy value with its labels, synonyms and incident count.
#[derive(Serialize, JsonSchema)]
pub struct VocabEntry {
    pub facet: String,
    pub slug: String,
    pub ko: String,
    pub en: String,
    pub count: u64,
    pub synonyms: Vec<String>,
}

/// A page of the vocabulary (`vocab.json`'s data): the facets with their value
/// counts, and up to [`VOCAB_PAGE`] values from `start` (of `facet` only, when
/// given), each with its facet, slug, labels, synonyms and incident count.
pub fn vocab_page(data: &Value, facet: Option<&str>, start: usize) -> std::result::Result<VocabPage, String> {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let facets = data["facets"].as_array().cloned().unwrap_or_default();
    if let Some(f) = facet {
        if !facets.iter().any(|x| x["key"] == f) {
            let keys: Vec<&str> = facets.iter().filter_map(|x| x["key"].as_str()).collect();
            return Err(format!("facet {f:?} is not known; use one of {}", keys.join(", ")));
        }
    }
    let mut values: Vec<VocabEntry> = Vec::new();
    for f in facets.iter().filter(|x| facet.is_none_or(|f| x["key"] == f)) {
        for v in f["values"].as_array().into_iter().flatten() {
            values.push(VocabEntry {
                facet: text(&f["key"]),
                slug: text(&v["slug"]),
                ko: text(&v["ko"]),
                en: text(&v["en"]),
                count: v["count"].as_u64().unwrap_or_default(),
                synonyms: v["synonyms"].as_array().into_iter().flatten().map(text).collect(),
            });
        }
    }
    if start > 0 && start >= values.len() {
        return Err("cursor points past the last value; call again without a cursor".into());
    }
    let total = values.len();
    let end = (start + VOCAB_PAGE).min(total);
    Ok(VocabPage {
        facets: facets
            .iter()
            .map(|f| FacetCount {
                key: text(&f["key"]),
                ko: text(&f["ko"]),
                en: text(&f["en"]),
                values: f["values"].as_array().map_or(0, Vec::len),
            })
            .collect(),
        total,
        values: values.drain(start..end).collect(),
        next_cursor: (end < total).then(|| format!("{end}:{}", facet.unwrap_or(""))),
    })
}

/// The start of a `vocab` cursor, checked against the call's facet.
pub fn vocab_cursor(cursor: &str, facet: Option<&str>) -> std::result::Result<usize, String> {
    let bad = || "cursor is not one this server gave; call vocab again without a cursor".to_string();
    let (start, owner) = cursor.split_once(':').ok_or_else(bad)?;
    if owner != facet.unwrap_or("") {
        return Err("cursor belongs to another facet; call again without a cursor to start over".into());
    }
    start.parse().map_err(|_| bad())
}

/// Most excerpts a hit carries: the sections where its terms occur, best first.
pub const EXCERPTS_PER_HIT: usize = 2;

/// A hit's excerpts for an agent: at most [`EXCERPTS_PER_HIT`], the one with the
/// most terms first, each as `{section, text, url}` with the matches in `**`, the
/// url made by `web` from a path relative to the site root.
pub fn excerpts(found: &[incident_core::excerpt::Excerpt], id: &str, web: &dyn Fn(&str) -> String) -> Vec<HitExcerpt> {
    let mut order: Vec<&incident_core::excerpt::Excerpt> = found.iter().collect();
    // Stable: equal counts keep reading order.
    order.sort_by_key(|e| std::cmp::Reverse(e.found));
    order
        .into_iter()
        .take(EXCERPTS_PER_HIT)
        .map(|e| HitExcerpt {
            section: e.section.clone(),
            text: e.marked("**", "**"),
            url: web(&format!("incidents/{id}/#{}", e.anchor)),
        })
        .collect()
}

/// Characters of a hit's title in the text summary.
const SUMMARY_TITLE: usize = 48;

/// A few lines a person can read: what the result holds, without repeating it.
pub fn summary(tool: McpTool, v: &Value) -> String {
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    match tool {
        McpTool::SearchIncidents | McpTool::ListIncidents => {
            let hits = v["hits"].as_array().map_or(&[][..], Vec::as_slice);
            let mut lines = vec![format!(
                "{} incidents match ({} every word); page {}: {} shown",
                v["total"],
                v["full"],
                v["page"],
                hits.len()
            )];
            // The title's start: the structure holds the rest.
            let short = |t: String| match t.char_indices().nth(SUMMARY_TITLE) {
                Some((at, _)) => format!("{}…", &t[..at]),
                None => t,
            };
            for h in hits {
                lines.push(format!(
                    "{} · {} · {}",
                    s(&h["id"]),
                    s(&h["date_label"]),
                    short(s(&h["title"]))
                ));
            }
            if v.get("next_cursor").is_some() {
                lines.push("more: call again with next_cursor".into());
            }
            lines.join("\n")
        }
        McpTool::GetIncident if v.get("moved_to").is_some() => {
            format!("{} moved to {}: {}", s(&v["id"]), s(&v["moved_to"]), s(&v["reason"]))
        }
        McpTool::GetIncident => record_summary(v),
        McpTool::GetTopic => format!(
            "{}/{} {} · {} incidents",
            s(&v["facet"]),
            s(&v["slug"]),
            s(&v["ko"]),
            v["incidents"].as_array().map_or(0, Vec::len)
        ),
        McpTool::Vocab => {
            let shown = v["values"].as_array().map_or(0, Vec::len);
            let more = if v.get("next_cursor").is_some() {
                "; more with next_cursor"
            } else {
                ""
            };
            format!("{} taxonomy values; {shown} shown{more}", v["total"])
        }
    }
}

/// The summary of a record: id, date, organisation, title, the sections given and
/// the others, checks and related ids.
fn record_summary(v: &Value) -> String {
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    let names = |key: &str| -> String {
        let list = v[key].as_array().into_iter().flatten();
        list.map(|x| x.get("name").map_or_else(|| s(x), s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let others = names("other_sections");
    let more = if others.is_empty() {
        String::new()
    } else {
        format!(" (also {others}: ask with sections)")
    };
    format!(
        "{} · {} · {}\n{}\nsections: {}{more} · {} checks · related {}",
        s(&v["id"]),
        s(&v["date_label"]),
        s(&v["org"]),
        s(&v["title"]),
        names("sections"),
        v["checks"].as_array().map_or(0, Vec::len),
        v["related"]
            .as_array()
            .into_iter()
            .flatten()
            .map(s)
            .collect::<Vec<_>>()
            .join(", ")
    )
}
