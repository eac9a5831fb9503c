//! What the response offers beyond the hits: taxonomy values the query names (추천
//! 필터) and completions of the last word.

use super::{Request, Suggestion};
use crate::facets::Selection;
use crate::index::Index;
use crate::query;
use crate::stable_sort;
use crate::text;

/// Completions a response offers at most.
const COMPLETIONS: usize = 6;

/// With `request.prefix`, and the last word still being typed (no space after
/// it): the vocabulary terms it may be the start of, most frequent first.
/// `last` is the query's last word as typed.
pub(super) fn completions(index: &Index, request: &Request, last: Option<&str>) -> Vec<String> {
    match (request.prefix, last) {
        (true, Some(last)) if !request.query.ends_with(char::is_whitespace) => {
            query::completions(&text::normalize(last), index, COMPLETIONS)
                .into_iter()
                .map(|(t, _)| t)
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Taxonomy values whose Korean or English label or a synonym occurs in the query,
/// compared without spaces and case (`메모리부족` names `메모리 부족`). Values already
/// selected are left out; longer matches come first.
pub fn suggest(index: &Index, query: &str, selection: &Selection) -> Vec<Suggestion> {
    let q = crate::index::squash(query);
    if q.is_empty() {
        return Vec::new();
    }
    // Every pair of neighbouring characters of the query, sorted: a name can only
    // occur in the query where its first two characters do, and most names' pairs
    // are not there, so the substring search runs for few names.
    let chars: Vec<char> = q.chars().collect();
    let mut pairs: Vec<(char, char)> = chars.windows(2).map(|w| (w[0], w[1])).collect();
    stable_sort::sort_by(&mut pairs, |a, b| a.cmp(b));
    // The longest name found for each value.
    let mut best: Vec<((usize, usize), &crate::index::TaxonomyName)> = Vec::new();
    for n in index.names() {
        let len = n.chars;
        // Very short names (an ascii `ai`) would match inside other words; slugs are
        // not names people type.
        if len < 2 || pairs.binary_search(&n.head).is_err() || (len < 3 && n.squashed.is_ascii()) {
            continue;
        }
        let is_slug = n.name == index.meta.facets[n.f].values[n.v].slug && n.name.contains('-');
        if is_slug || selection.chosen[n.f].contains(&n.v) || !q.contains(n.squashed.as_str()) {
            continue;
        }
        match best.iter_mut().find(|(key, _)| *key == (n.f, n.v)) {
            Some((_, slot)) if n.squashed.len() > slot.squashed.len() => *slot = n,
            Some(_) => {}
            None => best.push(((n.f, n.v), n)),
        }
    }
    let mut out: Vec<(usize, Suggestion)> = best
        .into_iter()
        .map(|((f, v), n)| {
            let (facet, value) = (&index.meta.facets[f], &index.meta.facets[f].values[v]);
            (
                n.squashed.len(),
                Suggestion {
                    facet: facet.key.clone(),
                    slug: value.slug.clone(),
                    ko: value.ko.clone(),
                    matched: n.name.clone(),
                },
            )
        })
        .collect();
    stable_sort::sort_by(&mut out, |a, b| {
        b.0.cmp(&a.0)
            .then_with(|| a.1.facet.cmp(&b.1.facet))
            .then_with(|| a.1.slug.cmp(&b.1.slug))
    });
    out.into_iter().map(|(_, s)| s).take(8).collect()
}
