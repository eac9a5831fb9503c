//! Facet counts: for every facet value, how many incidents it would give and how
//! many of the current results carry it.

use serde::Serialize;

use super::ByFacet;
use crate::bitset::Bitset;
use crate::facets::{self, Counts, Selection};
use crate::index::Index;

/// The count of one facet value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FacetCount {
    /// Slug.
    pub slug: String,
    /// Korean label.
    pub ko: String,
    /// Incidents it would give (disjunctive count).
    pub count: usize,
    /// Whether it is part of the current selection.
    pub selected: bool,
    /// Incidents among the current results that carry it.
    pub in_results: usize,
}

/// Counts the facet values over `candidates` (disjunctively, as [`facets::count`]
/// does), and the incidents that match both the query and `selection`.
pub(super) fn count(index: &Index, candidates: &Bitset, selection: &Selection) -> Counts {
    let facet_bits: Vec<Vec<&Bitset>> = index
        .meta
        .facets
        .iter()
        .map(|f| f.values.iter().map(|v| &v.docs).collect())
        .collect();
    facets::count(&facet_bits, candidates, selection)
}

/// The counts of every facet value, by facet key, in taxonomy order.
pub(super) fn facet_counts(index: &Index, counted: &Counts, selection: &Selection) -> ByFacet<Vec<FacetCount>> {
    let mut facet_counts = ByFacet::default();
    for (f, facet) in index.meta.facets.iter().enumerate() {
        let values = facet
            .values
            .iter()
            .enumerate()
            .map(|(v, value)| FacetCount {
                slug: value.slug.clone(),
                ko: value.ko.clone(),
                count: counted.counts[f][v],
                selected: selection.chosen[f].contains(&v),
                in_results: value.docs.intersection_len(&counted.matching),
            })
            .collect();
        facet_counts.0.push((facet.key.clone(), values));
    }
    facet_counts
}
