//! Related incidents: those a record lists, else the most similar records by
//! shared facet values (weighted) and shared terms (the Dice coefficient of their
//! term sets). The pages and the API show the same ones.

use std::collections::BTreeSet;

use crate::corpus::Corpus;

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

/// Related incidents of every incident, by incident number: those a record lists,
/// else the most similar by shared facet values (weighted) and shared terms.
/// `terms[e]` are the terms of incident `e`.
/// The term sets are numbered once and compared as sorted numbers, and the
/// incidents are shared among the cores: the comparison is of every pair, so it
/// is the part of the build that grows fastest with the corpus.
pub fn related_all(corpus: &Corpus, terms: &[BTreeSet<String>]) -> Vec<Related> {
    let numbered = number_terms(terms);
    let values = facet_values(corpus);
    let n = corpus.incidents.len();
    let threads = crate::threads();
    let share = n.div_ceil(threads).max(1);
    let (numbered, values) = (&numbered, &values);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .step_by(share)
            .map(|start| {
                scope.spawn(move || {
                    (start..(start + share).min(n))
                        .map(|d| related_numbered(corpus, numbered, values, d))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

/// Each term set as the sorted numbers of its terms (numbered in byte order).
fn number_terms(terms: &[BTreeSet<String>]) -> Vec<Vec<u32>> {
    let all: BTreeSet<&str> = terms.iter().flatten().map(String::as_str).collect();
    let number: std::collections::HashMap<&str, u32> =
        all.into_iter().enumerate().map(|(i, t)| (t, i as u32)).collect();
    terms
        .iter()
        .map(|set| {
            // A BTreeSet iterates in byte order, the order the numbers were given in.
            set.iter().map(|t| number[t.as_str()]).collect()
        })
        .collect()
}

/// Each incident's values of the compared facets, in [`FACET_WEIGHTS`] order.
type FacetValues<'a> = Vec<[Vec<&'a str>; 4]>;

/// The compared facet values of every incident, read once.
fn facet_values(corpus: &Corpus) -> FacetValues<'_> {
    corpus
        .incidents
        .iter()
        .map(|i| FACET_WEIGHTS.map(|(key, _)| i.facet(key)))
        .collect()
}

/// The related incidents of incident `d`, over numbered term sets and facet values
/// read once.
fn related_numbered(corpus: &Corpus, terms: &[Vec<u32>], values: &FacetValues<'_>, d: usize) -> Related {
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
        .map(|(e, _)| {
            let score = shared_facets(&values[d], &values[e]) + TERMS_WEIGHT * dice(&terms[d], &terms[e]);
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
fn shared_facets(a: &[Vec<&str>; 4], b: &[Vec<&str>; 4]) -> f64 {
    FACET_WEIGHTS
        .iter()
        .zip(a.iter().zip(b))
        .map(|((_, w), (a, b))| w * a.iter().filter(|s| b.contains(s)).count() as f64)
        .sum()
}

/// The Dice coefficient of two sorted term sets: twice the shared terms over the
/// sum of their sizes; 0 when both are empty.
fn dice(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared as f64 / (a.len() + b.len()) as f64 * 2.0
}
