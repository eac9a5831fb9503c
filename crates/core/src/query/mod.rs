//! Query analysis: turns what a person typed into groups of words, and each group
//! into the ways it may match. Every step is lindera-free and runs in the browser
//! exactly as natively; the vocabulary of the index stands in for a dictionary.
//!
//! A query is a list of [`Word`]s (a word, or a few words read together), all of
//! which must match. A word matches an incident through any of its
//! [`Alternative`]s; an alternative matches when all of its terms (and its facet
//! value, if any) do. Alternatives come from, strongest first:
//!
//! * the word itself, normalised (`OOMKilled` → `oomkilled`), and its bare form by
//!   the shared particle table (`재시도를` → `재시도`, `삭제했다` → `삭제`);
//! * spacing: a word split over the vocabulary (`재시도증폭` → `재시도` + `증폭`,
//!   `가용영역` → `가용` + `영역`), and neighbouring words read as one
//!   (`로드 밸런서` → `로드밸런서`);
//! * the taxonomy: a word or phrase that names a facet value or one of its
//!   synonyms (`메모리 부족` → 증상 OOMKilled) also matches the incidents classified
//!   so;
//! * Latin and digit parts (`oom-killed` → `oom` + `killed`);
//! * search as you type: the last word as a prefix at the level of keys
//!   (`잿` → `재시도`, `재시작`);
//! * 초성: a word of initial consonants (`ㅈㅅㄷ` → `재시도`);
//! * 한/영 slips: Latin typed with the Korean layout in mind (`wotleh` → `재시도`);
//! * an acronym spelled in Hangul letter names (`디엔에스` → `dns`, `에이피아이` →
//!   `api`), for a word that is not a term itself;
//! * the domain lexicon (`data/lexicon.toml`): a word or phrase people type for
//!   what the records write otherwise (`깃허브` → `github`, `호주` → `australia` +
//!   `east`, `먹통` → `중단`, `certificate` → `인증서`);
//! * typos: a word that matches nothing, within one key of a vocabulary term or a
//!   lexicon form (`재시두` → `재시도`), two keys for long words
//!   (`클라우드플래어` → `클라우드플레어`), one or two letters for Latin words
//!   (`iptalbes` → `iptables`), ranked below exact matches;
//! * partial: a word that still matches nothing reaches the vocabulary terms it
//!   holds or begins (`대정전` → `정전`, `지워버렸다` → `지우`, `제하` → `제한`),
//!   weighted by how much of the word they cover. A partial match never makes a
//!   record a full match.
//!
//! Only vocabulary terms are looked up, which keeps filter false positives away
//! from words the corpus never uses. A query is cut to [`MAX_WORDS`] words of at
//! most [`MAX_WORD_CHARS`] characters, so that analysis costs the same for any input.
//!
//! This module holds the types and the order in which readings are tried
//! ([`analyze`]); each kind of reading has its own submodule: `direct` (as typed,
//! bare, stems, split, Latin parts), `verb_noun`, `segment`, `lexicon`, `taxonomy`,
//! `prefix` (completions and 초성), `typos`, `partial` and `spans` (words read
//! together).

mod direct;
mod glued;
mod letters;
mod lexicon;
mod partial;
mod prefix;
mod segment;
mod spans;
mod taxonomy;
mod typos;
mod verb_noun;

#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::index::Index;
use crate::text;
use crate::text::hangul;
use crate::text::particles;

use direct::direct;
use partial::expand_partial;
#[cfg(test)]
use prefix::{completions_within, COMPLETION_BLOCKS};
use prefix::{expand_initials, expand_prefix};
use spans::join_spans;
use taxonomy::facet_synonyms;
use typos::expand_typos;
pub use typos::typo_budget;

pub use glued::{script_pieces, space, Spacing};
pub use lexicon::lexicon_keys;
pub use prefix::completions;
pub use segment::segment;
pub use verb_noun::verb_noun;

pub use crate::weights::{
    BARE_WEIGHT, EXACT_WEIGHT, JOINED_WEIGHT, KNOWN_WORD_FACTOR, LEXICON_WEIGHT, PARTIAL_WEIGHT, PHRASE_SYNONYM_WEIGHT,
    PREFIX_WEIGHT, SEGMENT_WEIGHT, STEM_WEIGHT, SYNONYM_WEIGHT, TYPO_WEIGHT,
};

