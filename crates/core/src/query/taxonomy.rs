//! Taxonomy readings: the facet values that a word or a phrase names by a label or
//! a synonym (`메모리 부족` → 증상 OOMKilled).

use super::{Alternative, Derivation, FacetRef};
use crate::index::{squash, Index};
use crate::text::particles;

/// Adds the facet values that the word `phrase` names (label or synonym), as typed
/// or without its particle, as alternatives.
pub(super) fn facet_synonyms(phrase: &str, index: &Index, weight: f32, alts: &mut Vec<Alternative>) {
    let q = squash(phrase);
    facet_names(&q, index, weight, alts);
    if let Some(bare) = particles::bare(&q) {
        facet_names(&bare, index, weight, alts);
    }
}

/// Adds the facet values that `name` names exactly (compared squashed).
pub(super) fn facet_names(name: &str, index: &Index, weight: f32, alts: &mut Vec<Alternative>) {
    let q = squash(name);
    if q.chars().count() < 2 {
        return;
    }
    for n in index.names_squashed(&q) {
        if !alts
            .iter()
            .any(|a| a.facet.as_ref().is_some_and(|r| r.f == n.f && r.v == n.v))
        {
            let (facet, value) = (&index.meta.facets[n.f], &index.meta.facets[n.f].values[n.v]);
            let facet_ref = FacetRef {
                facet: facet.key.clone(),
                slug: value.slug.clone(),
                ko: value.ko.clone(),
                f: n.f,
                v: n.v,
            };
            alts.push(Alternative {
                terms: Vec::new(),
                facet: Some(facet_ref),
                weight,
                derivation: Derivation::Synonym,
            });
        }
    }
}
