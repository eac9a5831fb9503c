//! The static site: one HTML page per incident, per taxonomy value, the search page
//! and a page on how to read a record. Every page is complete without JavaScript;
//! `app.js` adds the search (wasm) on the search page and offline support
//! everywhere.
//!
//! Untrusted text (records, taxonomy) only reaches the pages through maud, which
//! escapes it, or through Markdown rendering with raw HTML turned into text and
//! link targets limited to http(s), mailto and relative URLs.

use maud::{html, Markup, PreEscaped, DOCTYPE};
use pulldown_cmark::{Event, Options, Parser, Tag};

use crate::corpus::{Corpus, Incident, Value};
use crate::dom_ids::id;
pub use crate::related::{related_all, Related};
use incident_core::index::{FacetDef, FACETS};

/// A rendered page: its path inside the bundle and its HTML.
pub struct Page {
    /// Path relative to the bundle root, e.g. `incidents/IL-0001/index.html`.
    pub path: String,
    /// The HTML.
    pub html: String,
}

/// Renders every page of the site, handing each to `emit` as it is made, so that a
/// large site is never held whole in memory. `related[d]` are the incidents shown
/// as related to incident `d` ([`related`]), and whether they were computed.
/// `version` names the build's assets (`app.js?v=…`) so that a page never meets
/// assets of another build, whatever a cache holds.
pub fn pages(corpus: &Corpus, related: &[Related], version: &str, emit: &mut dyn FnMut(Page)) {
    let newest = newest_first(corpus, |_| true);
    emit(search_page(corpus, &newest, version));
    emit(about_page(version));
    emit(api_page(version));
    for page in list_pages(corpus, &newest, version) {
        emit(page);
    }
    for (d, incident) in corpus.incidents.iter().enumerate() {
        emit(incident_page(corpus, &related[d], incident, version));
    }
    for (f, &FacetDef { key, .. }) in FACETS.iter().enumerate() {
        for value in &corpus.taxonomy.facets[f] {
            emit(topic_page(corpus, f, key, value, version));
        }
    }
    for moved in &corpus.moved {
        emit(moved_page(corpus, moved, version));
    }
    for (f, &FacetDef { key, .. }) in FACETS.iter().enumerate() {
        for value in &corpus.taxonomy.facets[f] {
            for alias in &value.aliases {
                emit(alias_page(key, alias, value, version));
            }
        }
    }
    emit(Page {
        path: "404.html".into(),
        html: layout(
            "찾을 수 없음",
            "",
            version,
            None,
            html! { h1 { "페이지를 찾을 수 없다" } p { a href="./" { "검색으로 돌아가기" } } },
        ),
    });
}

/// The page chrome. `root` is the relative path to the bundle root ("", "../", …).
fn layout(title: &str, root: &str, version: &str, description: Option<&str>, body: Markup) -> String {
    layout_with(title, root, version, description, None, body)
}

/// [`layout`], with the page's Markdown version (`index.md` beside it) named in its
/// head for agents and tools that read text.
fn layout_with(
    title: &str,
    root: &str,
    version: &str,
    description: Option<&str>,
    markdown: Option<&str>,
    body: Markup,
) -> String {
    html! {
        (DOCTYPE)
        html lang="ko" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Incident Library" }
                @if let Some(d) = description { meta name="description" content=(d); }
                link rel="stylesheet" href={ (root) "app.css?v=" (version) };
                link rel="icon" href="data:,";
                @if let Some(md) = markdown { link rel="alternate" type="text/markdown" href=(md); }
            }
            body data-root=(root) data-version=(version) {
                a.skip href="#main" { "본문으로 건너뛰기" }
                header.site {
                    a.brand href={ (root) "./" } { "Incident Library" }
                    nav aria-label="사이트" {
                        a href={ (root) "./" } { "검색" }
                        a href={ (root) "about/" } { "읽는 법" }
                        a href={ (root) "api/" } { "API 와 MCP" }
                    }
                    span #(id!(offline)) role="status" hidden { "오프라인: 저장해 둔 사본으로 보여 줍니다" }
                    p #(id!(newBuild)) role="status" hidden {
                        "새 판이 배포되었습니다. "
                        button #(id!(reload)) type="button" { "새로 고침" }
                    }
                }
                main #main { (body) }
                footer.site {
                    p { "공개된 장애 보고서를 한국어로 정리했다. 각 사례는 출처를 밝힌다." }
                }
                script type="module" src={ (root) "app.js?v=" (version) } {}
            }
        }
    }
    .into_string()
}

