//! Spacing across words: neighbouring words read as one (`로드 밸런서` →
//! `로드밸런서`) where the vocabulary, the taxonomy or the lexicon knows them so.

use super::taxonomy::facet_names;
use super::{add, Alternative, Derivation, Word, JOINED_WEIGHT, LEXICON_WEIGHT, MAX_SPAN, PHRASE_SYNONYM_WEIGHT};
use crate::index::{squash, Index};
use crate::text::particles;

/// Readings of each word that a span's combinations take, at most.
const OWN_READINGS: usize = 3;
/// Combinations of the words' own readings that a span keeps, at most.
const COMBINATIONS: usize = 6;

/// Reads neighbouring words together where the vocabulary or the taxonomy knows
/// them as one (`로드 밸런서`, `메모리 부족`): the span becomes one word whose
/// alternatives are the joined reading and every combination of its words'.
pub(super) fn join_spans(words: Vec<Word>, index: &Index) -> Vec<Word> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match longest_join(&words[i..], index) {
            Some((joined, len)) => {
                out.push(joined);
                i += len;
            }
            None => {
                out.push(words[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// The longest span at the start of `words` (two to [`MAX_SPAN`] words) that reads
/// as one word, with its number of words.
fn longest_join(words: &[Word], index: &Index) -> Option<(Word, usize)> {
    for len in (2..=MAX_SPAN.min(words.len())).rev() {
        if let Some(joined) = join(&words[..len], index) {
            return Some((joined, len));
        }
    }
    None
}

/// `span` read as one word, when the vocabulary, the taxonomy or the lexicon knows
/// it as one: the joined readings first, then every combination of its words' own.
fn join(span: &[Word], index: &Index) -> Option<Word> {
    let mut alternatives = Vec::new();
    add(
        &mut alternatives,
        index,
        vec![joined_term(span, index)],
        JOINED_WEIGHT,
        Derivation::Joined,
    );
    let phrase = span.iter().map(|w| w.input.as_str()).collect::<Vec<_>>().join(" ");
    for name in phrase_names(span, &phrase) {
        named_readings(&name, index, &mut alternatives);
    }
    if alternatives.is_empty() {
        return None;
    }
    alternatives.extend(combinations(span));
    Some(Word {
        input: phrase,
        alternatives,
        keyboard: None,
        glued: None,
        stop: false,
        unread: span.iter().any(|w| w.unread),
    })
}

/// The span's words written together, each without its particle unless the
/// vocabulary knows it whole (재시도 is not 재시 + 도).
fn joined_term(span: &[Word], index: &Index) -> String {
    let base = |w: &Word| match index.df(&w.input) {
        Some(_) => w.input.clone(),
        None => particles::bare(&w.input).unwrap_or_else(|| w.input.clone()),
    };
    span.iter().map(base).collect()
}

/// The phrase as a name: its words as typed, the last one also without its
/// particle (`상태 페이지까지`); never a particle rule across words, which would
/// read `db 자동` as `db`.
fn phrase_names(span: &[Word], phrase: &str) -> Vec<String> {
    let mut names = vec![phrase.to_string()];
    if let Some(last) = span.last().and_then(|w| particles::bare(&w.input)) {
        let head = span[..span.len() - 1]
            .iter()
            .map(|w| w.input.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        names.push(format!("{head} {last}"));
    }
    names
}

/// Adds the facet values and the lexicon meanings that `name` names.
fn named_readings(name: &str, index: &Index, alts: &mut Vec<Alternative>) {
    facet_names(name, index, PHRASE_SYNONYM_WEIGHT, alts);
    for terms in index.lexicon_means(&squash(name)) {
        add(alts, index, terms, LEXICON_WEIGHT, Derivation::Lexicon);
    }
}

/// Every combination of the words' own readings (stopwords aside), strongest
/// first: a combination takes the weakest weight of its parts, and the derivation
/// of its last part that is not exact.
fn combinations(span: &[Word]) -> Vec<Alternative> {
    // The empty combination, which every word's readings extend; its weight is the
    // identity of `min`.
    let mut combos: Vec<Alternative> = vec![Alternative {
        terms: Vec::new(),
        facet: None,
        weight: 1.0,
        derivation: Derivation::Exact,
    }];
    for w in span.iter().filter(|w| !w.stop) {
        let own: Vec<&Alternative> = w
            .alternatives
            .iter()
            .filter(|a| a.facet.is_none())
            .take(OWN_READINGS)
            .collect();
        let mut next = Vec::new();
        for c in &combos {
            for a in &own {
                let mut terms = c.terms.clone();
                terms.extend(a.terms.iter().cloned());
                let derivation = if a.derivation == Derivation::Exact {
                    c.derivation
                } else {
                    a.derivation
                };
                next.push(Alternative {
                    terms,
                    facet: None,
                    weight: c.weight.min(a.weight),
                    derivation,
                });
            }
        }
        combos = next;
        combos.truncate(COMBINATIONS);
    }
    combos
}
