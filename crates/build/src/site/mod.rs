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

/// The theme script (`www/theme.js`), written into every page's head without its
/// comment lines. It holds no `</script`, so it cannot close its element early.
const THEME_JS: &str = include_str!("../../../../www/theme.js");

/// The not-found page's script (`www/not-found.js`): the search it offers, from the
/// missing address. It holds no `</script`.
const NOT_FOUND_JS: &str = include_str!("../../../../www/not-found.js");

/// [`THEME_JS`] as the pages carry it: the comment lines left out.
fn theme_script() -> &'static str {
    static SCRIPT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        THEME_JS
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    &SCRIPT
}

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
/// assets of another build, whatever a cache holds. `site_url` is the site's public
/// URL (`--site-url`), whose path the not-found page links from.
pub fn pages(corpus: &Corpus, related: &[Related], version: &str, site_url: Option<&str>, emit: &mut dyn FnMut(Page)) {
    let site = &Site { version, url: site_url };
    let newest = newest_first(corpus, |_| true);
    emit(search_page(corpus, &newest, site));
    emit(about_page(site));
    emit(api_page(site));
    for page in list_pages(corpus, &newest, site) {
        emit(page);
    }
    for (d, incident) in corpus.incidents.iter().enumerate() {
        emit(incident_page(corpus, &related[d], incident, site));
    }
    for (f, &FacetDef { key, .. }) in FACETS.iter().enumerate() {
        for value in &corpus.taxonomy.facets[f] {
            emit(topic_page(corpus, f, key, value, site));
        }
    }
    for moved in &corpus.moved {
        emit(moved_page(corpus, moved, site));
    }
    for (f, &FacetDef { key, .. }) in FACETS.iter().enumerate() {
        for value in &corpus.taxonomy.facets[f] {
            for alias in &value.aliases {
                emit(alias_page(key, alias, value, site));
            }
        }
    }
    emit(not_found_page(site));
}

/// `404.html`, which a host sends for a missing path at any depth: its links are
/// absolute from the site's path (that of `--site-url`, else `/`), so that its style,
/// script and links work wherever it is shown.
fn not_found_page(site: &Site) -> Page {
    let root = site.url.map_or("/".to_string(), site_path);
    let body = html! {
        h1 { "페이지를 찾을 수 없다" }
        p { "주소가 바뀌었거나 없는 사례일 수 있다. 사례 번호나 낱말로 찾아보라." }
        // The line of the link to a record the address names keeps its height
        // whether the link shows or not.
        p.lost-record role="status" { a #lost-record hidden {} }
        form.lost role="search" action=(root) method="get" {
            label for="lost-q" { "주소에 있던 낱말로 찾기" }
            div.searchbox {
                input #lost-q name="q" type="search" autocomplete="off" spellcheck="false";
                button type="submit" { "검색" }
            }
        }
        p { a href=(root) { "검색으로 돌아가기" } }
        script { (PreEscaped(NOT_FOUND_JS)) }
    };
    Page {
        path: "404.html".into(),
        html: layout("찾을 수 없음", &root, site, None, None, body),
    }
}

/// The path of a site URL as `parse_site_url` gives it (`https://host/lib/` →
/// `/lib/`).
fn site_path(url: &str) -> String {
    url::Url::parse(url).map_or_else(|_| "/".to_string(), |u| u.path().to_string())
}

/// What every page of one build shares.
pub(super) struct Site<'a> {
    /// Names the build's assets (`app.js?v=…`).
    pub version: &'a str,
    /// The site's public URL (`--site-url`), ending in `/`: with it, pages name
    /// their canonical URL and carry link previews; without it, they do not, rather
    /// than name a wrong one.
    pub url: Option<&'a str>,
}

/// The page chrome. `root` is the relative path to the bundle root ("", "../", …);
/// `path` the page's own path under it (`about/`), for its canonical URL.
pub(super) fn layout(
    title: &str,
    root: &str,
    site: &Site,
    path: Option<&str>,
    description: Option<&str>,
    body: Markup,
) -> String {
    let head = Head {
        path,
        description,
        ..Head::default()
    };
    layout_with(title, root, site, head, body)
}

/// What a page's head holds beyond what every page's has.
#[derive(Default)]
pub(super) struct Head<'a> {
    /// The page's summary for search engines.
    pub description: Option<&'a str>,
    /// The page's Markdown version (`index.md` beside it), for agents and tools that
    /// read text.
    pub markdown: Option<&'a str>,
    /// The search page: the search's modules, wasm and index entry are asked for
    /// with the page, not one after another as each script finds the next (on a
    /// phone each round trip costs more than their bytes).
    pub search: bool,
    /// The page's path under the site root (`incidents/IL-0004/`), when it has a
    /// canonical URL (not a redirect or the not-found page).
    pub path: Option<&'a str>,
    /// Structured data about the page (JSON-LD), for search engines.
    pub structured: Option<serde_json::Value>,
    /// The page's Atom feed, relative to it (`feed.xml`), and what it follows; only
    /// with the site's URL, since a feed's links are absolute ([`crate::feed`]).
    pub feed: Option<(&'a str, &'a str)>,
    /// The page's link-preview image, its path under the site root
    /// (`incidents/IL-0004/preview.png`, [`crate::preview`]); only with the site's
    /// URL, which is when the build draws it.
    pub image: Option<&'a str>,
}

