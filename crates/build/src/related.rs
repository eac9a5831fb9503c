//! Related incidents: those a record lists, else the most similar records by
//! shared facet values (weighted) and shared terms (the Dice coefficient of their
//! term sets). The pages and the API show the same ones.

use std::collections::BTreeSet;

use crate::corpus::{Corpus, Incident};

/// Number of related incidents shown when a record lists none.
const RELATED_COMPUTED: usize = 3;

/// Weight of a shared value, by facet (the organisation is not compared).
const FACET_WEIGHTS: [(&str, f64); 4] = [("cause", 3.0), ("component", 2.0), ("symptom", 1.0), ("factor", 1.0)];

/// Weight of the [`dice`] coefficient of the term sets, against the facet weights.
const TERMS_WEIGHT: f64 = 4.0;

/// The incidents shown as related to one incident.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// Incident numbers (positions in [`Corpus::incidents`]), most related first
    /// when computed, in the record's order when listed.
    pub incidents: Vec<usize>,
    /// True when computed by similarity, false when the record lists them.
    pub computed: bool,
}

/// Related incidents of incident `d`: those the record lists, else the most
/// similar by shared facet values (weighted) and shared terms. `terms[e]` are the
/// terms of incident `e`.
pub fn related(corpus: &Corpus, terms: &[BTreeSet<String>], d: usize) -> Related {
    let incident = &corpus.incidents[d];
    if !incident.related.is_empty() {
        let listed = incident
            .related
            .iter()
            .filter_map(|id| corpus.incidents.iter().position(|i| &i.id == id))
            .collect();
        return Related {
            incidents: listed,
            computed: false,
        };
    }
    let mut scored: Vec<(f64, usize)> = corpus
        .incidents
        .iter()
        .enumerate()
        .filter(|&(e, _)| e != d)
        .map(|(e, other)| {
            let score = shared_facets(incident, other) + TERMS_WEIGHT * dice(&terms[d], &terms[e]);
            (score, e)
        })
        .filter(|&(s, _)| s > 0.0)
        .collect();
    scored.sort_by(|a, b| {
        b.0.partial_cmp(&a.0)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.1.cmp(&b.1))
    });
    Related {
        incidents: scored.into_iter().take(RELATED_COMPUTED).map(|(_, e)| e).collect(),
        computed: true,
    }
}

/// The facet values two incidents share, each counted with its facet's weight.
fn shared_facets(a: &Incident, b: &Incident) -> f64 {
    FACET_WEIGHTS
        .iter()
        .map(|(key, w)| w * a.facet(key).iter().filter(|s| b.facet(key).contains(s)).count() as f64)
        .sum()
}

/// The Dice coefficient of two term sets: twice the shared terms over the sum of
/// their sizes; 0 when both are empty.
fn dice(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let shared = a.intersection(b).count() as f64;
    if a.is_empty() && b.is_empty() {
        0.0
    } else {
        shared / (a.len() + b.len()) as f64 * 2.0
    }
}
