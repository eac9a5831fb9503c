//! The direct readings of a word: as typed, without its particle or ending, its
//! predicate stems and the noun of a 하다 verb, split over the vocabulary, its Latin
//! and digit parts, and what the lexicon says it means.

use super::letters::spelled;
use super::lexicon::lexicon;
use super::segment::segment;
use super::verb_noun::verb_noun;
use super::{add, Alternative, Derivation};
use super::{BARE_WEIGHT, EXACT_WEIGHT, KNOWN_WORD_FACTOR, LEXICON_WEIGHT, SEGMENT_WEIGHT, STEM_WEIGHT};
use crate::index::Index;
use crate::text::hangul;
use crate::text::particles;
use crate::text::{self, Script};

/// Exact, bare, segmented and Latin-part alternatives.
pub(super) fn direct(input: &str, raw: &str, index: &Index, alts: &mut Vec<Alternative>) {
    add(alts, index, vec![input.to_string()], EXACT_WEIGHT, Derivation::Exact);
    // When the word itself is a term, a shorter reading of it is most likely a
    // mis-split (인증서 is not 인증 + the particle 서): it counts for much less.
    let known = if index.df(input).is_some() {
        KNOWN_WORD_FACTOR
    } else {
        1.0
    };
    let bare = particles::bare(input);
    if let Some(b) = &bare {
        add(alts, index, vec![b.clone()], BARE_WEIGHT * known, Derivation::Bare);
    }
    // Predicate forms the table leaves whole: a final ㄴ/ㄹ/ㅁ (들어간, 멈춤, 끊김) or a
    // fused vowel (떨어져) on the stem that the index holds (들어가, 멈추, 끊기, 떨어지).
    for stem in particles::stems(bare.as_deref().unwrap_or(input)) {
        add(alts, index, vec![stem], STEM_WEIGHT * known, Derivation::Bare);
    }
    // A noun made a verb with 하다, 되다 or 시키다, in any ending (재시작했더니,
    // 배포하다가, 삭제됐는데): the noun, when the vocabulary has it.
    if let Some(noun) = verb_noun(input).filter(|n| index.df(n).is_some()) {
        add(alts, index, vec![noun], STEM_WEIGHT * known, Derivation::Bare);
    }
    let base = bare.as_deref().unwrap_or(input);
    // An acronym spelled in Hangul (`디엔에스가` → `dns`), for a word that is not a
    // term itself: its pieces (`에스`) are then no reading of it.
    let before = alts.len();
    if alts.is_empty() {
        if let Some(acronym) = spelled(base) {
            add(alts, index, vec![acronym], LEXICON_WEIGHT, Derivation::Lexicon);
        }
    }
    let letters = alts.len() > before;
    if !letters && base.chars().filter(|&c| hangul::is_hangul_syllable(c)).count() >= 3 {
        if let Some(parts) = segment(base, index) {
            add(alts, index, parts, SEGMENT_WEIGHT, Derivation::Segmented);
        }
    }
    if alts.is_empty()
        && base
            .chars()
            .any(|c| matches!(text::script(c), Script::Latin | Script::Digit))
    {
        let cased = if base == input {
            raw.to_string()
        } else {
            base.to_string()
        };
        add(
            alts,
            index,
            text::latin_parts(&cased),
            SEGMENT_WEIGHT,
            Derivation::Parts,
        );
    }
    lexicon(input, index, LEXICON_WEIGHT, Derivation::Lexicon, alts);
}