fn label<'a>(corpus: &'a Corpus, key: &str, slug: &'a str) -> &'a str {
    corpus.taxonomy.get(key, slug).map_or(slug, |v| v.ko.as_str())
}

fn topic_href(root: &str, key: &str, slug: &str) -> String {
    format!("{root}topics/{key}/{slug}/")
}

fn incident_href(root: &str, id: &str) -> String {
    format!("{root}incidents/{id}/")
}

/// Renders Markdown with raw HTML shown as text and unsafe link targets removed.
pub fn markdown(md: &str) -> Markup {
    let safe = |url: &str| {
        let lower = url.trim().to_ascii_lowercase();
        lower.starts_with("https://")
            || lower.starts_with("http://")
            || lower.starts_with("mailto:")
            || !lower.contains(':')
    };
    let events = Parser::new_ext(md, Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES).map(|e| match e {
        Event::Html(t) | Event::InlineHtml(t) => Event::Text(t),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) if !safe(&dest_url) => Event::Start(Tag::Link {
            link_type,
            dest_url: "#".into(),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) if !safe(&dest_url) => Event::Start(Tag::Image {
            link_type,
            dest_url: "".into(),
            title,
            id,
        }),
        other => other,
    });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events);
    PreEscaped(out)
}

fn section<'a>(incident: &'a Incident, name: &str) -> &'a str {
    incident.section(name).map_or("", |s| s.markdown.as_str())
}

/// What the page shows for a section the sources say nothing about. It is the
/// template's, not the record's, so search never finds it.
pub const NOT_IN_SOURCES: &str = "출처에 기록 없음";

/// A section's body, or the standard line when the record leaves it out.
fn section_or_absent(incident: &Incident, name: &str) -> Markup {
    match incident.section(name) {
        Some(s) => markdown(&s.markdown),
        None => html! { p.absent { (NOT_IN_SOURCES) } },
    }
}

/// The date of a record as readers see it. The `datetime` is the start alone: a
/// span (`--10-04/--10-05`) is not a valid HTML date.
fn date_markup(inc: &Incident) -> Markup {
    let when = &inc.when;
    html! { time datetime=(when.start.to_string()) { (when.label()) } }
}

fn dash(v: &Option<String>) -> &str {
    v.as_deref().filter(|s| !s.is_empty()).unwrap_or("–")
}

fn facet_links(corpus: &Corpus, root: &str, key: &str, slugs: &[&str]) -> Markup {
    html! {
        ul.tags {
            @for slug in slugs {
                li { a.tag href=(topic_href(root, key, slug)) { (label(corpus, key, slug)) } }
            }
        }
    }
}

/// The page of one incident: its header, its sections, its classification, checks,
/// sources and related incidents.
fn incident_page(corpus: &Corpus, related: &Related, inc: &Incident, version: &str) -> Page {
    let root = "../../";
    let body = html! {
        article.incident {
            (incident_header(corpus, root, inc))
            (incident_body(corpus, root, inc))
            (incident_classes(corpus, root, inc))
            @if !inc.checks.is_empty() {
                section aria-labelledby="s-checks" {
                    h2 #s-checks { "내 시스템에서 확인할 것" }
                    p.note { "읽기만 하는 점검이다. 이 사례와 같은 빈틈이 있는지 본다." }
                    ul.checks { @for c in &inc.checks { li { (c) } } }
                }
            }
            section aria-labelledby="s-sources" {
                h2 #s-sources { "출처" }
                ul { @for url in &inc.sources { li { a href=(url) rel="noopener noreferrer" { (url) } } } }
            }
            (related_section(corpus, root, related))
            (machine_note(root, &inc.id))
        }
    };
    let description = crate::summary::summary(inc);
    Page {
        path: format!("incidents/{}/index.html", inc.id),
        html: layout_with(&inc.title, root, version, Some(&description), Some("index.md"), body),
    }
}

