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

/// How one incident matched the query: the score, and where [`Ranking::found`]
/// says how each word matched.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct DocMatch {
    /// The sum of the matched words' scores.
    pub(super) score: f32,
    /// Where its words start in [`Ranking::found`], when it matched any.
    pub(super) words: Option<u32>,
    /// True when every word matched, none only partially.
    pub(super) full: bool,
}

/// Every incident's match, and how the matching ones matched each word.
#[derive(Debug, Clone, Default)]
pub(super) struct Ranking {
    /// By incident number; empty without a query.
    pub(super) matches: Vec<DocMatch>,
    /// Per matching incident, one entry a word: `Some((alternative, score))` when
    /// it matched. Kept in one list: an allocation per incident cost more than the
    /// scoring of many.
    pub(super) found: Vec<Option<(usize, f32)>>,
    /// Query words.
    words: usize,
}

impl Ranking {
    /// How incident `doc` matched each word, when it matched any.
    pub(super) fn words_of(&self, doc: usize) -> Option<&[Option<(usize, f32)>]> {
        let at = self.matches.get(doc)?.words? as usize;
        self.found.get(at..at + self.words)
    }
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
/// In four steps: the readings' terms looked up, the incidents any of them reach,
/// each word's best reading per incident, and the sum over the words.
pub(super) fn rank(index: &Index, words: &[Word]) -> (Ranking, Bitset) {
    let n = index.len();
    if words.is_empty() {
        return (Ranking::default(), Bitset::full(n));
    }
    let prepared = prepare(index, words);
    let reach = reach(index, &prepared);
    let best = best_readings(index, &prepared);
    sum_words(words, &best, &reach, n)
}

/// Each word's readings with their terms looked up once, and the inverse document
/// frequency of each term and taxonomy value.
fn prepare<'a>(index: &'a Index, words: &'a [Word]) -> Vec<PreparedWord<'a>> {
    let n = index.len();
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
    prepared
}

/// The incidents that have any term or value of any reading: the others match
/// nothing, and scoring them would find that out term by term.
fn reach(index: &Index, prepared: &[PreparedWord]) -> Bitset {
    let n = index.len();
    let mut reach = Bitset::empty(n);
    for p in prepared.iter().flat_map(|w| &w.alternatives) {
        if let Some((docs, _)) = p.facet {
            reach.or_with(docs);
        }
        for (term, _) in p.terms.iter().flatten() {
            index.add_incidents(term, &mut reach);
        }
    }
    reach
}

/// Per word and incident (`best[w * n + doc]`), the best reading's position and
/// score: its best text reading plus its best taxonomy reading.
fn best_readings(index: &Index, prepared: &[PreparedWord]) -> Vec<Option<(usize, f32)>> {
    let n = index.len();
    // Alternative at a time: each reading is scored only in the incidents that
    // have its first term (or value), not in every incident reached; in a large
    // library most readings are in few incidents. Per word and incident, the best
    // text reading and the best taxonomy reading are kept, in the order and by the
    // rule of comparing them incident by incident, so the scores are the same.
    let mut best: Vec<Option<(usize, f32)>> = vec![None; prepared.len() * n];
    let mut text: Vec<Option<(usize, f32)>> = vec![None; n];
    let mut class: Vec<Option<(usize, f32)>> = vec![None; n];
    let mut first = Bitset::empty(n);
    for (w, p) in prepared.iter().enumerate() {
        text.fill(None);
        class.fill(None);
        let mut touched = Bitset::empty(n);
        for (a, alt) in p.alternatives.iter().enumerate() {
            let weight = alt.alt.weight;
            if let Some((docs, idf)) = alt.facet {
                let s = weight * (idf * saturate(META_WEIGHT, 1.0));
                for doc in docs.iter() {
                    keep_best(&mut class[doc], a, s);
                }
                touched.or_with(docs);
                continue;
            }
            let Some(terms) = &alt.terms else { continue };
            let Some((head, _)) = terms.first() else { continue };
            first.clear();
            index.add_incidents(head, &mut first);
            for doc in first.iter() {
                if let Some(s) = alternative_score(index, terms, doc) {
                    keep_best(&mut text[doc], a, weight * s);
                    touched.insert(doc);
                }
            }
        }
        for doc in touched.iter() {
            best[w * n + doc] = match (text[doc], class[doc]) {
                (Some((a, t)), Some((_, c))) => Some((a, t + c)),
                (one, other) => one.or(other),
            };
        }
    }
    best
}

/// Each reached incident's score, the sum of its words' best readings, and whether
/// it matched every word fully; the incidents that matched any word.
fn sum_words(words: &[Word], best: &[Option<(usize, f32)>], reach: &Bitset, n: usize) -> (Ranking, Bitset) {
    let mut candidates = Bitset::empty(n);
    let mut matches = vec![DocMatch::default(); n];
    let mut found = Vec::new();
    for doc in reach.iter() {
        let mut m = DocMatch {
            full: true,
            ..DocMatch::default()
        };
        let mut any = false;
        for (w, word) in words.iter().enumerate() {
            match best[w * n + doc] {
                Some((a, s)) => {
                    any = true;
                    m.score += s;
                    if word.alternatives[a].derivation == query::Derivation::Partial {
                        m.full = false;
                    }
                }
                None => m.full = false,
            }
        }
        if any {
            candidates.insert(doc);
            m.words = Some(found.len() as u32);
            found.extend((0..words.len()).map(|w| best[w * n + doc]));
        }
        matches[doc] = m;
    }
    let ranking = Ranking {
        matches,
        found,
        words: words.len(),
    };
    (ranking, candidates)
}

/// Keeps `(a, s)` in `slot` when it scores above what the slot holds: among equal
/// scores the earlier alternative stays.
fn keep_best(slot: &mut Option<(usize, f32)>, a: usize, s: f32) {
    if slot.is_none_or(|(_, b)| s > b) {
        *slot = Some((a, s));
    }
}

/// The mean score of a reading's terms in incident `doc`, or `None` when the
/// incident lacks one of them.
fn alternative_score(index: &Index, terms: &[(Prepared, f32)], doc: usize) -> Option<f32> {
    let mut sum = 0.0;
    for (term, idf) in terms {
        sum += term_score(index, term, *idf, doc)?;
    }
    Some(sum / terms.len() as f32)
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
