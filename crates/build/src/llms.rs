//! `llms.txt` (the llmstxt.org convention): what the library is, how to search it,
//! its API and MCP server, and links to every topic and to every incident's
//! Markdown, for agents that read the web.

use incident_core::index::FACETS;

use crate::corpus::Corpus;

/// `llms.txt` as (path, bytes). Links are absolute under `site_url`, else relative
/// to the site's root (where the file is).
pub fn file(corpus: &Corpus, site_url: Option<&str>) -> (String, Vec<u8>) {
    let root = site_url.unwrap_or("");
    let mut out = String::from("# Incident Library\n\n");
    out.push_str(&format!(
        "> 공개된 장애 보고서(포스트모템) {}건을 한국어로 정리하고 원인, 구성 요소, 증상, 기여 요인, 조직으로 분류한 도서관. 서버 없이 정적 파일로 배포되며 키 없이 읽는다.\n\n",
        corpus.incidents.len()
    ));
    out.push_str(&format!(
        "Each record is a public incident report retold in Korean, with its sources, lessons and read-only checks for your own system. Search in the browser with `{root}?q=<words>` (Korean or English; particles, spacing and typos are tolerated), read a record as Markdown at `{root}incidents/<id>/index.md`, or use the static JSON API and the MCP server below.\n\n"
    ));
    out.push_str("## API and MCP\n\n");
    out.push_str(&format!("- [API 와 MCP]({root}api/): the static JSON API (no key), its OpenAPI document and the MCP server's tools, resources and prompts\n"));
    out.push_str(&format!(
        "- [index.json]({root}api/v1/index.json): what the library holds and where its files are\n"
    ));
    out.push_str(&format!(
        "- [openapi.json]({root}api/v1/openapi.json): OpenAPI 3.1 for every API file\n"
    ));
    out.push_str(&format!(
        "- [사례를 읽는 법]({root}about/): how a record is written and classified\n\n"
    ));
    for (f, facet) in FACETS.iter().enumerate() {
        out.push_str(&format!("## Topics: {} ({})\n\n", facet.ko, facet.en));
        for value in &corpus.taxonomy.facets[f] {
            out.push_str(&format!(
                "- [{}]({root}topics/{}/{}/): {}\n",
                value.ko, facet.key, value.slug, value.en
            ));
        }
        out.push('\n');
    }
    out.push_str("## Incidents\n\n");
    for inc in &corpus.incidents {
        out.push_str(&format!(
            "- [{}]({root}incidents/{}/index.md): {}\n",
            inc.id, inc.id, inc.title
        ));
    }
    ("llms.txt".into(), out.into_bytes())
}
