//! Facet filters: (facet, slug) pairs as a request names them, checked and turned
//! into value positions.

use super::SearchError;
use crate::facets::Selection;
use crate::index::Index;
use crate::stable_sort;

/// Turns (facet, slug) pairs into value positions, refusing unknown ones. An old
/// slug of a merged value (its alias) names the value it was merged into, so
/// links and widgets written before the merge keep working.
pub fn resolve_filters(index: &Index, filters: &[(String, String)]) -> Result<Selection, SearchError> {
    let mut chosen = vec![Vec::new(); index.meta.facets.len()];
    for (facet, value) in filters {
        let f = index.facet_position(facet).ok_or_else(|| SearchError::UnknownFacet {
            facet: facet.clone(),
            allowed: index.meta.facets.iter().map(|f| f.key.clone()).collect(),
        })?;
        let values = &index.meta.facets[f].values;
        let v = values
            .iter()
            .position(|v| v.slug == *value)
            .or_else(|| values.iter().position(|v| v.aliases.contains(value)))
            .ok_or_else(|| SearchError::UnknownValue {
                facet: facet.clone(),
                value: value.clone(),
                suggestions: closest(value, values.iter().map(|v| v.slug.as_str())),
            })?;
        if !chosen[f].contains(&v) {
            chosen[f].push(v);
        }
    }
    Ok(Selection { chosen })
}

/// Up to three candidates that share the most leading characters or contain `s`.
fn closest<'a>(s: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut scored: Vec<(usize, &str)> = candidates
        .map(|c| {
            let common = c.chars().zip(s.chars()).take_while(|(a, b)| a == b).count();
            let contains = usize::from(c.contains(s) || s.contains(c)) * 10;
            (common + contains, c)
        })
        .filter(|&(score, _)| score >= 2)
        .collect();
    stable_sort::sort_by(&mut scored, |a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, c)| c.to_string()).collect()
}
