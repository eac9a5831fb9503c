//! Partial readings: the vocabulary terms inside or begun by a word that matches
//! nothing else (`대정전` → `정전`, `certif` → `certificate`).

use super::prefix::completions;
use super::{add, Alternative, Derivation, PARTIAL_WEIGHT};
use crate::index::Index;
use crate::text::hangul;
use crate::text::particles;

/// Vocabulary terms that a word matching nothing else holds or begins: the longest
/// term (or predicate stem) it starts with, terms inside it, and, for a word cut
/// off while typing, the terms it begins. Each is weighted by the share of the word
/// it covers.
pub(super) fn expand_partial(word: &str, index: &Index, alts: &mut Vec<Alternative>) {
    let chars: Vec<char> = word.chars().collect();
    let n = chars.len();
    if n < 2 && !chars.first().is_some_and(|&c| hangul::is_hangul_syllable(c)) {
        return;
    }
    let hangul = chars.iter().all(|&c| hangul::is_hangul_syllable(c));
    let mut found: Vec<(String, f32)> = Vec::new();
    let mut keep = |term: String, share: f32| {
        if term.chars().count() >= 2 {
            found.push((term, share));
        }
    };
    if hangul && n >= 2 {
        // The longest head that is a term, or whose stem is (지워버렸다 → 지워 → 지우).
        'heads: for end in (2..n).rev() {
            let head: String = chars[..end].iter().collect();
            for candidate in std::iter::once(head.clone()).chain(particles::stems(&head)) {
                if index.df(&candidate).is_some() && candidate.chars().count() >= 2 {
                    keep(candidate, end as f32 / n as f32);
                    break 'heads;
                }
            }
        }
        // Terms of two syllables or more inside the word (대정전 → 정전).
        for start in 1..n.saturating_sub(1) {
            for end in (start + 2..=n).rev() {
                let piece: String = chars[start..end].iter().collect();
                if index.df(&piece).is_some() {
                    keep(piece, (end - start) as f32 / n as f32);
                    break;
                }
            }
        }
    }
    if n >= if hangul { 1 } else { 4 } {
        // Cut off while typing (제하 → 제한, certif → certificate), when nothing
        // inside the word is a term.
        let inside = !found.is_empty();
        for (term, _) in completions(word, index, 3) {
            if inside {
                break;
            }
            let share = n as f32 / term.chars().count().max(1) as f32;
            found.push((term, share.min(1.0)));
        }
    }
    crate::stable_sort::sort_by(&mut found, |a, b| b.1.total_cmp(&a.1));
    for (term, share) in found.into_iter().take(3) {
        add(alts, index, vec![term], PARTIAL_WEIGHT * share, Derivation::Partial);
    }
}
