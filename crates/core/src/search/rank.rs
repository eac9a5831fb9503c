//! Ranking: scores every incident for the analysed query words, BM25F-like, as
//! `docs/ranking.md` describes.

use crate::bitset::Bitset;
use crate::index::{Index, Prepared};
use crate::query::{self, Word};
use crate::weights::{B, K1, LEVEL_TF, META_WEIGHT, PART_WEIGHT, TITLE_WEIGHT};

/// Inverse document frequency (BM25's, always positive).
pub fn idf(n: usize, df: u64) -> f32 {
    let (n, df) = (n as f32, df as f32);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// How one incident matched the query: per word, the score and the alternative.
#[derive(Debug, Clone, Default)]
pub(super) struct DocMatch {
    /// The sum of the matched words' scores.
    pub(super) score: f32,
    /// Per word: `Some((alternative, score))` when it matched.
    pub(super) words: Vec<Option<(usize, f32)>>,
    /// True when every word matched, none only partially.
    pub(super) full: bool,
}

/// A query word's alternatives with their terms looked up once ([`Index::prepare`]).
struct PreparedWord<'a> {
    alternatives: Vec<PreparedAlternative<'a>>,
}

struct PreparedAlternative<'a> {
    alt: &'a query::Alternative,
    /// Each term with its inverse document frequency; `None` when one is not in the
    /// index.
    terms: Option<Vec<(Prepared, f32)>>,
    /// For a taxonomy value: its incidents and their inverse document frequency.
    facet: Option<(&'a Bitset, f32)>,
}

/// Scores every incident for `words`: the per-incident matches (empty without a
/// query) and the incidents that match at least one word (all without a query).
pub(super) fn rank(index: &Index, words: &[Word]) -> (Vec<DocMatch>, Bitset) {
    let n = index.len();
    if words.is_empty() {
        return (Vec::new(), Bitset::full(n));
    }
    // Plain loops: iterator adapters over new types add code to the browser module.
    let mut prepared: Vec<PreparedWord> = Vec::with_capacity(words.len());
    for w in words {
        let mut alternatives = Vec::with_capacity(w.alternatives.len());
        for alt in &w.alternatives {
            let mut terms = Some(Vec::with_capacity(alt.terms.len()));
            for t in &alt.terms {
                match (index.prepare(t), terms.as_mut()) {
                    (Some(p), Some(list)) => {
                        let weight = idf(n, p.postings.df());
                        list.push((p, weight));
                    }
                    _ => terms = None,
                }
            }
            let facet = alt.facet.as_ref().map(|f| {
                let docs = &index.meta.facets[f.f].values[f.v].docs;
                (docs, idf(n, docs.len() as u64))
            });
            alternatives.push(PreparedAlternative { alt, terms, facet });
        }
        prepared.push(PreparedWord { alternatives });
    }
    // The incidents that have any term or value of any reading: the others match
    // nothing, and scoring them would find that out term by term.
    let mut reach = Bitset::empty(n);
    for p in prepared.iter().flat_map(|w| &w.alternatives) {
        if let Some((docs, _)) = p.facet {
            reach.or_with(docs);
        }
        for (term, _) in p.terms.iter().flatten() {
            index.add_incidents(term, &mut reach);
        }
    }
    let mut candidates = Bitset::empty(n);
    let mut matches = Vec::with_capacity(n);
    // Reused for every incident; kept only by those that match (a list an incident
    // would cost an allocation each for the many that match nothing).
    let mut found_words: Vec<Option<(usize, f32)>> = Vec::with_capacity(words.len());
    for doc in 0..n {
        if !reach.contains(doc) {
            matches.push(DocMatch::default());
            continue;
        }
        let mut m = DocMatch {
            full: true,
            ..DocMatch::default()
        };
        found_words.clear();
        for (word, p) in words.iter().zip(&prepared) {
            let found = word_score(index, p, doc);
            match found {
                Some((a, s)) => {
                    m.score += s;
                    if word.alternatives[a].derivation == query::Derivation::Partial {
                        m.full = false;
                    }
                }
                None => m.full = false,
            }
            found_words.push(found);
        }
        if found_words.iter().any(Option::is_some) {
            candidates.insert(doc);
            m.words = found_words.clone();
        }
        matches.push(m);
    }
    (matches, candidates)
}

/// BM25's saturated, length-normalised term frequency.
fn saturate(tf: f32, relative_length: f32) -> f32 {
    tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * relative_length))
}

/// The score of a prepared term in incident `doc`, or `None` when the incident lacks it.
fn term_score(index: &Index, term: &Prepared, idf: f32, doc: usize) -> Option<f32> {
    let (level, part, title) = index.term_in(doc, term)?;
    let mut tf = LEVEL_TF[usize::from(level.min(1))];
    if title {
        tf += TITLE_WEIGHT;
    }
    let mut s = idf * saturate(tf, index.relative_length(doc));
    if !title && part {
        s *= PART_WEIGHT;
    }
    Some(s)
}

/// The score of a word in incident `doc` with the alternative that matched, or
/// `None` when no alternative matches. The text and the classification are two
/// fields: the best text alternative and the best taxonomy value add up, so that
/// of the incidents classified under a value the query names, those whose text
/// also has the word come first.
fn word_score(index: &Index, word: &PreparedWord, doc: usize) -> Option<(usize, f32)> {
    let mut text: Option<(usize, f32)> = None;
    let mut class: Option<(usize, f32)> = None;
    for (a, p) in word.alternatives.iter().enumerate() {
        let alt = p.alt;
        let s = if let Some((docs, idf)) = p.facet {
            if !docs.contains(doc) {
                continue;
            }
            idf * saturate(META_WEIGHT, 1.0)
        } else {
            let Some(terms) = &p.terms else { continue };
            if terms.is_empty() {
                continue;
            }
            let mut sum = 0.0;
            let mut all = true;
            for (term, idf) in terms {
                match term_score(index, term, *idf, doc) {
                    Some(s) => sum += s,
                    None => {
                        all = false;
                        break;
                    }
                }
            }
            if !all {
                continue;
            }
            sum / terms.len() as f32
        };
        let s = alt.weight * s;
        let slot = if alt.facet.is_some() { &mut class } else { &mut text };
        if slot.is_none_or(|(_, b)| s > b) {
            *slot = Some((a, s));
        }
    }
    match (text, class) {
        (Some((a, t)), Some((_, c))) => Some((a, t + c)),
        (one, other) => one.or(other),
    }
}
