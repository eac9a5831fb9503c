//! A taxonomy value's page, and the pages that redirect: a merged incident's id and
//! a merged value's old slug.

use maud::html;

use super::*;

/// The page of an id that moved (`moved.toml`): a redirect to the record that
/// holds its incident now.
pub(super) fn moved_page(corpus: &Corpus, moved: &crate::corpus::Moved, site: &Site) -> Page {
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
    redirect(path, root, &target, &format!("{} → {}", moved.id, moved.to), site, body)
}

/// The topic page of an old slug (`aliases` in the taxonomy): a redirect to the
/// value it was merged into.
pub(super) fn alias_page(key: &str, alias: &str, value: &Value, site: &Site) -> Page {
    let root = "../../../";
    let target = topic_href(root, key, &value.slug);
    let body = html! {
        article.moved {
            h1 { "이 분류는 " (value.ko) " 에 합쳤다" }
            p { a href=(target) { (value.ko) } }
        }
    };
    let path = format!("topics/{key}/{alias}/index.html");
    redirect(path, root, &target, &value.ko, site, body)
}

pub(super) fn topic_page(corpus: &Corpus, f: usize, key: &str, value: &Value, site: &Site) -> Page {
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
        html: layout_with(
            &value.ko,
            root,
            site,
            Head {
                path: Some(&format!("topics/{key}/{}/", value.slug)),
                description: Some(&value.description),
                feed: Some(("feed.xml", &format!("{} · {}", facet_ko, value.ko))),
                ..Head::default()
            },
            body,
        ),
    }
}
