//! The page shown: its hits, how each matched, and the listing files they still need.

use super::rank::Ranking;
use super::{ByFacet, Hit, Matched};
use crate::index::Index;
use crate::query::Word;

/// Hits per page when a request says 0.
pub(super) const PER_PAGE: usize = 10;

/// One page of the ordered results.
pub(super) struct Page {
    /// The page number, 1-based.
    pub(super) number: usize,
    /// Hits per page.
    pub(super) per_page: usize,
    /// The page's hits.
    pub(super) hits: Vec<Hit>,
    /// Listing files that the page's hits need and that are not loaded.
    pub(super) missing: Vec<String>,
}

/// Page `page` (1-based; 0 is taken as 1) of `docs` at `per_page` hits (0 means
/// [`PER_PAGE`]).
pub(super) fn page(
    index: &Index,
    docs: &[usize],
    words: &[Word],
    ranking: &Ranking,
    (page, per_page): (usize, usize),
    explain: bool,
) -> Page {
    let per_page = if per_page == 0 { PER_PAGE } else { per_page };
    let page = page.max(1);
    let shown = || docs.iter().skip((page - 1).saturating_mul(per_page)).take(per_page);
    let hits = shown().map(|&d| hit(index, d, words, ranking, explain)).collect();
    let mut missing: Vec<String> = Vec::new();
    for &d in shown().filter(|&&d| !index.has_listing(d)) {
        let file = index.listing_file(d);
        if !missing.contains(&file) {
            missing.push(file);
        }
    }
    Page {
        number: page,
        per_page,
        hits,
        missing,
    }
}

/// The hit of incident `doc`: its listing, and how it matched `words` (with each
/// word's share of the score when `explain`).
fn hit(index: &Index, doc: usize, words: &[Word], ranking: &Ranking, explain: bool) -> Hit {
    let m = ranking.matches.get(doc);
    let l = index.listing(doc);
    let facets = index
        .meta
        .facets
        .iter()
        .zip(&l.facets)
        .map(|(f, values)| {
            (
                f.key.clone(),
                values.iter().map(|&v| f.values[v as usize].slug.clone()).collect(),
            )
        })
        .collect();
    let facets = ByFacet(facets);
    let mut matched = Vec::new();
    let mut missing = Vec::new();
    let mut terms: Vec<String> = Vec::new();
    if let Some(found_words) = ranking.words_of(doc) {
        for (word, found) in words.iter().zip(found_words) {
            match found {
                Some((a, share)) => {
                    let alt = &word.alternatives[*a];
                    // The terms to mark: the reading that matched, and the word's
                    // other sure readings (`certificate` matched, `인증서` is in the
                    // text too), not its guesses (typos, parts, prefixes).
                    let sure = |b: &&crate::query::Alternative| {
                        matches!(b.derivation.how(), "exact" | "stem" | "synonym" | "lexicon")
                    };
                    let readings = std::iter::once(alt).chain(word.alternatives.iter().filter(sure));
                    for t in readings.flat_map(|b| &b.terms) {
                        if !terms.contains(t) {
                            terms.push(t.clone());
                        }
                    }
                    matched.push(Matched {
                        word: word.input.clone(),
                        how: alt.derivation.how(),
                        via: match &alt.facet {
                            Some(f) => f.ko.clone(),
                            None => alt.terms.join("+"),
                        },
                        score: explain.then(|| rounded(*share)),
                    });
                }
                None => missing.push(word.input.clone()),
            }
        }
    }
    let score = m.map_or(0.0, |m| m.score);
    Hit {
        id: l.id.clone(),
        score: rounded(score),
        title: l.title.clone(),
        org: l.org.clone(),
        date: l.date.clone(),
        date_label: l.date_label.clone(),
        facets,
        summary: l.summary.clone(),
        full: m.is_none_or(|m| m.full),
        matched,
        missing,
        terms,
    }
}

/// A score to three decimals. Rounded in f64: an f32 widened on the way to JSON
/// would print as 8.392000198364258.
fn rounded(score: f32) -> f64 {
    (f64::from(score) * 1000.0).round() / 1000.0
}