/// [`layout`] with a [`Head`].
pub(super) fn layout_with(title: &str, root: &str, site: &Site, head: Head, body: Markup) -> String {
    let Head {
        description,
        markdown,
        search,
        path,
        structured,
        feed,
        image,
    } = head;
    let feed = feed.filter(|_| site.url.is_some());
    let version = site.version;
    let canonical = site.url.zip(path).map(|(url, path)| format!("{url}{path}"));
    let image = site.url.zip(image).map(|(url, image)| format!("{url}{image}"));
    html! {
        (DOCTYPE)
        html lang="ko" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Incident Library" }
                // Before the stylesheet: the page is drawn in its theme from the first paint.
                script { (PreEscaped(theme_script())) }
                @if let Some(d) = description { meta name="description" content=(d); }
                link rel="stylesheet" href={ (root) "app.css?v=" (version) };
                link rel="icon" href={ (root) "favicon-32.png" } sizes="32x32" type="image/png";
                link rel="icon" href={ (root) "favicon.svg" } type="image/svg+xml";
                link rel="apple-touch-icon" href={ (root) "apple-touch-icon.png" };
                @if let Some(md) = markdown { link rel="alternate" type="text/markdown" href=(md); }
                @if let Some((href, what)) = feed {
                    link rel="alternate" type="application/atom+xml" href=(href) title=(what);
                }
                @if let Some(url) = &canonical {
                    (preview(title, description, url, structured.as_ref(), image.as_deref()))
                }
                @if search {
                    // The URLs pkg/library.js asks for, byte for byte, and fetched
                    // the way it fetches them (CORS mode), or the browser fetches twice.
                    // The wasm-bindgen glue is inside pkg/library.js.
                    link rel="modulepreload" href={ (root) "pkg/library.js?v=" (version) };
                    link rel="preload" href={ (root) "pkg/incident_library_bg.wasm?v=" (version) } as="fetch" crossorigin;
                    link rel="preload" href={ (root) "index/meta.bin?v=" (version) } as="fetch" crossorigin;
                }
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
                    button.theme type="button" data-theme-toggle aria-pressed="false" { "어두운 화면" }
                    span #(id!(offline)) role="status" hidden { "오프라인: 저장해 둔 사본으로 보여 줍니다" }
                    p #(id!(newBuild)) role="status" hidden {
                        "새 판이 배포되었습니다. "
                        button #(id!(reload)) type="button" { "새로 고침" }
                    }
                }
                main #main { (body) }
                footer.site {
                    p { "공개된 장애 보고서를 한국어로 정리했다. 각 사례는 출처를 밝힌다." }
                    @if let Some((href, what)) = feed {
                        p { a href=(href) type="application/atom+xml" { (what) " 구독 (Atom)" } }
                    }
                }
                script type="module" src={ (root) "app.js?v=" (version) } {}
            }
        }
    }
    .into_string()
}

/// The canonical link and the link preview (OpenGraph, Twitter) of a page at `url`,
/// and its structured data, as search engines and chat apps read them. A page with
/// an image (its absolute URL: an incident's drawn preview) asks for the large card,
/// the image over the title; the others for the small one, text alone.
fn preview(
    title: &str,
    description: Option<&str>,
    url: &str,
    structured: Option<&serde_json::Value>,
    image: Option<&str>,
) -> Markup {
    let kind = if structured.is_some() { "article" } else { "website" };
    html! {
        link rel="canonical" href=(url);
        meta property="og:site_name" content="Incident Library";
        meta property="og:locale" content="ko_KR";
        meta property="og:type" content=(kind);
        meta property="og:title" content=(title);
        meta property="og:url" content=(url);
        @if let Some(d) = description { meta property="og:description" content=(d); }
        @if let Some(image) = image {
            meta property="og:image" content=(image);
            meta property="og:image:type" content="image/png";
            meta property="og:image:width" content=(crate::preview::WIDTH);
            meta property="og:image:height" content=(crate::preview::HEIGHT);
            meta property="og:image:alt" content=(title);
            meta name="twitter:card" content="summary_large_image";
            meta name="twitter:image" content=(image);
            meta name="twitter:image:alt" content=(title);
        } @else {
            meta name="twitter:card" content="summary";
        }
        @if let Some(data) = structured {
            // JSON in a script element is not HTML-decoded: `<` is written as its
            // JSON escape, so no record text can close the element.
            script type="application/ld+json" { (maud::PreEscaped(data.to_string().replace('<', "\\u003c"))) }
        }
    }
}

