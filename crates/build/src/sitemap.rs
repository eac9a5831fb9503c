//! `robots.txt`, and with the site's public URL (`--site-url`) `sitemap.xml`: every
//! page a search engine should find (the search, the listing pages, each incident
//! and topic, the reading guide and the API page), each incident with the day its
//! record was last changed. Redirects of moved ids and merged slugs are left out.
//! Past [`MAX_URLS`] the URLs go to `sitemap-1.xml`, … and `sitemap.xml` indexes
//! them, as the sitemaps protocol requires.

use std::fmt::Write;

use crate::corpus::{Corpus, Date, Incident};
use crate::feed::escape;
use incident_core::index::FACETS;

/// URLs one sitemap file may hold (sitemaps.org).
pub const MAX_URLS: usize = 50_000;

/// `robots.txt`, and the sitemap files when `site_url` is given: (path, bytes).
pub fn files(corpus: &Corpus, site_url: Option<&str>) -> Vec<(String, Vec<u8>)> {
    let mut robots = String::from("User-agent: *\nAllow: /\n");
    let Some(url) = site_url else {
        return vec![("robots.txt".into(), robots.into_bytes())];
    };
    let _ = writeln!(robots, "Sitemap: {url}sitemap.xml");
    let mut out = vec![("robots.txt".into(), robots.into_bytes())];
    let urls = urls(corpus);
    if urls.len() <= MAX_URLS {
        out.push(("sitemap.xml".into(), urlset(url, &urls).into_bytes()));
        return out;
    }
    let mut index = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (i, chunk) in urls.chunks(MAX_URLS).enumerate() {
        let name = format!("sitemap-{}.xml", i + 1);
        let _ = writeln!(
            index,
            "  <sitemap><loc>{}</loc></sitemap>",
            escape(&format!("{url}{name}"))
        );
        out.push((name, urlset(url, chunk).into_bytes()));
    }
    index.push_str("</sitemapindex>\n");
    out.push(("sitemap.xml".into(), index.into_bytes()));
    out
}

/// Every page's path under the site root, with the day it last changed when known.
fn urls(corpus: &Corpus) -> Vec<(String, Option<Date>)> {
    let newest = corpus.incidents.iter().filter_map(Incident::record_changed).max();
    let pages = corpus.incidents.len().div_ceil(crate::site::LIST_PAGE).max(1);
    let mut out = vec![(String::new(), newest)];
    out.extend((2..=pages).map(|p| (format!("page/{p}/"), newest)));
    out.push(("about/".into(), None));
    out.push(("api/".into(), None));
    out.extend(
        corpus
            .incidents
            .iter()
            .map(|i| (format!("incidents/{}/", i.id), i.record_changed())),
    );
    for (f, facet) in FACETS.iter().enumerate() {
        for value in &corpus.taxonomy.facets[f] {
            let changed = corpus
                .incidents
                .iter()
                .filter(|i: &&Incident| i.facet(facet.key).contains(&value.slug.as_str()))
                .filter_map(Incident::record_changed)
                .max();
            out.push((format!("topics/{}/{}/", facet.key, value.slug), changed));
        }
    }
    out
}

/// One sitemap file of `urls` under the site's `url`.
fn urlset(url: &str, urls: &[(String, Option<Date>)]) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (path, changed) in urls {
        let _ = write!(out, "  <url><loc>{}</loc>", escape(&format!("{url}{path}")));
        if let Some(day) = changed {
            let _ = write!(out, "<lastmod>{day}</lastmod>");
        }
        out.push_str("</url>\n");
    }
    out.push_str("</urlset>\n");
    out
}