/// How an alternative was derived, for the UI's "how each word was understood".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Derivation {
    /// The word as typed (normalised).
    Exact,
    /// The word without its particle or ending.
    Bare,
    /// Neighbouring words read as one (`로드 밸런서` → `로드밸런서`).
    Joined,
    /// The word split over the vocabulary (`재시도증폭` → `재시도 증폭`).
    Segmented,
    /// A taxonomy value named by the word or phrase, or by one of its synonyms.
    Synonym,
    /// The word split into Latin and digit parts.
    Parts,
    /// A vocabulary term that the last word begins (search as you type).
    Prefix,
    /// A vocabulary term with the initial consonants typed (초성).
    Initials,
    /// A vocabulary term one key away from a word that matches nothing.
    Typo,
    /// A lexicon entry (`data/lexicon.toml`) that the word or phrase is a typed form of.
    Lexicon,
    /// A vocabulary term inside or begun by a word that matches nothing else.
    Partial,
}

impl Derivation {
    /// How a hit matched a word through this derivation, as responses say it.
    pub fn how(self) -> &'static str {
        match self {
            Derivation::Exact | Derivation::Joined | Derivation::Segmented => "exact",
            Derivation::Bare | Derivation::Parts => "stem",
            Derivation::Synonym => "synonym",
            Derivation::Lexicon => "lexicon",
            Derivation::Partial => "partial",
            Derivation::Prefix => "prefix",
            Derivation::Initials => "initials",
            Derivation::Typo => "typo",
        }
    }
}

/// A facet value that an alternative requires.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FacetRef {
    /// Facet key.
    pub facet: String,
    /// Value slug.
    pub slug: String,
    /// Korean label.
    pub ko: String,
    /// Facet position.
    #[serde(skip)]
    pub f: usize,
    /// Value position.
    #[serde(skip)]
    pub v: usize,
}

/// One way a query word may match.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Alternative {
    /// Terms that must all match.
    pub terms: Vec<String>,
    /// A facet value that must match instead, for taxonomy synonyms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facet: Option<FacetRef>,
    /// Multiplier on the score (1.0 for the exact word).
    pub weight: f32,
    /// Where it came from.
    pub derivation: Derivation,
}

/// A query word (or a few words read together) with its alternatives.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Word {
    /// The word(s) as they appeared after normalisation.
    pub input: String,
    /// Alternatives, strongest first. Empty when nothing in the corpus matches.
    pub alternatives: Vec<Alternative>,
    /// Set when the word was read as Korean typed with the English layout: the
    /// Hangul it was read as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyboard: Option<String>,
    /// Set when the word is one of several typed without spaces between them: the
    /// word as typed (`카카오톡장애` for `카카오톡` and `장애`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub glued: Option<String>,
    /// A stopword, kept only until phrases are read (`out of memory`).
    #[serde(skip)]
    pub stop: bool,
    /// The word's own vocabulary blocks are not all loaded yet: its readings, and
    /// the page ranked by them, are provisional.
    #[serde(skip)]
    pub unread: bool,
}

/// How to read the query.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Read the last word as a prefix (search as you type).
    pub prefix_last: bool,
}

/// The share of a Latin word that found nothing that known words must cover for
/// the spacing to stand in for it (`scri` + `pt` is not `script`); a Hangul word
/// that found nothing is spaced whenever a known word of two syllables is in it.
const GLUED_COVERAGE: f32 = 0.5;
/// A Latin word of this many characters that found nothing is taken for several
/// words when known words hold [`LONG_GLUED_COVERAGE`] of it (`scriptdeletedhundreds`).
const LONG_LATIN_GLUE: usize = 12;
const LONG_GLUED_COVERAGE: f32 = 0.3;
/// The share of a long glued word with guessed readings (typos, partial words)
/// that known words must cover for the spacing to stand in for the guesses.
const GUESSED_COVERAGE: f32 = 0.75;
/// Alternatives a prefix, 초성 or typo lookup adds at most.
const EXPANSIONS: usize = 8;
/// Words read together at most (`서비스 메시 사이드카`).
const MAX_SPAN: usize = 3;
/// Words of a query that are read; the rest are dropped ([`crate::search::Response::cut`]).
pub const MAX_WORDS: usize = 24;
/// Characters of a word that are read; a longer word is cut ([`crate::search::Response::cut`]).
pub const MAX_WORD_CHARS: usize = 40;

/// The words of normalised query text as the analysis reads them: the words of
/// [`text::words`], each cut where scripts meet ([`script_pieces`]: `DNS레코드가` →
/// `DNS` `레코드가`).
pub fn query_words(text: &str) -> impl Iterator<Item = &str> {
    text::words(text).flat_map(script_pieces)
}