pub(super) fn label<'a>(corpus: &'a Corpus, key: &str, slug: &'a str) -> &'a str {
    corpus.taxonomy.get(key, slug).map_or(slug, |v| v.ko.as_str())
}

pub(super) fn topic_href(root: &str, key: &str, slug: &str) -> String {
    format!("{root}topics/{key}/{slug}/")
}

pub(super) fn incident_href(root: &str, id: &str) -> String {
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

pub(super) fn section<'a>(incident: &'a Incident, name: &str) -> &'a str {
    incident.section(name).map_or("", |s| s.markdown.as_str())
}

/// What the page shows for a section the sources say nothing about. It is the
/// template's, not the record's, so search never finds it.
pub const NOT_IN_SOURCES: &str = "출처에 기록 없음";

/// A section's body, or the standard line when the record leaves it out.
pub(super) fn section_or_absent(incident: &Incident, name: &str) -> Markup {
    match incident.section(name) {
        Some(s) => markdown(&s.markdown),
        None => html! { p.absent { (NOT_IN_SOURCES) } },
    }
}

/// The date of a record as readers see it. The `datetime` is the start alone: a
/// span (`--10-04/--10-05`) is not a valid HTML date.
pub(super) fn date_markup(inc: &Incident) -> Markup {
    let when = &inc.when;
    html! { time datetime=(when.start.to_string()) { (when.label()) } }
}

pub(super) fn dash(v: &Option<String>) -> &str {
    v.as_deref().filter(|s| !s.is_empty()).unwrap_or("–")
}

pub(super) fn facet_links(corpus: &Corpus, root: &str, key: &str, slugs: &[&str]) -> Markup {
    html! {
        ul.tags {
            @for slug in slugs {
                li { a.tag href=(topic_href(root, key, slug)) { (label(corpus, key, slug)) } }
            }
        }
    }
}

mod about;
mod incident;
mod list;
mod topic;

use about::{about_page, api_page};
use incident::incident_page;
pub use list::LIST_PAGE;
use list::{list_pages, search_page};
use topic::{alias_page, moved_page, topic_page};

pub(super) fn incident_list(corpus: &Corpus, root: &str, ids: &[usize]) -> Markup {
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

pub(super) fn newest_first(corpus: &Corpus, filter: impl Fn(&Incident) -> bool) -> Vec<usize> {
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
pub(super) fn redirect(path: String, root: &str, target: &str, title: &str, site: &Site, body: Markup) -> Page {
    let page = layout(title, root, site, None, None, body);
    // With the site's URL the canonical link is absolute, as on every other page.
    let canonical = site
        .url
        .zip(target.strip_prefix(root))
        .map_or_else(|| target.to_string(), |(url, rest)| format!("{url}{rest}"));
    let (target, canonical) = (
        maud::html! { (target) }.into_string(),
        maud::html! { (canonical) }.into_string(),
    );
    let head = format!("<meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0; url={target}\"><link rel=\"canonical\" href=\"{canonical}\">");
    Page {
        path,
        html: page.replacen("<meta charset=\"utf-8\">", &head, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structured_data_cannot_close_its_script_element() {
        let data = serde_json::json!({"headline": "</script><script>alert(1)</script>", "x": "<!--"});
        let out = preview("t", Some("d"), "https://example.org/", Some(&data), None).into_string();
        let (_, json) = out.split_once(r#"<script type="application/ld+json">"#).unwrap();
        let json = json.strip_suffix("</script>").unwrap();
        assert!(!json.contains('<'), "{json}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(json).unwrap(), data);
        assert!(out.contains(r#"<meta property="og:type" content="article">"#));
    }

    #[test]
    fn the_inline_scripts_cannot_close_their_element() {
        for script in [THEME_JS, NOT_FOUND_JS, list::RESERVE_RESULTS_JS] {
            assert!(!script.to_ascii_lowercase().contains("</script"));
            assert!(!script.contains("<!--"));
        }
    }

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
        let site = Site {
            version: "v",
            url: None,
        };
        let html = search_page(&corpus, &[], &site).html;
        // Without the site's URL, no canonical link and no preview: none rather than wrong ones.
        assert!(!html.contains("canonical") && !html.contains("og:"), "{html}");
        let site = Site {
            version: "v",
            url: Some("https://example.org/lib/"),
        };
        let html = search_page(&corpus, &[], &site).html;
        assert!(
            html.contains(r#"<link rel="canonical" href="https://example.org/lib/">"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<meta property="og:type" content="website">"#),
            "{html}"
        );
        // The incident page's link back to the search (the e2e tests follow it).
        const ON_INCIDENT_PAGES: [&str; 1] = ["back"];
        for (name, id) in crate::dom_ids::all() {
            if ON_INCIDENT_PAGES.contains(&name) {
                continue;
            }
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
