//! Spacing across words: neighbouring words read as one (`로드 밸런서` →
//! `로드밸런서`) where the vocabulary, the taxonomy or the lexicon knows them so.

use super::taxonomy::facet_names;
use super::{add, Alternative, Derivation, Word, LEXICON_WEIGHT, MAX_SPAN};
use crate::index::{squash, Index};
use crate::text::particles;

/// Reads neighbouring words together where the vocabulary or the taxonomy knows
/// them as one (`로드 밸런서`, `메모리 부족`): the span becomes one word whose
/// alternatives are the joined reading and every combination of its words'.
pub(super) fn join_spans(words: Vec<Word>, index: &Index) -> Vec<Word> {
    let mut out = Vec::new();
    let mut i = 0;
    'outer: while i < words.len() {
        for len in (2..=MAX_SPAN.min(words.len() - i)).rev() {
            let span = &words[i..i + len];
            // A word the vocabulary knows stays whole (재시도 is not 재시 + 도).
            let base = |w: &Word| match index.df(&w.input) {
                Some(_) => w.input.clone(),
                None => particles::bare(&w.input).unwrap_or_else(|| w.input.clone()),
            };
            let mut joined_alts = Vec::new();
            let joined: String = span.iter().map(base).collect();
            add(&mut joined_alts, index, vec![joined.clone()], 1.0, Derivation::Joined);
            let phrase = span.iter().map(|w| w.input.as_str()).collect::<Vec<_>>().join(" ");
            // The phrase as a name: its words as typed, the last one also without its
            // particle (`상태 페이지까지`); never a particle rule across words, which
            // would read `db 자동` as `db`.
            let mut names = vec![phrase.clone()];
            if let Some(last) = span.last().and_then(|w| particles::bare(&w.input)) {
                let head = span[..len - 1]
                    .iter()
                    .map(|w| w.input.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                names.push(format!("{head} {last}"));
            }
            for name in &names {
                facet_names(name, index, 1.0, &mut joined_alts);
                for terms in index.lexicon_means(&squash(name)) {
                    add(
                        &mut joined_alts,
                        index,
                        terms.clone(),
                        LEXICON_WEIGHT,
                        Derivation::Lexicon,
                    );
                }
            }
            if joined_alts.is_empty() {
                continue;
            }
            // Every combination of the words' own readings, strongest first.
            let mut combos: Vec<Alternative> = vec![Alternative {
                terms: Vec::new(),
                facet: None,
                weight: 1.0,
                derivation: Derivation::Exact,
            }];
            for w in span.iter().filter(|w| !w.stop) {
                let own: Vec<&Alternative> = w.alternatives.iter().filter(|a| a.facet.is_none()).take(3).collect();
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
                combos.truncate(6);
            }
            joined_alts.extend(combos);
            out.push(Word {
                input: phrase,
                alternatives: joined_alts,
                keyboard: None,
                stop: false,
            });
            i += len;
            continue 'outer;
        }
        out.push(words[i].clone());
        i += 1;
    }
    out
}
