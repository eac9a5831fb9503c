//! The search page (the newest incidents, and the search on top) and the list's
//! further pages.

use maud::{html, Markup, PreEscaped};

use super::*;

/// Incidents on each static page of the listing: the search page holds the first
/// page, `page/2/` … the rest, so that the search page's HTML stays the same size
/// whatever the size of the library.
pub const LIST_PAGE: usize = 20;

/// Run right after the applied-filter row, before the first paint: when the
/// page's address names a filter (a parameter named by one of the row's
/// `data-facets`), the row gets an invisible button of the height of the chips
/// that app.js draws there, so that nothing below it moves when they come. When it
/// holds a query, the results pane gets `data-query`, and the newest incidents the
/// page comes with are not laid out (app.css): the query's hits replace them, and
/// on a phone laying out text costs most the first time its letters are drawn. It
/// reads only the address's parameters and writes constants; it holds no `</script`.
pub(super) const RESERVE_RESULTS_JS: &str = "{const a=document.currentScript.previousElementSibling,p=new URLSearchParams(location.search);\
if(a.dataset.facets.split(\" \").some(k=>p.get(k)))a.innerHTML='<button class=\"clear\" tabindex=\"-1\" style=\"visibility:hidden\">&nbsp;</button>';\
if(p.get(\"q\")?.trim())a.parentNode.dataset.query=\"\"}";

/// The links between the static pages of the listing: previous, "n / m쪽", next.
/// `root` leads to the bundle root from the page `page` (1-based) of `pages`.
pub(super) fn list_pager(root: &str, page: usize, pages: usize) -> Markup {
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
pub(super) fn list_pages(corpus: &Corpus, ids: &[usize], site: &Site) -> Vec<Page> {
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
                html: layout(
                    &format!("사례 목록 {page}쪽"),
                    root,
                    site,
                    Some(&format!("page/{page}/")),
                    None,
                    body,
                ),
            }
        })
        .collect()
}

/// The search page; `ids` are every incident, newest first.
pub(super) fn search_page(corpus: &Corpus, ids: &[usize], site: &Site) -> Page {
    let root = "";
    let pages = ids.len().div_ceil(LIST_PAGE).max(1);
    let first = &ids[..ids.len().min(LIST_PAGE)];
    let facet_keys = FACETS.iter().map(|f| f.key).collect::<Vec<_>>().join(" ");
    let body = html! {
        section #(id!(search)) .search aria-label="사례 검색" {
            form #(id!(searchForm)) role="search" action="./" method="get" {
                // The page's heading is the search box's label: one line, not two.
                h1.search-title { label for=(id!(q)) { "사례 검색" } }
                div.searchbox {
                    input #(id!(q)) name="q" type="search" autocomplete="off" spellcheck="false" list=(id!(qComplete)) placeholder="예: 재시도 증폭, 캐시를 비우는 배포, us-east-1";
                    datalist #(id!(qComplete)) {}
                    button type="submit" { "검색" }
                }
                p #(id!(understood)) .understood aria-live="polite" {}
            }
            div.layout {
                aside.facets aria-label="분류 필터" {
                    details #(id!(facetPanel)) {
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
                    div #(id!(applied)) .applied data-facets=(facet_keys) {}
                    script { (PreEscaped(RESERVE_RESULTS_JS)) }
                    p #(id!(notice)) .notice { "가장 최근 사례가 먼저 나옵니다." }
                    div #(id!(suggested)) .suggested {
                        span.suggested-label { "추천 필터" }
                        span.muted { " 검색어에 분류 이름이 들어 있으면 여기서 바로 고를 수 있습니다." }
                    }
                    div.views {
                        span.views-label { "그래프" }
                        div #(id!(tabs)) role="tablist" aria-label="보기" {}
                    }
                    h2 #(id!(count)) .count { "사례 " (ids.len()) "건" }
                    p #(id!(range)) .range {}
                    p #(id!(top)) .top {}
                    div #(id!(graph)) .graph hidden {}
                    div #(id!(list)) { div.newest { (incident_list(corpus, root, first)) } }
                    nav #(id!(pager)) .pager aria-label="쪽" { div.newest { (list_pager(root, 1, pages)) } }
                }
            }
        }
    };
    Page {
        path: "index.html".into(),
        html: layout_with(
            "사례 검색",
            root,
            site,
            Head {
                description: Some("공개된 장애 보고서를 한국어로 찾아 읽는다."),
                search: true,
                path: Some(""),
                feed: Some(("feed.xml", "새 사례")),
                ..Head::default()
            },
            body,
        ),
    }
}
