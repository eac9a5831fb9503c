//! Markdown versions of a record and of a topic, for agents and tools that read
//! text: the build writes `incidents/<id>/index.md` beside each page, and the MCP
//! server gives the same text as the incident's resource. Both make it from the
//! record of the static API (`api/v1/incidents/<id>.json`'s data), so the two never
//! differ but in where their links point.

use serde_json::Value;

use incident_core::index::FACETS;

/// Where a text's links point: `url("topics/cause/dns/")` gives the link of a
/// path of the site, given from its root.
pub trait Links {
    /// The link to `path` (relative to the site's root, no leading `/`).
    fn url(&self, path: &str) -> String;
    /// The Korean label of taxonomy value `slug` of facet `facet`.
    fn label(&self, facet: &str, slug: &str) -> String;
}

/// The Markdown of a record (`record`: the API's data of one incident).
pub fn incident(record: &Value, links: &dyn Links) -> String {
    let s = |key: &str| record[key].as_str().unwrap_or_default();
    let id = s("id");
    let mut out = format!("# {}\n\n", s("title"));
    out.push_str(&format!(
        "- 사례: {id} · {} · {}\n",
        links.label("org", s("org")),
        s("date_label")
    ));
    if let Some(published) = record["published"].as_str() {
        out.push_str(&format!("- 처음 실음: {published}\n"));
    }
    if let Some(updated) = record["updated"].as_str() {
        out.push_str(&format!("- 최종 수정: {updated}\n"));
        for change in record["history"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            out.push_str(&format!("  - {change}\n"));
        }
    }
    for facet in FACETS.iter().filter(|f| f.key != "org") {
        let values: Vec<String> = record["facets"][facet.key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|slug| {
                format!(
                    "[{}]({})",
                    links.label(facet.key, slug),
                    links.url(&format!("topics/{}/{slug}/", facet.key))
                )
            })
            .collect();
        if !values.is_empty() {
            out.push_str(&format!("- {}: {}\n", facet.ko, values.join(", ")));
        }
    }
    for (key, name) in [
        ("impact", "영향"),
        ("affected_users", "영향 받은 사용자"),
        ("severity", "심각도"),
        ("time_to_detect", "감지까지"),
        ("time_to_recover", "복구까지"),
    ] {
        if let Some(v) = record[key].as_str() {
            out.push_str(&format!("- {name}: {v}\n"));
        }
    }
    let regions = strings(&record["regions"]);
    if !regions.is_empty() {
        out.push_str(&format!("- 지역: {}\n", regions.join(", ")));
    }
    out.push_str(&format!("- 웹 페이지: {}\n", links.url(&format!("incidents/{id}/"))));
    for name in incident_core::sections::NAMES {
        if let Some(text) = record["sections"][name]["markdown"].as_str() {
            out.push_str(&format!("\n## {name}\n\n{}\n", text.trim()));
        }
    }
    let checks = strings(&record["checks"]);
    if !checks.is_empty() {
        out.push_str("\n## 내 시스템에서 확인할 것\n\n");
        for c in checks {
            out.push_str(&format!("- {c}\n"));
        }
    }
    let related = strings(&record["related"]);
    if !related.is_empty() {
        out.push_str("\n## 관련 사례\n\n");
        for r in related {
            out.push_str(&format!("- [{r}]({})\n", links.url(&format!("incidents/{r}/"))));
        }
    }
    out.push_str("\n## 출처\n\n");
    for url in strings(&record["sources"]) {
        out.push_str(&format!("- <{url}>\n"));
    }
    out
}

/// The Markdown of a topic (`topic`: the API's data of one taxonomy value), its
/// incidents listed with `title(id)`.
pub fn topic(topic: &Value, links: &dyn Links, title: &dyn Fn(&str) -> Option<String>) -> String {
    let s = |key: &str| topic[key].as_str().unwrap_or_default();
    let facet = FACETS.iter().find(|f| f.key == s("facet")).map_or("", |f| f.ko);
    let mut out = format!("# {} ({facet})\n\n{}\n\n", s("ko"), s("description"));
    out.push_str(&format!("- 영문: {}\n", s("en")));
    let synonyms = strings(&topic["synonyms"]);
    if !synonyms.is_empty() {
        out.push_str(&format!("- 같은 말: {}\n", synonyms.join(", ")));
    }
    out.push_str(&format!(
        "- 웹 페이지: {}\n\n## 사례\n\n",
        links.url(&format!("topics/{}/{}/", s("facet"), s("slug")))
    ));
    for id in strings(&topic["incidents"]) {
        let name = title(id).unwrap_or_default();
        out.push_str(&format!(
            "- [{id}]({}) {name}\n",
            links.url(&format!("incidents/{id}/"))
        ));
    }
    out
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array().into_iter().flatten().filter_map(Value::as_str).collect()
}

/// The links of the files the build writes: from `root` (the site's URL, or the
/// way up to the site's root from the file), with the corpus's labels.
struct SiteLinks<'a> {
    root: &'a str,
    corpus: &'a crate::corpus::Corpus,
}

impl Links for SiteLinks<'_> {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.root)
    }

    fn label(&self, facet: &str, slug: &str) -> String {
        self.corpus
            .taxonomy
            .get(facet, slug)
            .map_or_else(|| slug.to_string(), |v| v.ko.clone())
    }
}

/// Every incident's `incidents/<id>/index.md`, handed to `emit` as (path, bytes);
/// `related[d]` as in [`crate::api::files`]. Links are absolute under `site_url`,
/// else relative to the file.
pub fn files(
    corpus: &crate::corpus::Corpus,
    related: &[Vec<String>],
    site_url: Option<&str>,
    emit: &mut dyn FnMut((String, Vec<u8>)),
) {
    let links = SiteLinks {
        root: site_url.unwrap_or("../../"),
        corpus,
    };
    for (d, inc) in corpus.incidents.iter().enumerate() {
        let record = crate::api::full_record(inc, &related[d]);
        emit((
            format!("incidents/{}/index.md", inc.id),
            incident(&record, &links).into_bytes(),
        ));
    }
}

/// The site's public URL as given to `--site-url`: `http://` or `https://`, a host,
/// no query or fragment; a missing final `/` is added.
pub fn parse_site_url(s: &str) -> Result<String, String> {
    let s = s.trim();
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .ok_or_else(|| {
            format!("{s:?}: the site URL starts with https:// (or http://), e.g. https://incidents.example.org/")
        })?;
    let host = rest.split('/').next().unwrap_or("");
    if host.is_empty() || rest.contains(['?', '#', ' ', '"', '<', '>']) || rest.chars().any(char::is_control) {
        return Err(format!(
            "{s:?}: give the site's address with a host and an optional path, without query or fragment, e.g. https://incidents.example.org/library/"
        ));
    }
    Ok(if s.ends_with('/') {
        s.to_string()
    } else {
        format!("{s}/")
    })
}