/// Splits `query` into words and finds their alternatives in `index`.
pub fn analyze(query: &str, index: &Index, options: Options) -> Vec<Word> {
    // NFKC turns compatibility jamo (ㅈ) into conjoining ones; 초성 and typing
    // states are compared as compatibility jamo.
    let cased: String = text::nfkc(query).chars().map(hangul::to_compatibility).collect();
    let mut raws: Vec<&str> = Vec::new();
    for raw in query_words(&cased) {
        if raws.len() == MAX_WORDS {
            break;
        }
        let raw = match raw.char_indices().nth(MAX_WORD_CHARS) {
            Some((at, _)) => text::within(raw, ..at),
            None => raw,
        };
        let lower = text::lower(raw);
        if !particles::is_suffix_only(&lower) && !raws.iter().any(|r| text::lower(r) == lower) {
            raws.push(raw);
        }
    }
    let ends_open = options.prefix_last && !cased.ends_with(char::is_whitespace);
    let last = raws.len().saturating_sub(1);
    let singles: Vec<Word> = raws
        .iter()
        .enumerate()
        .flat_map(|(i, raw)| {
            let prefix = ends_open && i == last;
            let before = index.missing_count();
            let word = read_word(raw, index, prefix);
            // Spacing is for a word the vocabulary lacks, which is known only once
            // the word's own blocks are in: until then it waits for the next round,
            // and a word that turns out known never costs its pieces' blocks.
            if word.stop || index.missing_count() > before {
                return vec![word];
            }
            spaced(&word, index, prefix).unwrap_or_else(|| vec![word])
        })
        .collect();
    join_spans(singles, index).into_iter().filter(|w| !w.stop).collect()
}

/// One word as typed: a stopword, kept only until phrases are read (`out of
/// memory`) and then dropped, or the word with its alternatives.
fn read_word(raw: &str, index: &Index, prefix: bool) -> Word {
    let lower = text::lower(raw);
    let stop = particles::is_query_stopword(&lower)
        || particles::bare(&lower).is_some_and(|b| particles::is_query_stopword(&b));
    if stop {
        return Word {
            input: lower,
            alternatives: Vec::new(),
            keyboard: None,
            glued: None,
            stop: true,
            unread: false,
        };
    }
    single(raw, index, prefix)
}

/// The alternatives of one word.
fn single(raw: &str, index: &Index, prefix: bool) -> Word {
    let input = text::lower(raw);
    let mut alts = Vec::new();
    let before = index.missing_count();
    direct(&input, raw, index, &mut alts);
    // The readings below are for a word the vocabulary lacks. While its own blocks
    // are still being fetched that is not known yet: they wait for the next round.
    if index.missing_count() > before {
        return Word {
            input,
            alternatives: alts,
            keyboard: None,
            glued: None,
            stop: false,
            unread: true,
        };
    }
    let mut keyboard = None;
    if alts.is_empty() && input.chars().all(|c| c.is_ascii_alphabetic()) {
        // 한/영 slip: `wotleh` typed for 재시도.
        if let Some(hangul) = hangul::from_keyboard(raw).filter(|h| h.chars().any(hangul::is_hangul_syllable)) {
            let mut converted = Vec::new();
            direct(&hangul, &hangul, index, &mut converted);
            if prefix {
                expand_prefix(&hangul, index, &mut converted);
            }
            if converted.is_empty() {
                expand_typos(&hangul, index, &mut converted);
            }
            if !converted.is_empty() {
                alts = converted;
                keyboard = Some(hangul);
            }
        }
    }
    if keyboard.is_none() {
        if hangul::is_initials_query(&input) {
            expand_initials(&input, index, prefix, &mut alts);
        }
        if prefix {
            expand_prefix(&input, index, &mut alts);
        }
        if alts.is_empty() {
            // The word as typed first: a typo can look like a particle (브래인 is not 브래 + 인).
            expand_typos(&input, index, &mut alts);
            if alts.is_empty() {
                if let Some(bare) = particles::bare(&input) {
                    expand_typos(&bare, index, &mut alts);
                }
            }
        }
        if alts.is_empty() {
            expand_partial(&input, index, &mut alts);
        }
    }
    facet_synonyms(&input, index, SYNONYM_WEIGHT, &mut alts);
    Word {
        input,
        alternatives: alts,
        keyboard,
        glued: None,
        stop: false,
        unread: false,
    }
}

