//! What the tools return beyond a search: a record with its sections in reading
//! order in one format, a page of the vocabulary, and the short text summary each
//! result carries beside its structured content (a client shows the text; an agent
//! reads the structure, so the text does not repeat it).

use serde_json::{json, Map, Value};

use incident_build::mcp_tools::McpTool;
use incident_core::sections::NAMES;

/// Values of the vocabulary a `vocab` call returns at most.
pub const VOCAB_PAGE: usize = 32;

/// How a record's sections are given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Markdown, as written.
    Markdown,
    /// Plain text.
    Text,
}

impl Format {
    /// The `format` argument: `text` (the default) or `markdown`.
    pub fn parse(arg: Option<&str>) -> std::result::Result<Format, String> {
        match arg {
            None | Some("text") => Ok(Format::Text),
            Some("markdown") => Ok(Format::Markdown),
            Some(other) => Err(format!("format {other:?} is not known; use \"text\" or \"markdown\"")),
        }
    }

    fn key(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Text => "text",
        }
    }
}

/// The sections `get_incident` gives unless asked for others: what happened, why,
/// and what to learn. The rest are named in `other_sections`.
pub fn default_sections() -> Vec<&'static str> {
    incident_core::sections::brief().collect()
}

/// The `sections` argument: the string `"all"`, or section names; `None` for
/// [`default_sections`].
pub fn sections_arg(arg: Option<&Value>) -> std::result::Result<Vec<&'static str>, String> {
    let bad = || {
        format!(
            "sections must be \"all\" or a list of section names: {}",
            NAMES.join(", ")
        )
    };
    match arg {
        None | Some(Value::Null) => Ok(default_sections()),
        Some(Value::String(s)) if s == "all" => Ok(NAMES.to_vec()),
        Some(Value::Array(names)) => names
            .iter()
            .map(|n| {
                let n = n.as_str().ok_or_else(bad)?.trim();
                NAMES.iter().copied().find(|s| *s == n).ok_or_else(bad)
            })
            .collect(),
        Some(_) => Err(bad()),
    }
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

/// A page of the vocabulary (`vocab.json`'s data): the facets with their value
/// counts, and up to [`VOCAB_PAGE`] values from `start` (of `facet` only, when
/// given), each with its facet, slug, labels, synonyms and incident count.
pub fn vocab_page(data: &Value, facet: Option<&str>, start: usize) -> std::result::Result<Value, String> {
    let facets = data["facets"].as_array().cloned().unwrap_or_default();
    if let Some(f) = facet {
        if !facets.iter().any(|x| x["key"] == f) {
            let keys: Vec<&str> = facets.iter().filter_map(|x| x["key"].as_str()).collect();
            return Err(format!("facet {f:?} is not known; use one of {}", keys.join(", ")));
        }
    }
    let mut values: Vec<Value> = Vec::new();
    for f in facets.iter().filter(|x| facet.is_none_or(|f| x["key"] == f)) {
        for v in f["values"].as_array().into_iter().flatten() {
            let mut entry = Map::new();
            entry.insert("facet".into(), f["key"].clone());
            for key in ["slug", "ko", "en", "count", "synonyms"] {
                entry.insert(key.into(), v[key].clone());
            }
            values.push(Value::Object(entry));
        }
    }
    if start > 0 && start >= values.len() {
        return Err("cursor points past the last value; call again without a cursor".into());
    }
    let end = (start + VOCAB_PAGE).min(values.len());
    let summary: Vec<Value> = facets
        .iter()
        .map(|f| json!({"key": f["key"], "ko": f["ko"], "en": f["en"], "values": f["values"].as_array().map_or(0, Vec::len)}))
        .collect();
    let mut out = json!({"facets": summary, "total": values.len(), "values": values[start..end].to_vec()});
    if end < values.len() {
        out["next_cursor"] = json!(format!("{end}:{}", facet.unwrap_or("")));
    }
    Ok(out)
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
pub fn excerpts(found: &[incident_core::excerpt::Excerpt], id: &str, web: &dyn Fn(&str) -> String) -> Value {
    let mut order: Vec<&incident_core::excerpt::Excerpt> = found.iter().collect();
    // Stable: equal counts keep reading order.
    order.sort_by_key(|e| std::cmp::Reverse(e.found));
    let list: Vec<Value> = order
        .into_iter()
        .take(EXCERPTS_PER_HIT)
        .map(|e| json!({"section": e.section, "text": e.marked("**", "**"), "url": web(&format!("incidents/{id}/#{}", e.anchor))}))
        .collect();
    Value::Array(list)
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