/// The head of an incident page: id, organisation, date and tags, the title, the
/// summary and the table of severity, impact and times.
fn incident_header(corpus: &Corpus, root: &str, inc: &Incident) -> Markup {
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
            @if let Some(note) = &inc.when.bound_note {
                div.wide { dt { "날짜" } dd { "연도를 밝힌 출처가 없다. 목록에서는 " (inc.date) " 에 놓는다: " (note) } }
            }
        }
    }
}

/// The sections of an incident page after its summary, in reading order
/// ([`incident_core::sections`]), each with its anchor; the symptoms and the cause
/// with the values of their facets under them.
fn incident_body(corpus: &Corpus, root: &str, inc: &Incident) -> Markup {
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
fn incident_classes(corpus: &Corpus, root: &str, inc: &Incident) -> Markup {
    html! {
        section aria-labelledby="s-class" {
            h2 #s-class { "분류" }
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
fn related_section(corpus: &Corpus, root: &str, related: &Related) -> Markup {
    html! {
        section aria-labelledby="s-related" {
            h2 #s-related { "관련 사례" }
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

fn incident_list(corpus: &Corpus, root: &str, ids: &[usize]) -> Markup {
    html! {
        ol.hits {
            @for &d in ids {
                @let inc = &corpus.incidents[d];
                li.hit {
                    h3 { a href=(incident_href(root, &inc.id)) { (inc.title) } }
                    p.kicker { (inc.id) " · " (label(corpus, "org", &inc.org)) " · " (date_markup(inc)) }
                    p.snippet { (crate::summary::summary(inc)) }
                }
            }
        }
    }
}

fn newest_first(corpus: &Corpus, filter: impl Fn(&Incident) -> bool) -> Vec<usize> {
    let mut ids: Vec<usize> = corpus
        .incidents
        .iter()
        .enumerate()
        .filter(|(_, i)| filter(i))
        .map(|(d, _)| d)
        .collect();
    ids.sort_by(|&a, &b| {
        corpus.incidents[b].date.cmp(&corpus.incidents[a].date).then(
            crate::corpus::id_number(&corpus.incidents[a].id).cmp(&crate::corpus::id_number(&corpus.incidents[b].id)),
        )
    });
    ids
}

/// A static redirect: the refresh comes right after the charset in `<head>`, so
/// the browser leaves before it loads the rest, and the canonical link tells crawlers which page is
/// the real one. The body links there too, for clients that ignore the refresh.
fn redirect(path: String, root: &str, target: &str, title: &str, version: &str, body: Markup) -> Page {
    let page = layout(title, root, version, None, body);
    let target = maud::html! { (target) }.into_string();
    let head = format!("<meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0; url={target}\"><link rel=\"canonical\" href=\"{target}\">");
    Page {
        path,
        html: page.replacen("<meta charset=\"utf-8\">", &head, 1),
    }
}

/// The page of an id that moved (`moved.toml`): a redirect to the record that
/// holds its incident now.
fn moved_page(corpus: &Corpus, moved: &crate::corpus::Moved, version: &str) -> Page {
    let root = "../../";
    let target = incident_href(root, &moved.to);
    let title = corpus
        .incidents
        .iter()
        .find(|i| i.id == moved.to)
        .map_or("", |i| i.title.as_str());
    let body = html! {
        article.moved {
            p.kicker { (moved.id) }
            h1 { "이 사례는 " (moved.to) " 로 옮겼다" }
            p { (moved.reason) }
            p { a href=(target) { (moved.to) ": " (title) } }
        }
    };
    let path = format!("incidents/{}/index.html", moved.id);
    redirect(
        path,
        root,
        &target,
        &format!("{} → {}", moved.id, moved.to),
        version,
        body,
    )
}

/// The topic page of an old slug (`aliases` in the taxonomy): a redirect to the
/// value it was merged into.
fn alias_page(key: &str, alias: &str, value: &Value, version: &str) -> Page {
    let root = "../../../";
    let target = topic_href(root, key, &value.slug);
    let body = html! {
        article.moved {
            h1 { "이 분류는 " (value.ko) " 에 합쳤다" }
            p { a href=(target) { (value.ko) } }
        }
    };
    let path = format!("topics/{key}/{alias}/index.html");
    redirect(path, root, &target, &value.ko, version, body)
}

fn topic_page(corpus: &Corpus, f: usize, key: &str, value: &Value, version: &str) -> Page {
    let root = "../../../";
    let ids = newest_first(corpus, |i| i.facet(key).contains(&value.slug.as_str()));
    let facet_ko = FACETS[f].ko;
    let body = html! {
        article.topic {
            p.kicker { (facet_ko) }
            h1 { (value.ko) @if value.en != value.ko { " " span.en lang="en" { (value.en) } } }
            div.description { (markdown(&value.description)) }
            @if !value.synonyms.is_empty() {
                p.synonyms { "이렇게도 찾는다: " @for (i, s) in value.synonyms.iter().enumerate() { @if i > 0 { ", " } span { (s) } } }
            }
            p { a.button href={ (root) "./?" (key) "=" (value.slug) } { "이 분류로 검색하기" } }
            h2 { "사례 " (ids.len()) "건" }
            (incident_list(corpus, root, &ids))
        }
    };
    Page {
        path: format!("topics/{key}/{}/index.html", value.slug),
        html: layout(&value.ko, root, version, Some(&value.description), body),
    }
}

/// Incidents on each static page of the listing: the search page holds the first
/// page, `page/2/` … the rest, so that the search page's HTML stays the same size
/// whatever the size of the library.
pub const LIST_PAGE: usize = 20;

/// The links between the static pages of the listing: previous, "n / m쪽", next.
/// `root` leads to the bundle root from the page `page` (1-based) of `pages`.
fn list_pager(root: &str, page: usize, pages: usize) -> Markup {
    let href = |p: usize| {
        if p == 1 {
            format!("{root}./")
        } else {
            format!("{root}page/{p}/")
        }
    };
    html! {
        @if pages > 1 {
            @if page > 1 { a rel="prev" href=(href(page - 1)) { "이전" } " " }
            span { (page) " / " (pages) "쪽" }
            @if page < pages { " " a rel="next" href=(href(page + 1)) { "다음" } }
        }
    }
}

/// `page/2/` … : the rest of the listing, newest first, readable without JavaScript.
/// `ids` are every incident, newest first.
fn list_pages(corpus: &Corpus, ids: &[usize], version: &str) -> Vec<Page> {
    let pages = ids.len().div_ceil(LIST_PAGE).max(1);
    let root = "../../";
    (2..=pages)
        .map(|page| {
            let slice = &ids[(page - 1) * LIST_PAGE..(page * LIST_PAGE).min(ids.len())];
            let body = html! {
                article.topic {
                    h1 { "사례 목록 " (page) "쪽" }
                    p { "사례 " (ids.len()) "건, 최근 사례부터. " a href={ (root) "./" } { "검색으로 돌아가기" } }
                    (incident_list(corpus, root, slice))
                    nav.pager aria-label="쪽" { (list_pager(root, page, pages)) }
                }
            };
            Page {
                path: format!("page/{page}/index.html"),
                html: layout(&format!("사례 목록 {page}쪽"), root, version, None, body),
            }
        })
        .collect()
}

/// The search page; `ids` are every incident, newest first.
fn search_page(corpus: &Corpus, ids: &[usize], version: &str) -> Page {
    let root = "";
    let pages = ids.len().div_ceil(LIST_PAGE).max(1);
    let first = &ids[..ids.len().min(LIST_PAGE)];
    let body = html! {
        section #(id!(search)) .search aria-label="사례 검색" {
            form #(id!(searchForm)) role="search" action="./" method="get" {
                label for=(id!(q)) { "사례 검색" }
                div.searchbox {
                    input #(id!(q)) name="q" type="search" autocomplete="off" spellcheck="false" list=(id!(qComplete)) placeholder="예: 재시도 증폭, 캐시를 비우는 배포, us-east-1";
                    datalist #(id!(qComplete)) {}
                    button type="submit" { "검색" }
                }
                p #(id!(understood)) .understood aria-live="polite" {}
            }
            div.layout {
                aside.facets aria-label="분류 필터" {
                    details #(id!(facetPanel)) open {
                        summary #(id!(facetSummary)) { "분류로 거르기" }
                        div #(id!(facets)) {
                            @for (f, &FacetDef { key, ko, .. }) in FACETS.iter().enumerate() {
                                details.facet open {
                                    summary { (ko) }
                                    ul {
                                        @for value in &corpus.taxonomy.facets[f] {
                                            @let n = corpus.incidents.iter().filter(|i| i.facet(key).contains(&value.slug.as_str())).count();
                                            li { a href=(topic_href(root, key, &value.slug)) { (value.ko) } " " span.count { (n) } }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                div #results-pane .results {
                    div #(id!(applied)) .applied {}
                    p #(id!(notice)) .notice {}
                    div #(id!(suggested)) .suggested {}
                    div.views {
                        span.views-label { "그래프" }
                        div #(id!(tabs)) role="tablist" aria-label="보기" {}
                    }
                    p #(id!(count)) .count { "사례 " (ids.len()) "건" }
                    p #(id!(range)) .range {}
                    p #(id!(top)) .top {}
                    div #(id!(graph)) .graph hidden {}
                    div #(id!(list)) { (incident_list(corpus, root, first)) }
                    nav #(id!(pager)) .pager aria-label="쪽" { (list_pager(root, 1, pages)) }
                }
            }
        }
    };
    Page {
        path: "index.html".into(),
        html: layout(
            "사례 검색",
            root,
            version,
            Some("공개된 장애 보고서를 한국어로 찾아 읽는다."),
            body,
        ),
    }
}

fn about_page(version: &str) -> Page {
    let root = "../";
    let body = html! {
        article.about {
            h1 { "사례를 읽는 법" }
            p { "사례마다 한 문장 제목, 요약, 그리고 장애를 이해하는 데 필요한 정보를 같은 순서로 담았다. 모든 사례는 공개된 원래 보고서를 출처로 밝힌다." }
            h2 { "머리" }
            p { "사례 번호, 조직, 영향이 시작된 날짜(UTC)와 태그가 맨 위에 있다. 그 아래 표는 심각도, 영향 범위, 영향 사용자, 지역, 감지까지 걸린 시간, 복구까지 걸린 시간이다. 출처가 밝히지 않은 값은 – 로 둔다." }
            h2 { "본문" }
            p { "요약은 제목 바로 아래에 있고, 나머지 절이 이 순서로 이어진다. 출처가 말하지 않는 절은 \"" (NOT_IN_SOURCES) "\"으로 둔다." }
            dl {
                @for s in &incident_core::sections::SECTIONS {
                    dt { (s.name) } dd { (s.ko) }
                }
                dt { "내 시스템에서 확인할 것" } dd { "같은 빈틈이 있는지 읽기만 해서 확인할 수 있는 점검 항목." }
            }
            h2 { "분류" }
            p { "원인, 구성 요소, 증상, 기여 요인, 조직의 다섯 가지로 나눈다. 분류 값을 누르면 그 값의 설명과 사례 목록이 나온다. 검색 화면에서는 같은 분류 안의 값은 '또는', 다른 분류끼리는 '그리고'로 묶는다." }
            h2 { "검색" }
            p { "조사와 어미는 떼고 찾는다. '재시도를'과 '재시도'는 같은 사례를 찾는다. 검색어에 분류 이름이 들어 있으면 추천 필터로 보여 준다. 한 번 연 뒤에는 인터넷 없이도 검색할 수 있다." }
        }
    };
    Page {
        path: "about/index.html".into(),
        html: layout("사례를 읽는 법", root, version, None, body),
    }
}

/// The note at the end of every incident page: this record as JSON, and where the
/// API and the MCP server are described.
fn machine_note(root: &str, id: &str) -> Markup {
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

/// One configuration example: the client, where it goes, and the block.
fn config_example(client: &str, place: &str, block: &str) -> Markup {
    html! {
        h3 { (client) }
        p { (place) }
        pre { code { (block) } }
    }
}

/// "API 와 MCP": the static API's files with `curl` examples, the JSON of an
/// incident, and how to register the MCP server in common clients.
fn api_page(version: &str) -> Page {
    let root = "../";
    let command = "/path/to/incident-library";
    let bundle = "/path/to/dist";
    let endpoints: [(&str, &str); 7] = [
        ("api/v1/index.json", "라이브러리에 무엇이 있고 다른 파일이 어디 있는지"),
        (
            "api/v1/incidents.json",
            "사례 목록, 최신순. 다음 쪽은 incidents-2.json, incidents-3.json …",
        ),
        (
            "api/v1/incidents/{id}.json",
            "사례 하나 전체 (예: IL-0001.json). 합쳐진 번호는 옮겨 간 곳을 알려 준다",
        ),
        ("api/v1/topics.json", "분류 값 전체와 값마다 사례 수"),
        (
            "api/v1/topics/{facet}/{slug}.json",
            "분류 값 하나의 설명, 동의어, 사례, 관련 분류",
        ),
        ("api/v1/vocab.json", "분류마다 값, 한국어와 영어 라벨, 동의어"),
        (
            "api/v1/openapi.json",
            "이 API 의 OpenAPI 3.1 문서. 스키마는 api/v1/schemas/ 에 있다",
        ),
    ];
    let claude_code = format!("claude mcp add incident-library -- {command} mcp --bundle {bundle}");
    let codex = format!(
        "[mcp_servers.incident-library]\ncommand = \"{command}\"\nargs = [\"mcp\", \"--bundle\", \"{bundle}\"]"
    );
    let desktop = format!(
        "{{\n  \"mcpServers\": {{\n    \"incident-library\": {{\n      \"command\": \"{command}\",\n      \"args\": [\"mcp\", \"--bundle\", \"{bundle}\"]\n    }}\n  }}\n}}"
    );
    let vscode = format!(
        "{{\n  \"servers\": {{\n    \"incident-library\": {{\n      \"type\": \"stdio\",\n      \"command\": \"{command}\",\n      \"args\": [\"mcp\", \"--bundle\", \"{bundle}\"]\n    }}\n  }}\n}}"
    );
    let body = html! {
        article.about {
            h1 { "API 와 MCP" }
            p { "이 라이브러리는 서버 없이 정적 파일로 API 를 낸다. 키도 가입도 필요 없다. 모든 파일은 JSON 이고, 어느 출처에서든 읽을 수 있다(CORS 허용). 응답은 " code { "schema_version" } ", " code { "generated_at" } ", " code { "data" } " 로 싸여 있다." }
            h2 { "파일" }
            p { "주소는 이 사이트의 루트를 기준으로 한다. 아래 예에서 " code { "BASE" } " 는 이 사이트의 주소다." }
            table.endpoints {
                thead { tr { th { "경로" } th { "내용" } } }
                tbody {
                    @for (path, what) in endpoints {
                        tr { td { code { (path) } } td { (what) } }
                    }
                }
            }
            h2 { "curl 로 읽기" }
            pre { code { "BASE=https://이-사이트의-주소\n\n# 사례 하나\ncurl -s \"$BASE/api/v1/incidents/IL-0001.json\"\n\n# 최신 사례 목록의 첫 쪽\ncurl -s \"$BASE/api/v1/incidents.json\"\n\n# 분류 값 하나와 그 사례 (구성 요소: CDN 엣지)\ncurl -s \"$BASE/api/v1/topics/component/cdn-edge.json\"" } }
            h2 { "읽고 있는 사례의 JSON" }
            p { "사례 페이지 " code { "incidents/IL-0001/" } " 의 JSON 은 " code { "api/v1/incidents/IL-0001.json" } " 이다. 사례 페이지 맨 아래에 그 사례의 JSON 링크가 있다. 섹션은 Markdown 과 일반 텍스트로 둘 다 들어 있고, 출처 URL, 분류, 점검 항목, 관련 사례 번호가 함께 온다." }
            h2 { "MCP 서버" }
            p { "같은 검색을 AI 에이전트가 MCP 로 쓸 수 있다. " code { "incident-library mcp --bundle <빌드한 폴더>" } " 가 stdio 로 도는 읽기 전용 서버다. 도구는 다섯 가지다." }
            dl {
                @for tool in crate::mcp_tools::McpTool::ALL {
                    dt { code { (tool.name()) } } dd { (tool.ko()) }
                }
            }
            p {
                "모든 사례(" code { "incident://IL-0001" } "), 주제(" code { "topic://cause/config-change" } ")와 분류 체계("
                code { "taxonomy://vocab" } ")는 마크다운 리소스로도 읽는다. 프롬프트는 세 가지다: "
                code { "check_my_system" } " (이 사례로 내 시스템 점검하기), " code { "find_similar" } " (비슷한 사례 찾기), "
                code { "review_postmortem" } " (포스트모템 검토). 사례 id 와 분류 값은 자동 완성된다. "
                code { "--site-url https://…/" } " 를 주면 결과의 모든 링크가 절대 주소가 된다."
            }
            p {
                "웹을 읽는 에이전트를 위해 " a href={ (root) "llms.txt" } { "llms.txt" } " 가 있고, 사례마다 페이지 옆에 마크다운 판("
                code { "incidents/IL-0001/index.md" } ")이 있다."
            }
            p { "아래 " code { (command) } " 는 incident-library 실행 파일의 경로로, " code { (bundle) } " 는 " code { "incident-library build" } " 가 만든 폴더로 바꾼다." }
            (config_example("Claude Code", "터미널에서 한 번 실행한다.", &claude_code))
            (config_example("Codex", "~/.codex/config.toml 에 더한다.", &codex))
            (config_example("Claude Desktop", "claude_desktop_config.json 에 더한다.", &desktop))
            (config_example("VS Code", "작업 폴더의 .vscode/mcp.json 에 둔다.", &vscode))
        }
    };
    Page {
        path: "api/index.html".into(),
        html: layout(
            "API 와 MCP",
            root,
            version,
            Some("Incident Library 의 정적 API 와 MCP 서버를 쓰는 법"),
            body,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_page_has_every_id_that_app_js_looks_up() {
        let corpus = Corpus {
            taxonomy: crate::corpus::Taxonomy {
                facets: vec![Vec::new(); FACETS.len()],
            },
            incidents: Vec::new(),
            lexicon: Vec::new(),
            moved: Vec::new(),
        };
        let html = search_page(&corpus, &[], "v").html;
        for (name, id) in crate::dom_ids::all() {
            assert_eq!(
                html.matches(&format!(" id=\"{id}\"")).count(),
                1,
                "{name}: id {id:?} once in the search page"
            );
        }
    }

    #[test]
    fn markdown_never_passes_html_or_script_links() {
        let out = markdown("<script>alert(1)</script>\n\n본문 <b onclick=x>굵게</b> [x](javascript:alert(1)) [y](https://example.com) ![i](data:image/png;base64,AA)").into_string();
        assert!(!out.contains("<script"), "{out}");
        assert!(out.contains("&lt;script&gt;"), "{out}");
        assert!(!out.contains("<b"), "{out}");
        assert!(!out.contains("href=\"javascript:"), "{out}");
        assert!(!out.contains("data:image"), "{out}");
        assert!(out.contains("href=\"https://example.com\""), "{out}");
    }
}
