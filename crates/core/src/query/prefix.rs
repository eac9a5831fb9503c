//! Search as you type and 초성: the vocabulary terms that a word cut off while
//! typing may become (`잿` → `재시도`), and those whose initial consonants were typed
//! (`ㅈㅅㄷ` → `재시도`).

use super::lexicon::lexicon;
use super::{add, best, Alternative, Derivation, EXPANSIONS, PREFIX_WEIGHT};
use crate::index::Index;
use crate::text::hangul;

/// Vocabulary terms in `[lo, hi)` that satisfy `keep`, most frequent first.
fn scan(index: &Index, lo: &str, hi: &str, keep: impl Fn(&str) -> bool, limit: usize) -> Vec<(String, u64)> {
    let found = index
        .vocab_range(lo, hi)
        .into_iter()
        .filter(|(term, _)| keep(term))
        .map(|(term, postings)| (term.to_string(), postings.df()))
        .collect();
    best(found, limit)
}

/// Vocabulary terms that `word` is a typing state of, most frequent first. Only
/// the vocabulary range that the word's last character can still grow into is read.
pub fn completions(word: &str, index: &Index, limit: usize) -> Vec<(String, u64)> {
    let keys = hangul::keys(word);
    let Some((at, last)) = word.char_indices().last() else {
        return Vec::new();
    };
    let stem = &word[..at];
    let (lo, hi) = match hangul::syllable_block(last) {
        Some((first, end)) => (
            format!("{stem}{first}"),
            format!("{stem}{}", char::from_u32(end as u32 + 1).unwrap_or(end)),
        ),
        None => (word.to_string(), format!("{word}\u{10FFFF}")),
    };
    // The word's keys fit in a term's first characters: as many as the word has,
    // and one more for a final consonant that moves on (잿 in 재시도). Only those
    // are keyed, not the whole term (a range holds thousands in a large library).
    let chars = word.chars().count() + 1;
    scan(
        index,
        &lo,
        &hi,
        |t| {
            let head = t.char_indices().nth(chars).map_or(t, |(at, _)| &t[..at]);
            t != word && hangul::is_typing_prefix(&keys, &hangul::keys(head))
        },
        limit,
    )
}

pub(super) fn expand_prefix(word: &str, index: &Index, alts: &mut Vec<Alternative>) {
    for (term, _) in completions(word, index, EXPANSIONS) {
        add(alts, index, vec![term], PREFIX_WEIGHT, Derivation::Prefix);
    }
}

pub(super) fn expand_initials(word: &str, index: &Index, prefix: bool, alts: &mut Vec<Alternative>) {
    let wanted: Vec<char> = word.chars().collect();
    // Terms are filed under their first two initials (crate::near).
    let keys: Vec<String> = crate::near::initials_key(&wanted).into_iter().collect();
    let found = index
        .near_terms(&keys)
        .into_iter()
        .filter(|k| {
            k.initials.as_ref().is_some_and(|ini| {
                if prefix {
                    ini.starts_with(&wanted)
                } else {
                    *ini == wanted
                }
            })
        })
        .map(|k| (k.term.clone(), k.df))
        .collect();
    for (term, _) in best(found, EXPANSIONS) {
        add(alts, index, vec![term], PREFIX_WEIGHT, Derivation::Initials);
    }
    // The initials of a lexicon form (ㅋㄹㅇㄷㅍㄹㅇ for 클라우드플레어).
    for k in index.keyed_lexicon() {
        if k.initials
            .as_ref()
            .is_some_and(|ini| *ini == wanted || prefix && ini.starts_with(&wanted))
        {
            lexicon(&k.term, index, PREFIX_WEIGHT, Derivation::Initials, alts);
        }
    }
}
