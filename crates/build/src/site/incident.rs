//! An incident's page: its header, its sections in reading order, its classification,
//! checks, sources and related incidents.

use maud::{html, Markup};

use super::*;

/// The parts of an incident page after its body's sections, as (anchor, heading):
/// their headings and the page's table of contents read them here.
const CLASSES: (&str, &str) = ("s-class", "분류");
const CHECKS: (&str, &str) = ("s-checks", "내 시스템에서 확인할 것");
const SOURCES: (&str, &str) = ("s-sources", "출처");
const RELATED: (&str, &str) = ("s-related", "관련 사례");

/// The page of one incident: its header, its sections, its classification, checks,
/// sources and related incidents.
pub(super) fn incident_page(corpus: &Corpus, related: &Related, inc: &Incident, site: &Site) -> Page {
    let root = "../../";
    let body = html! {
        // Back to the search; app.js makes it "back to the results" when the page
        // was opened from a search.
        p.back { a #(id!(back)) href=(root) data-results="검색 결과로" { span aria-hidden="true" { "← " } span { "사례 검색" } } }
        article.incident {
            (incident_header(corpus, root, inc))
            (contents(inc))
            (incident_body(corpus, root, inc))
            (incident_classes(corpus, root, inc))
            @if !inc.checks.is_empty() {
                section aria-labelledby=(CHECKS.0) {
                    h2 id=(CHECKS.0) { (CHECKS.1) }
                    p.note { "읽기만 하는 점검이다. 이 사례와 같은 빈틈이 있는지 본다." }
                    ul.checks { @for c in &inc.checks { li { (c) } } }
                }
            }
            section aria-labelledby=(SOURCES.0) {
                h2 id=(SOURCES.0) { (SOURCES.1) }
                ul { @for url in &inc.sources { li { a href=(url) rel="noopener noreferrer" { (url) } } } }
            }
            (related_section(corpus, root, related))
            (machine_note(root, &inc.id))
        }
    };
    let description = crate::summary::summary(inc);
    let path = format!("incidents/{}/", inc.id);
    let image = crate::preview::path(&inc.id);
    Page {
        path: format!("incidents/{}/index.html", inc.id),
        html: layout_with(
            &inc.title,
            root,
            site,
            Head {
                description: Some(&description),
                markdown: Some("index.md"),
                path: Some(&path),
                structured: site.url.map(|url| structured(corpus, inc, url, &description)),
                image: Some(&image),
                ..Head::default()
            },
            body,
        ),
    }
}

/// An incident page's structured data (schema.org JSON-LD): the article, written
/// from its sources, and where it sits (search, organisation, incident). `url` is
/// the site's public URL.
fn structured(corpus: &Corpus, inc: &Incident, url: &str, description: &str) -> serde_json::Value {
    let page = format!("{url}incidents/{}/", inc.id);
    let mut data = serde_json::json!({
        "@context": "https://schema.org",
        "@graph": [
            {
                "@type": "Article",
                "headline": inc.title,
                "description": description,
                "inLanguage": "ko",
                "url": page,
                "isBasedOn": inc.sources,
                "datePublished": inc.published.map(|d| d.to_string()),
                "dateModified": inc.updated.map(|d| d.to_string()),
                "keywords": inc.tags,
            },
            {
                "@type": "BreadcrumbList",
                "itemListElement": [
                    {"@type": "ListItem", "position": 1, "name": "사례 검색", "item": url},
                    {"@type": "ListItem", "position": 2, "name": label(corpus, "org", &inc.org), "item": format!("{url}topics/org/{}/", inc.org)},
                    {"@type": "ListItem", "position": 3, "name": inc.id, "item": page},
                ]
            }
        ]
    });
    // A date the record does not give is left out, not written as null.
    if let Some(article) = data["@graph"][0].as_object_mut() {
        article.retain(|_, v| !v.is_null());
    }
    data
}

/// The head of an incident page: id, organisation, date and tags, the title, the
/// summary and the table of severity, impact and times.
pub(super) fn incident_header(corpus: &Corpus, root: &str, inc: &Incident) -> Markup {
    let org = label(corpus, "org", &inc.org);
    html! {
        p.kicker {
            span.id { (inc.id) } " · "
            a href=(topic_href(root, "org", &inc.org)) { (org) } " · "
            (date_markup(inc))
            @for tag in &inc.tags { " " span.badge { (tag) } }
        }
        h1 { (inc.title) }
        @let summary = &incident_core::sections::SECTIONS[0];
        div.summary id=(summary.anchor) { (markdown(section(inc, summary.name))) }
        dl.meta {
            div { dt { "심각도" } dd { (dash(&inc.severity)) } }
            div.wide { dt { "영향 범위" } dd { (dash(&inc.impact)) } }
            div { dt { "영향 사용자" } dd { (dash(&inc.affected_users)) } }
            div { dt { "지역" } dd { @if inc.regions.is_empty() { "–" } @else { (inc.regions.join(", ")) } } }
            div { dt { "감지까지" } dd { (dash(&inc.time_to_detect)) } }
            div { dt { "복구까지" } dd { (dash(&inc.time_to_recover)) } }
            @if let Some(published) = inc.published {
                div.published { dt { "처음 실음" } dd { time datetime=(published) { (published) } } }
            }
            @if let Some(updated) = inc.updated {
                div.wide.updated {
                    dt { "최종 수정" }
                    dd {
                        time datetime=(updated) { (updated) }
                        @if !inc.history.is_empty() { ul.history { @for h in &inc.history { li { (h) } } } }
                    }
                }
            }
            @if let Some(note) = &inc.when.bound_note {
                div.wide { dt { "날짜" } dd { "연도를 밝힌 출처가 없다. 목록에서는 " (inc.date) " 에 놓는다: " (note) } }
            }
        }
    }
}

/// The page's table of contents: the sections the record has after its summary, in
/// reading order, then classification, checks (when there are any), sources and
/// related incidents. A long record is several screens on a phone.
fn contents(inc: &Incident) -> Markup {
    let body = incident_core::sections::SECTIONS
        .iter()
        .skip(1)
        .filter(|s| inc.section(s.name).is_some())
        .map(|s| (s.anchor, s.name));
    let checks = (!inc.checks.is_empty()).then_some(CHECKS);
    let rest = [Some(CLASSES), checks, Some(SOURCES), Some(RELATED)]
        .into_iter()
        .flatten();
    html! {
        nav.contents aria-label="이 사례의 차례" {
            ol { @for (anchor, name) in body.chain(rest) { li { a href={ "#" (anchor) } { (name) } } } }
        }
    }
}

/// The sections of an incident page after its summary, in reading order
/// ([`incident_core::sections`]), each with its anchor; the symptoms and the cause
/// with the values of their facets under them.
pub(super) fn incident_body(corpus: &Corpus, root: &str, inc: &Incident) -> Markup {
    html! {
        @for s in incident_core::sections::SECTIONS.iter().skip(1) {
            section aria-labelledby=(s.anchor) {
                h2 id=(s.anchor) { (s.name) }
                (section_or_absent(inc, s.name))
                @if let Some(facet) = s.facet {
                    (facet_links(corpus, root, facet, &inc.facet(facet)))
                }
            }
        }
    }
}

/// The classification of an incident: its values of every facet it has.
pub(super) fn incident_classes(corpus: &Corpus, root: &str, inc: &Incident) -> Markup {
    html! {
        section aria-labelledby=(CLASSES.0) {
            h2 id=(CLASSES.0) { (CLASSES.1) }
            dl.classes {
                @for FacetDef { key, ko, .. } in FACETS {
                    @let slugs = inc.facet(key);
                    @if !slugs.is_empty() {
                        div { dt { (ko) } dd { (facet_links(corpus, root, key, &slugs)) } }
                    }
                }
            }
        }
    }
}

/// The related incidents of an incident page, with a note when they were computed.
pub(super) fn related_section(corpus: &Corpus, root: &str, related: &Related) -> Markup {
    html! {
        section aria-labelledby=(RELATED.0) {
            h2 id=(RELATED.0) { (RELATED.1) }
            @if related.incidents.is_empty() {
                p { "–" }
            } @else {
                @if related.computed { p.note { "같은 분류와 낱말을 가장 많이 나누는 사례다." } }
                ul.related {
                    @for &e in &related.incidents {
                        @let other = &corpus.incidents[e];
                        li { a href=(incident_href(root, &other.id)) { (other.title) } " " span.muted { (other.id) " · " (other.when.label()) } }
                    }
                }
            }
        }
    }
}

/// The note at the end of every incident page: this record as JSON, and where the
/// API and the MCP server are described.
pub(super) fn machine_note(root: &str, id: &str) -> Markup {
    let json = format!("api/v1/incidents/{id}.json");
    html! {
        aside.machine aria-label="AI 도구와 스크립트를 위한 안내" {
            p {
                "AI 도구와 스크립트: 이 사례의 JSON 은 "
                a href={ (root) (json) } { code { (json) } }
                " 에 있다. API 는 키가 필요 없는 정적 파일이다. MCP 서버는 "
                @for (i, tool) in crate::mcp_tools::McpTool::ALL.iter().enumerate() {
                    @if i > 0 { ", " }
                    code { (tool.name()) }
                }
                " 다섯 도구를 낸다. "
                a href={ (root) "api/" } { "API 와 MCP" }
                " 에 쓰는 법이 있다."
            }
        }
    }
}
