//! The page shown: its hits, how each matched, and the listing files they still need.

use super::rank::DocMatch;
use super::{ByFacet, Hit, Matched};
use crate::index::Index;
use crate::query::Word;

/// The hit of incident `doc`: its listing, and how it matched `words`.
pub(super) fn hit(index: &Index, doc: usize, words: &[Word], m: Option<&DocMatch>) -> Hit {
    let l = &index.listings[doc];
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
    if let Some(m) = m {
        for (word, found) in words.iter().zip(&m.words) {
            match found {
                Some((a, _)) => {
                    let alt = &word.alternatives[*a];
                    matched.push(Matched {
                        word: word.input.clone(),
                        how: alt.derivation.how(),
                        via: match &alt.facet {
                            Some(f) => f.ko.clone(),
                            None => alt.terms.join("+"),
                        },
                    });
                }
                None => missing.push(word.input.clone()),
            }
        }
    }
    let score = m.map_or(0.0, |m| m.score);
    Hit {
        id: l.id.clone(),
        score: (score * 1000.0).round() / 1000.0,
        title: l.title.clone(),
        org: l.org.clone(),
        date: l.date.clone(),
        facets,
        summary: l.summary.clone(),
        full: m.is_none_or(|m| m.full),
        matched,
        missing,
    }
}
