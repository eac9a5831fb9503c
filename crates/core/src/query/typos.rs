//! Typos: a word that matches nothing, read as the vocabulary terms or lexicon forms
//! within a few edits of it (`재시두` → `재시도`). Hangul is compared by 2-set
//! keyboard keys ([`hangul::edit_distance`]); the key signature, the length and the
//! key count rule out most of the vocabulary before any distance is computed.

use super::lexicon::lexicon;
use super::{add, best, Alternative, Derivation, EXPANSIONS, TYPO_WEIGHT};
use crate::index::{Index, KeyedTerm};
use crate::text::hangul;

/// Edits a typo may have: Hangul by 2-set keys (one from 4 keys, two from 10),
/// Latin by letters (one from 5, two from 8); shorter words none, since they are
/// one edit away from too much.
pub fn typo_budget(word: &str) -> usize {
    if word.chars().any(hangul::is_hangul_syllable) {
        match hangul::keys(word).len() {
            0..=3 => 0,
            4..=9 => 1,
            _ => 2,
        }
    } else if word.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        match word.chars().filter(char::is_ascii_alphabetic).count() {
            0..=4 => 0,
            5..=7 => 1,
            _ => 2,
        }
    } else {
        0
    }
}

pub(super) fn expand_typos(word: &str, index: &Index, alts: &mut Vec<Alternative>) {
    let max = typo_budget(word);
    if max == 0 {
        return;
    }
    let keys = hangul::keys(word);
    let signature = hangul::signature(&keys);
    let len = word.chars().count();
    let near = |k: &KeyedTerm| {
        if k.chars.abs_diff(len) > max
            || k.keys.len().abs_diff(keys.len()) > max
            || (k.signature ^ signature).count_ones() as usize > 2 * max
        {
            return None;
        }
        hangul::edit_distance(&keys, &k.keys, max)
    };
    // The nearest first: one edit beats two whatever the frequency.
    let mut found: Vec<(String, u64)> = Vec::new();
    let mut closest = max + 1;
    // Only the terms that keep one end of the word can be this near (crate::near).
    for k in index.near_terms(&crate::near::typo_lookup_keys(&keys, max, index.meta.near_band)) {
        if let Some(d) = near(k) {
            if d < closest {
                closest = d;
                found.clear();
            }
            if d == closest {
                found.push((k.term.clone(), k.df));
            }
        }
    }
    for (term, _) in best(found, EXPANSIONS) {
        add(alts, index, vec![term], TYPO_WEIGHT, Derivation::Typo);
    }
    // A lexicon form typed wrong (클라우드플래어 for 클라우드플레어).
    if alts.is_empty() {
        let forms: Vec<&KeyedTerm> = index
            .keyed_lexicon()
            .iter()
            .filter(|k| near(k).is_some())
            .take(EXPANSIONS)
            .collect();
        for form in forms {
            lexicon(&form.term, index, TYPO_WEIGHT, Derivation::Typo, alts);
        }
    }
}