/// True when `word`'s readings are only guesses (typos, partial words) or its split
/// over the vocabulary, or there are none: a word typed without its spaces reads
/// better as the words it holds, each of which may match alone (a split reading
/// matches only the incidents that hold every piece). A completion of the word
/// being typed, or a 초성 reading, is what the word was meant to be.
fn only_guesses(word: &Word) -> bool {
    word.alternatives.iter().all(|a| {
        matches!(
            a.derivation,
            Derivation::Typo | Derivation::Partial | Derivation::Segmented | Derivation::Parts
        )
    })
}

/// `word` read as the words typed together in it ([`glued::space`]), each as if
/// typed with a space before it. Only a word without a reading of its own (beyond
/// guesses and its split over the vocabulary) is spaced: a word that found nothing
/// at all (a Latin one when known words hold half of it), a word read only as split
/// when every word of the spacing is known, and a long word read only by guesses
/// when known words hold three quarters of it. `None` keeps the word as it is.
fn spaced(word: &Word, index: &Index, prefix: bool) -> Option<Vec<Word>> {
    if word.stop || word.keyboard.is_some() || !only_guesses(word) {
        return None;
    }
    let split = |a: &Alternative| matches!(a.derivation, Derivation::Segmented | Derivation::Parts);
    let split_only = !word.alternatives.is_empty() && word.alternatives.iter().all(split);
    // A word read by guesses is one word mistyped more often than several typed
    // together, unless it is as long as several words: a short one is not even
    // looked at (its pieces would cost the browser vocabulary blocks for nothing),
    // but for a negation typed against its verb.
    let chars = word.input.chars().count();
    let long = chars >= if word.input.is_ascii() { 10 } else { 6 };
    let guessed = !word.alternatives.is_empty() && !split_only;
    if guessed && (!long || word.alternatives.iter().any(split)) {
        let spacing = glued::negated(&word.input, index)?;
        return Some(spacing_words(word, &spacing, index, prefix));
    }
    let Some(spacing) = space(&word.input, index) else {
        return keyboard_spaced(word, index, prefix);
    };
    let accepted = if word.alternatives.is_empty() {
        !word.input.is_ascii()
            || spacing.coverage >= GLUED_COVERAGE
            || chars >= LONG_LATIN_GLUE && spacing.coverage >= LONG_GLUED_COVERAGE
    } else if split_only || glued::is_negation(&spacing) {
        spacing.known
    } else {
        spacing.coverage >= GUESSED_COVERAGE
    };
    accepted.then(|| spacing_words(word, &spacing, index, prefix))
}

/// The words of `spacing`, each read as if typed with a space before it, marked as
/// typed together in `word`.
fn spacing_words(word: &Word, spacing: &Spacing, index: &Index, prefix: bool) -> Vec<Word> {
    let last = spacing.words.len() - 1;
    spacing
        .words
        .iter()
        .enumerate()
        .map(|(i, w)| Word {
            glued: Some(word.input.clone()),
            ..read_word(w, index, prefix && i == last)
        })
        .collect()
}

/// A Latin word that found nothing, read as Korean typed on the English layout and
/// run together (`rltfoqepdlxjqpdltm` → `기술데이터베이스`): the spacing of the
/// Hangul, when known words hold half of it.
fn keyboard_spaced(word: &Word, index: &Index, prefix: bool) -> Option<Vec<Word>> {
    if !word.alternatives.is_empty() || !word.input.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let hangul = hangul::from_keyboard(&word.input).filter(|h| h.chars().all(hangul::is_hangul_syllable))?;
    let spacing = space(&hangul, index).filter(|s| s.coverage >= GLUED_COVERAGE)?;
    let mut words = spacing_words(word, &spacing, index, prefix);
    for w in &mut words {
        w.keyboard = Some(w.input.clone());
    }
    Some(words)
}

/// Adds an alternative when every term is in the vocabulary and it is new.
fn add(alts: &mut Vec<Alternative>, index: &Index, terms: Vec<String>, weight: f32, derivation: Derivation) {
    if !terms.is_empty()
        && terms.iter().all(|t| index.df(t).is_some())
        && !alts.iter().any(|a| a.facet.is_none() && a.terms == terms)
    {
        alts.push(Alternative {
            terms,
            facet: None,
            weight,
            derivation,
        });
    }
}

/// The `limit` most frequent of `found`, ties to the shorter, then alphabetical.
fn best(mut found: Vec<(String, u64)>, limit: usize) -> Vec<(String, u64)> {
    crate::stable_sort::sort_by(&mut found, |a, b| {
        b.1.cmp(&a.1).then(a.0.len().cmp(&b.0.len())).then(a.0.cmp(&b.0))
    });
    found.truncate(limit);
    found
}
