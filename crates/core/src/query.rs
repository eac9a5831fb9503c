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

use serde::Serialize;

use crate::index::{squash, Index};
use crate::text::hangul;
use crate::text::particles;
use crate::text::{self, Script};

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
    /// A stopword, kept only until phrases are read (`out of memory`).
    #[serde(skip)]
    pub stop: bool,
}

/// How to read the query.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Read the last word as a prefix (search as you type).
    pub prefix_last: bool,
}

/// Alternatives a prefix, 초성 or typo lookup adds at most.
const EXPANSIONS: usize = 8;
/// Words read together at most (`서비스 메시 사이드카`).
const MAX_SPAN: usize = 3;
/// Words of a query that are read; the rest are dropped ([`Analysis::cut`]).
pub const MAX_WORDS: usize = 24;
/// Characters of a word that are read; a longer word is cut ([`Analysis::cut`]).
pub const MAX_WORD_CHARS: usize = 40;

/// Weight of the bare form (`재시도를` → `재시도`).
pub const BARE_WEIGHT: f32 = 0.9;
/// Weight of a predicate stem (`멈춤` → `멈추`).
pub const STEM_WEIGHT: f32 = 0.85;
/// Factor on the bare and stem readings of a word that is itself a term.
pub const KNOWN_WORD_FACTOR: f32 = 0.4;
/// Weight of a word split over the vocabulary, and of Latin parts.
pub const SEGMENT_WEIGHT: f32 = 0.8;
/// Weight of a lexicon reading.
pub const LEXICON_WEIGHT: f32 = 0.85;
/// Weight of a taxonomy value named by one word (a phrase that names one: 1.0).
pub const SYNONYM_WEIGHT: f32 = 0.9;
/// Weight of a completion, a 초성 reading.
pub const PREFIX_WEIGHT: f32 = 0.7;
/// Weight of a typo reading.
pub const TYPO_WEIGHT: f32 = 0.6;
/// Weight of a partial reading that covers the whole word; less for less.
pub const PARTIAL_WEIGHT: f32 = 0.5;

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

/// Splits `query` into words and finds their alternatives in `index`.
pub fn analyze(query: &str, index: &Index, options: Options) -> Vec<Word> {
    // NFKC turns compatibility jamo (ㅈ) into conjoining ones; 초성 and typing
    // states are compared as compatibility jamo.
    let cased: String = text::nfkc(query).chars().map(hangul::to_compatibility).collect();
    let mut raws: Vec<&str> = Vec::new();
    for raw in text::words(&cased) {
        if raws.len() == MAX_WORDS {
            break;
        }
        let raw = match raw.char_indices().nth(MAX_WORD_CHARS) {
            Some((at, _)) => &raw[..at],
            None => raw,
        };
        let lower = text::lower(raw);
        if !particles::is_suffix_only(&lower) && !raws.iter().any(|r| text::lower(r) == lower) {
            raws.push(raw);
        }
    }
    let ends_open = options.prefix_last && !cased.ends_with(char::is_whitespace);
    let singles: Vec<Word> = raws
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            let lower = text::lower(raw);
            let stop = particles::is_query_stopword(&lower)
                || particles::bare(&lower).is_some_and(|b| particles::is_query_stopword(&b));
            if stop {
                // Kept until phrases are read (`out of memory`), then dropped.
                Word {
                    input: lower,
                    alternatives: Vec::new(),
                    keyboard: None,
                    stop: true,
                }
            } else {
                single(raw, index, ends_open && i + 1 == raws.len())
            }
        })
        .collect();
    join_spans(singles, index).into_iter().filter(|w| !w.stop).collect()
}

/// The alternatives of one word.
fn single(raw: &str, index: &Index, prefix: bool) -> Word {
    let input = text::lower(raw);
    let mut alts = Vec::new();
    direct(&input, raw, index, &mut alts);
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
        stop: false,
    }
}

