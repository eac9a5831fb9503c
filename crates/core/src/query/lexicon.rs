//! The domain lexicon (`data/lexicon.toml`) as the query reads it: the keys a typed
//! form is stored and looked up under, and the readings a lexicon entry gives.

use super::{add, Alternative, Derivation};
use crate::index::{squash, Index};
use crate::text::hangul;
use crate::text::particles;

/// The forms under which the lexicon stores a typed form, and under which the
/// query looks a word up: normalised without spaces, then without its particle or
/// ending, then its predicate stems (`날렸다` → `날렸다`, `날리`).
pub fn lexicon_keys(form: &str) -> Vec<String> {
    let squashed = squash(form);
    if squashed.is_empty() {
        return Vec::new();
    }
    let bare = particles::bare(&squashed);
    let mut candidates = vec![squashed.clone()];
    if let Some(b) = &bare {
        candidates.push(b.clone());
    }
    // A verb in its dictionary form (`뻗다`) is also its stem, whose conjugations
    // (`뻗었다`) the particle table takes back to it.
    if let Some(stem) = squashed.strip_suffix('다') {
        candidates.push(stem.to_string());
    }
    for stem in particles::stems(bare.as_deref().unwrap_or(&squashed)) {
        candidates.push(stem);
    }
    // Plain loops, no std set: generic code weighs in the browser module.
    let mut keys: Vec<String> = Vec::with_capacity(candidates.len());
    for k in candidates {
        let hangul_only = k.chars().all(hangul::is_hangul_syllable);
        if !k.is_empty() && (hangul_only || k.chars().count() >= 2) && !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys
}

/// Adds what the lexicon says `phrase` means, one alternative per meaning.
pub(super) fn lexicon(phrase: &str, index: &Index, weight: f32, derivation: Derivation, alts: &mut Vec<Alternative>) {
    for key in lexicon_keys(phrase) {
        for terms in index.lexicon_means(&key) {
            add(alts, index, terms, weight, derivation);
        }
    }
}
