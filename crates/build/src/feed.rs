//! Atom feeds (RFC 4287), with the site's public URL (`--site-url`; a feed's ids and
//! links are absolute): `feed.xml`, the newest incidents of the library, and
//! `topics/<facet>/<slug>/feed.xml`, those of one taxonomy value, so that a team
//! can follow "DNS" or one organisation. An entry is an incident: its title, its
//! summary, its page, the day its record last changed, and its classification as
//! categories.

use std::fmt::Write;

use crate::corpus::{Corpus, Date, Incident};
use incident_core::index::FACETS;

/// Entries a feed holds at most: the newest.
pub const ENTRIES: usize = 50;

/// The feed files, by path under the bundle root; none without `site_url`.
pub fn files(corpus: &Corpus, site_url: Option<&str>) -> Vec<(String, Vec<u8>)> {
    let Some(url) = site_url else {
        return Vec::new();
    };
    let mut out = vec![(
        "feed.xml".to_string(),
        feed(corpus, url, "feed.xml", "Incident Library: 새 사례", |_| true).into_bytes(),
    )];
    for (f, facet) in FACETS.iter().enumerate() {
        for value in &corpus.taxonomy.facets[f] {
            let path = format!("topics/{}/{}/feed.xml", facet.key, value.slug);
            let title = format!("Incident Library: {} · {}", facet.ko, value.ko);
            let has = |i: &Incident| i.facet(facet.key).contains(&value.slug.as_str());
            out.push((path.clone(), feed(corpus, url, &path, &title, has).into_bytes()));
        }
    }
    out
}

/// The day an incident's entry last changed: its record's, else the incident's.
fn changed(i: &Incident) -> Date {
    i.record_changed().unwrap_or(i.date)
}

/// One feed at `path` of the incidents `wanted` picks, newest change first.
fn feed(corpus: &Corpus, url: &str, path: &str, title: &str, wanted: impl Fn(&Incident) -> bool) -> String {
    let mut entries: Vec<&Incident> = corpus.incidents.iter().filter(|i| wanted(i)).collect();
    entries.sort_by(|a, b| {
        changed(b)
            .cmp(&changed(a))
            .then(b.date.cmp(&a.date))
            .then(a.id.cmp(&b.id))
    });
    entries.truncate(ENTRIES);
    let updated = entries.first().map_or_else(
        || crate::indexer::corpus_date(corpus),
        |i| format!("{}T00:00:00Z", changed(i)),
    );
    let page = path.strip_suffix("feed.xml").unwrap_or("");
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"ko\">\n",
    );
    let _ = writeln!(out, "  <id>{}</id>", escape(&format!("{url}{path}")));
    let _ = writeln!(out, "  <title>{}</title>", escape(title));
    let _ = writeln!(out, "  <updated>{updated}</updated>");
    let _ = writeln!(
        out,
        "  <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>",
        escape(&format!("{url}{path}"))
    );
    let _ = writeln!(
        out,
        "  <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>",
        escape(&format!("{url}{page}"))
    );
    let _ = writeln!(out, "  <author><name>Incident Library</name></author>");
    for i in entries {
        entry(&mut out, corpus, url, i);
    }
    out.push_str("</feed>\n");
    out
}

/// One incident as an entry.
fn entry(out: &mut String, corpus: &Corpus, url: &str, i: &Incident) {
    let page = format!("{url}incidents/{}/", i.id);
    out.push_str("  <entry>\n");
    let _ = writeln!(out, "    <id>{}</id>", escape(&page));
    let _ = writeln!(out, "    <title>{}</title>", escape(&i.title));
    if let Some(published) = i.published {
        let _ = writeln!(out, "    <published>{published}T00:00:00Z</published>");
    }
    let _ = writeln!(out, "    <updated>{}T00:00:00Z</updated>", changed(i));
    let _ = writeln!(
        out,
        "    <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>",
        escape(&page)
    );
    let _ = writeln!(out, "    <summary>{}</summary>", escape(&crate::summary::summary(i)));
    for facet in FACETS {
        for slug in i.facet(facet.key) {
            let label = corpus.taxonomy.get(facet.key, slug).map_or(slug, |v| v.ko.as_str());
            let scheme = format!("{url}topics/{}/", facet.key);
            let _ = writeln!(
                out,
                "    <category term=\"{}\" scheme=\"{}\" label=\"{}\"/>",
                escape(slug),
                escape(&scheme),
                escape(label)
            );
        }
    }
    out.push_str("  </entry>\n");
}

/// `s` as XML text or attribute value; characters XML 1.0 forbids are dropped. The
/// sitemap writes with it too.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}