/// Exact, bare, segmented and Latin-part alternatives.
fn direct(input: &str, raw: &str, index: &Index, alts: &mut Vec<Alternative>) {
    add(alts, index, vec![input.to_string()], 1.0, Derivation::Exact);
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
    if base.chars().filter(|&c| hangul::is_hangul_syllable(c)).count() >= 3 {
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

/// The noun of a 하다, 되다 or 시키다 verb (`재시작했더니` → `재시작`): the word before
/// the first syllable that begins such an ending, when at least two characters stand
/// before it.
pub fn verb_noun(word: &str) -> Option<String> {
    const STARTS: [char; 15] = [
        '하', '했', '해', '한', '할', '함', '합', '되', '됐', '돼', '된', '될', '됨', '됩', '시',
    ];
    let chars: Vec<char> = word.chars().collect();
    let at = (2..chars.len()).find(|&i| STARTS.contains(&chars[i]))?;
    if chars[at] == '시' && chars.get(at + 1).is_none_or(|&c| !matches!(c, '키' | '켜' | '켰')) {
        return None;
    }
    Some(chars[..at].iter().collect())
}

/// Adds what the lexicon says `phrase` means, one alternative per meaning.
fn lexicon(phrase: &str, index: &Index, weight: f32, derivation: Derivation, alts: &mut Vec<Alternative>) {
    for key in lexicon_keys(phrase) {
        for terms in index.lexicon_means(&key) {
            add(alts, index, terms.clone(), weight, derivation);
        }
    }
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

/// Splits a Hangul word into the fewest vocabulary terms of at least two
/// syllables each (`재시도증폭` → `재시도` + `증폭`), when it splits at all.
pub fn segment(word: &str, index: &Index) -> Option<Vec<String>> {
    let chars: Vec<char> = word.chars().collect();
    let n = chars.len();
    // best[i]: fewest pieces covering chars[..i], with the piece boundaries.
    let mut best: Vec<Option<(usize, usize)>> = vec![None; n + 1];
    best[0] = Some((0, 0));
    for end in 2..=n {
        for start in 0..=end - 2 {
            let Some((count, _)) = best[start] else { continue };
            if start == 0 && end == n {
                continue; // the whole word is not a split
            }
            let piece: String = chars[start..end].iter().collect();
            if index.df(&piece).is_some() && best[end].is_none_or(|(c, _)| count + 1 < c) {
                best[end] = Some((count + 1, start));
            }
        }
    }
    let (count, _) = best[n]?;
    if count < 2 {
        return None;
    }
    let mut pieces = Vec::new();
    let mut end = n;
    while end > 0 {
        let (_, start) = best[end]?;
        pieces.push(chars[start..end].iter().collect());
        end = start;
    }
    pieces.reverse();
    Some(pieces)
}

/// The `limit` most frequent of `found`, ties to the shorter, then alphabetical.
fn best(mut found: Vec<(String, u64)>, limit: usize) -> Vec<(String, u64)> {
    crate::sort::sort_by(&mut found, |a, b| {
        b.1.cmp(&a.1).then(a.0.len().cmp(&b.0.len())).then(a.0.cmp(&b.0))
    });
    found.truncate(limit);
    found
}

/// Vocabulary terms in `[lo, hi)` that satisfy `keep`, most frequent first.
fn scan(index: &Index, lo: &str, hi: &str, keep: impl Fn(&str) -> bool, limit: usize) -> Vec<(String, u64)> {
    let found = index
        .vocab
        .range(lo, hi)
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
    scan(
        index,
        &lo,
        &hi,
        |t| t != word && hangul::is_typing_prefix(&keys, &hangul::keys(t)),
        limit,
    )
}

fn expand_prefix(word: &str, index: &Index, alts: &mut Vec<Alternative>) {
    for (term, _) in completions(word, index, EXPANSIONS) {
        add(alts, index, vec![term], PREFIX_WEIGHT, Derivation::Prefix);
    }
}

fn expand_initials(word: &str, index: &Index, prefix: bool, alts: &mut Vec<Alternative>) {
    let wanted: Vec<char> = word.chars().collect();
    let found = index
        .keyed_terms()
        .iter()
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

/// Edits a typo may have: Hangul by 2-set keys (one from 4 keys, two from 10),
/// Latin by letters (one from 5, two from 8); shorter words none, since they are
/// one edit away from too much.
fn typo_budget(word: &str) -> usize {
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

fn expand_typos(word: &str, index: &Index, alts: &mut Vec<Alternative>) {
    let max = typo_budget(word);
    if max == 0 {
        return;
    }
    let keys = hangul::keys(word);
    let signature = hangul::signature(&keys);
    let len = word.chars().count();
    let near = |k: &crate::index::KeyedTerm| {
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
    for k in index.keyed_terms() {
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
        let forms: Vec<&crate::index::KeyedTerm> = index
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

/// Vocabulary terms that a word matching nothing else holds or begins: the longest
/// term (or predicate stem) it starts with, terms inside it, and, for a word cut
/// off while typing, the terms it begins. Each is weighted by the share of the word
/// it covers.
fn expand_partial(word: &str, index: &Index, alts: &mut Vec<Alternative>) {
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
    crate::sort::sort_by(&mut found, |a, b| b.1.total_cmp(&a.1));
    for (term, share) in found.into_iter().take(3) {
        add(alts, index, vec![term], PARTIAL_WEIGHT * share, Derivation::Partial);
    }
}

/// Adds the facet values that the word `phrase` names (label or synonym), as typed
/// or without its particle, as alternatives.
fn facet_synonyms(phrase: &str, index: &Index, weight: f32, alts: &mut Vec<Alternative>) {
    let q = squash(phrase);
    facet_names(&q, index, weight, alts);
    if let Some(bare) = particles::bare(&q) {
        facet_names(&bare, index, weight, alts);
    }
}

/// Adds the facet values that `name` names exactly (compared squashed).
fn facet_names(name: &str, index: &Index, weight: f32, alts: &mut Vec<Alternative>) {
    let q = squash(name);
    if q.chars().count() < 2 {
        return;
    }
    for n in &index.names {
        let named = n.squashed == q;
        if named
            && !alts
                .iter()
                .any(|a| a.facet.as_ref().is_some_and(|r| r.f == n.f && r.v == n.v))
        {
            let (facet, value) = (&index.meta.facets[n.f], &index.meta.facets[n.f].values[n.v]);
            let facet_ref = FacetRef {
                facet: facet.key.clone(),
                slug: value.slug.clone(),
                ko: value.ko.clone(),
                f: n.f,
                v: n.v,
            };
            alts.push(Alternative {
                terms: Vec::new(),
                facet: Some(facet_ref),
                weight,
                derivation: Derivation::Synonym,
            });
        }
    }
}

/// Reads neighbouring words together where the vocabulary or the taxonomy knows
/// them as one (`로드 밸런서`, `메모리 부족`): the span becomes one word whose
/// alternatives are the joined reading and every combination of its words'.
fn join_spans(words: Vec<Word>, index: &Index) -> Vec<Word> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitset::Bitset;
    use crate::index::{Facet, FacetValue, Meta, FACETS};

    /// An index with only a vocabulary and a taxonomy: enough for analysis.
    fn index(terms: &[&str]) -> Index {
        let mut sorted: Vec<&str> = terms.to_vec();
        sorted.sort();
        sorted.dedup();
        let docs = [0u32, 1, 2];
        let vocab = crate::vocab::encode(sorted.iter().map(|t| (*t, &docs[..])), 3);
        let value = |slug: &str, ko: &str, syn: &[&str]| FacetValue {
            slug: slug.into(),
            ko: ko.into(),
            en: slug.into(),
            synonyms: syn.iter().map(|s| s.to_string()).collect(),
            docs: Bitset::empty(3),
        };
        let mut facets: Vec<Facet> = FACETS
            .iter()
            .map(|(k, ko, en)| Facet {
                key: k.to_string(),
                ko: ko.to_string(),
                en: en.to_string(),
                values: vec![],
            })
            .collect();
        facets[2].values.push(value(
            "oom-killed",
            "OOMKilled",
            &["OOM", "메모리 부족", "out of memory"],
        ));
        facets[1].values.push(value(
            "cloud-load-balancer",
            "클라우드 로드 밸런서",
            &["로드 밸런서", "LB"],
        ));
        let meta = Meta {
            corpus_date: String::new(),
            facets,
            vocab,
            ids: vec!["a".into(), "b".into(), "c".into()],
            days: vec![0; 3],
            common: vec![],
            lengths: vec![1; 3],
            lexicon: vec![],
            chunks: vec![crate::index::ChunkRef {
                filters: "filters-0000.bin".into(),
                len: 3,
            }],
            listing_chunk: 1,
        };
        let none = crate::membership::TermFilter::build(&[]).to_lookup().unwrap();
        Index::from_parts(meta, vec![none]).unwrap()
    }

    fn terms_of(w: &Word) -> Vec<String> {
        w.alternatives
            .iter()
            .filter(|a| a.facet.is_none())
            .map(|a| a.terms.join("+"))
            .collect()
    }

    const VOCAB: &[&str] = &[
        "재시도",
        "재시작",
        "재시",
        "장소도",
        "증폭",
        "재시도증폭",
        "캐시",
        "비우",
        "배포",
        "가용",
        "영역",
        "로드밸런서",
        "로드",
        "밸런서",
        "oomkilled",
        "oom",
        "killed",
        "http",
        "5xx",
        "us-east-1",
        "메모리",
        "부족",
        "삭제",
    ];

    #[test]
    fn particles_and_endings_reach_the_bare_term() {
        let idx = index(VOCAB);
        let w = analyze("재시도를 캐시가 비우는 삭제했다", &idx, Options::default());
        assert_eq!(
            w.iter().map(|w| terms_of(w)[0].clone()).collect::<Vec<_>>(),
            ["재시도", "캐시", "비우", "삭제"]
        );
        assert_eq!(w[0].alternatives[0].derivation, Derivation::Bare);
    }

    #[test]
    fn spacing_either_way() {
        let idx = index(VOCAB);
        let w = analyze("가용영역", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["가용+영역"]);
        let w = analyze("재시도증폭", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["재시도증폭", "재시도+증폭"]);
        let w = analyze("로드 밸런서", &idx, Options::default());
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(terms_of(&w[0]).contains(&"로드밸런서".to_string()));
        assert!(terms_of(&w[0]).contains(&"로드+밸런서".to_string()));
        let w = analyze("재시도 증폭", &idx, Options::default());
        assert_eq!(terms_of(&w[0])[0], "재시도증폭");
    }

    #[test]
    fn the_whole_typing_sequence_of_a_word() {
        let idx = index(VOCAB);
        for state in ["ㅈ", "재", "잿", "재시", "재싣", "재시도"] {
            let w = analyze(state, &idx, Options { prefix_last: true });
            let t = terms_of(&w[0]);
            assert!(t.contains(&"재시도".to_string()) || state == "ㅈ", "{state}: {t:?}");
        }
        // A lone initial consonant is not a 초성 query (too short); it still completes.
        let w = analyze("재시도 ㅈ", &idx, Options { prefix_last: true });
        assert_eq!(terms_of(&w[0])[0], "재시도");
        // Without the prefix option a word cut off is only a partial match.
        let w = analyze("잿", &idx, Options::default());
        assert!(!w[0].alternatives.is_empty());
        assert!(
            w[0].alternatives.iter().all(|a| a.derivation == Derivation::Partial),
            "{w:?}"
        );
        // Completions are ranked and never repeat the word itself.
        let c = completions("재시", &idx, 5);
        assert!(c.iter().any(|(t, _)| t == "재시도") && c.iter().all(|(t, _)| t != "재시"));
    }

    #[test]
    fn initial_consonants() {
        let idx = index(VOCAB);
        let w = analyze("ㅈㅅㄷ", &idx, Options::default());
        let t = terms_of(&w[0]);
        assert!(
            t.contains(&"재시도".to_string()) && t.contains(&"장소도".to_string()),
            "{t:?}"
        );
        assert!(w[0].alternatives.iter().all(|a| a.derivation == Derivation::Initials));
    }

    #[test]
    fn typos_within_one_key() {
        let idx = index(VOCAB);
        let w = analyze("재시두", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["재시도"]);
        assert_eq!(w[0].alternatives[0].derivation, Derivation::Typo);
        assert!(w[0].alternatives[0].weight < 1.0);
    }

    #[test]
    fn korean_typed_with_the_english_layout() {
        let idx = index(VOCAB);
        let w = analyze("wotleh", &idx, Options::default());
        assert_eq!(w[0].keyboard.as_deref(), Some("재시도"));
        assert_eq!(terms_of(&w[0])[0], "재시도");
        // A real English word stays English.
        let w = analyze("http", &idx, Options::default());
        assert!(w[0].keyboard.is_none());
    }

    #[test]
    fn taxonomy_synonyms_expand() {
        let idx = index(VOCAB);
        for q in ["메모리 부족", "OOM", "out of memory", "OOMKilled"] {
            let w = analyze(q, &idx, Options::default());
            assert_eq!(w.len(), 1, "{q}: {w:?}");
            assert!(
                w[0].alternatives
                    .iter()
                    .any(|a| a.facet.as_ref().is_some_and(|f| f.slug == "oom-killed")),
                "{q}: {w:?}"
            );
        }
    }

    #[test]
    fn latin_and_mixed() {
        let idx = index(VOCAB);
        let w = analyze("OOMKilled HTTP 5XX us-east-1 에서", &idx, Options::default());
        assert_eq!(
            w.iter().map(|w| w.input.as_str()).collect::<Vec<_>>(),
            ["oomkilled", "http", "5xx", "us-east-1"]
        );
        let w = analyze("oom-killed", &idx, Options::default());
        assert!(terms_of(&w[0]).contains(&"oom+killed".to_string()));
    }

    /// An index as [`index`] gives, with a lexicon.
    fn index_with_lexicon(terms: &[&str], lexicon: &[(&[&str], &[&[&str]])]) -> Index {
        let plain = index(terms);
        let mut meta = plain.meta.clone();
        let position = |t: &str| (0..plain.vocab.len()).find(|&i| plain.vocab.term(i) == t).unwrap() as u32;
        meta.lexicon = lexicon
            .iter()
            .map(|(say, means)| crate::index::LexiconEntry {
                say: say.iter().map(|s| squash(s)).collect(),
                means: means.iter().map(|m| m.iter().map(|t| position(t)).collect()).collect(),
            })
            .collect();
        Index::from_parts(meta, plain.filters.clone()).unwrap()
    }

    #[test]
    fn lexicon_forms_reach_what_records_write() {
        let idx = index_with_lexicon(
            &["github", "australia", "east", "중단", "멈추", "us-east-1"],
            &[
                (&["깃허브", "깃헙"], &[&["github"]]),
                (&["호주"], &[&["australia", "east"]]),
                (&["먹통", "뻗다"], &[&["중단"], &["멈추"]]),
                (&["북 버지니아"], &[&["us-east-1"]]),
            ],
        );
        let w = analyze("깃헙에서 호주 리전이 먹통", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["github"]);
        assert_eq!(w[0].alternatives[0].derivation, Derivation::Lexicon);
        assert_eq!(terms_of(&w[1]), ["australia+east"]);
        assert_eq!(terms_of(&w[3]), ["중단", "멈추"]);
        // Conjugated forms reach the entry through their stem (뻗었다 → 뻗).
        let w = analyze("뻗었다", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["중단", "멈추"], "{w:?}");
        // A typed form of two words, as one phrase.
        let w = analyze("북 버지니아", &idx, Options::default());
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(terms_of(&w[0]).contains(&"us-east-1".to_string()));
        // A lexicon form typed wrong is a typo of it.
        let w = analyze("깃허부", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["github"]);
        assert_eq!(w[0].alternatives[0].derivation, Derivation::Typo);
    }

    #[test]
    fn the_noun_of_a_hada_verb_in_any_ending() {
        for (verb, noun) in [
            ("재시작했더니", "재시작"),
            ("배포하다가", "배포"),
            ("삭제됐는데", "삭제"),
            ("중단시켰다", "중단"),
        ] {
            assert_eq!(verb_noun(verb).as_deref(), Some(noun), "{verb}");
        }
        // Not a 시키다 ending, and too short a noun.
        assert_eq!(verb_noun("재시도"), None);
        assert_eq!(verb_noun("하다"), None);
        let idx = index(&["재시작"]);
        let w = analyze("재시작했더니", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["재시작"]);
        assert_eq!(w[0].alternatives[0].derivation, Derivation::Bare);
    }

    #[test]
    fn initials_of_a_lexicon_form() {
        let idx = index_with_lexicon(&["cloudflare"], &[(&["클라우드플레어"], &[&["cloudflare"]])]);
        let w = analyze("ㅋㄹㅇㄷㅍㄹㅇ", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["cloudflare"]);
        assert_eq!(w[0].alternatives[0].derivation, Derivation::Initials);
    }

    #[test]
    fn a_phrase_is_never_read_through_a_particle_rule_across_words() {
        // `db 자동` is not `db` with the particle 자동.
        let idx = index(&["db", "자동"]);
        let w = analyze("db 자동", &idx, Options::default());
        assert_eq!(w.len(), 2, "{w:?}");
    }

    #[test]
    fn latin_typos_by_length_and_swapped_letters() {
        let idx = index(&["iptables", "certificate", "orbiter", "capital", "dns"]);
        for (typed, meant) in [
            ("iptalbes", "iptables"),
            ("certifcate", "certificate"),
            ("orbitor", "orbiter"),
            ("captial", "capital"),
        ] {
            let w = analyze(typed, &idx, Options::default());
            assert_eq!(terms_of(&w[0]), [meant], "{typed}");
            assert_eq!(w[0].alternatives[0].derivation, Derivation::Typo);
        }
        // Short words get no typo reading: `dnz` is not `dns`.
        assert!(analyze("dnz", &idx, Options::default())[0].alternatives.is_empty());
    }

    #[test]
    fn two_key_typos_in_long_hangul_words() {
        let idx = index(&["클라우드플레어", "쿠버네티스"]);
        let w = analyze("클라우드플래어", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["클라우드플레어"]);
        let w = analyze("크라우드플래어", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["클라우드플레어"], "two keys off");
        let w = analyze("쿠버내티스", &idx, Options::default());
        assert_eq!(terms_of(&w[0]), ["쿠버네티스"]);
    }

    #[test]
    fn partial_readings_of_words_the_vocabulary_lacks() {
        let idx = index(&["정전", "지우", "먹통", "제한", "certificate"]);
        for (typed, meant) in [("대정전", "정전"), ("지워버렸다", "지우"), ("certif", "certificate")] {
            let w = analyze(typed, &idx, Options::default());
            assert!(terms_of(&w[0]).contains(&meant.to_string()), "{typed}: {w:?}");
            assert!(w[0]
                .alternatives
                .iter()
                .all(|a| a.derivation == Derivation::Partial && a.weight <= PARTIAL_WEIGHT));
        }
        // A word the vocabulary has needs no partial reading.
        let w = analyze("먹통이", &idx, Options::default());
        assert_eq!(w[0].alternatives[0].derivation, Derivation::Bare);
    }

    #[test]
    fn query_stopwords_are_dropped_but_phrases_are_read_first() {
        let idx = index(&["재시도", "장애", "조치"]);
        let w = analyze("재시도 장애 사례", &idx, Options::default());
        assert_eq!(w.iter().map(|w| w.input.as_str()).collect::<Vec<_>>(), ["재시도"]);
        let w = analyze("장애 조치", &idx, Options::default());
        assert!(w.iter().any(|w| w.input == "조치"), "{w:?}");
    }

    #[test]
    fn long_queries_are_cut() {
        let idx = index(VOCAB);
        let long = "재시도 ".repeat(10) + &(0..100).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
        assert!(analyze(&long, &idx, Options::default()).len() <= MAX_WORDS);
        let word: String = "가".repeat(100_000);
        let started = std::time::Instant::now();
        let w = analyze(&word, &idx, Options::default());
        assert!(w[0].input.chars().count() <= MAX_WORD_CHARS);
        // Not a timing test: the point is that it returns at all on a 100 KB word.
        let _ = started.elapsed();
    }

    #[test]
    fn unknown_words_have_no_alternative() {
        let idx = index(VOCAB);
        assert!(analyze("없는말", &idx, Options::default())[0].alternatives.is_empty());
    }
}
