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
//! * typos: a word that matches nothing, within one key of a vocabulary term
//!   (`재시두` → `재시도`), ranked below exact matches.
//!
//! Only vocabulary terms are looked up, which keeps filter false positives away
//! from words the corpus never uses.

use serde::Serialize;

use crate::hangul;
use crate::index::{squash, Index};
use crate::particles;
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

/// Splits `query` into words and finds their alternatives in `index`.
pub fn analyze(query: &str, index: &Index, options: Options) -> Vec<Word> {
    // NFKC turns compatibility jamo (ㅈ) into conjoining ones; 초성 and typing
    // states are compared as compatibility jamo.
    let cased: String = text::nfkc(query).chars().map(hangul::to_compatibility).collect();
    let mut raws: Vec<&str> = Vec::new();
    for raw in text::words(&cased) {
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
            let stop =
                particles::is_stopword(&lower) || particles::bare(&lower).is_some_and(|b| particles::is_stopword(&b));
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
        if let Some(hangul) = hangul::from_keyboard(raw).filter(|h| h.chars().any(text::is_hangul_syllable)) {
            let mut converted = Vec::new();
            direct(&hangul, &hangul, index, &mut converted);
            if prefix {
                expand_prefix(&hangul, index, &mut converted);
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
    }
    facet_synonyms(&input, index, 0.9, &mut alts);
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
    let bare = particles::bare(input);
    if let Some(b) = &bare {
        add(alts, index, vec![b.clone()], 0.9, Derivation::Bare);
    }
    // Predicate forms the table leaves whole: a final ㄴ/ㄹ/ㅁ (들어간, 멈춤, 끊김) or a
    // fused vowel (떨어져) on the stem that the index holds (들어가, 멈추, 끊기, 떨어지).
    for stem in particles::stems(bare.as_deref().unwrap_or(input)) {
        add(alts, index, vec![stem], 0.85, Derivation::Bare);
    }
    let base = bare.as_deref().unwrap_or(input);
    if base.chars().filter(|&c| text::is_hangul_syllable(c)).count() >= 3 {
        if let Some(parts) = segment(base, index) {
            add(alts, index, parts, 0.8, Derivation::Segmented);
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
        add(alts, index, text::latin_parts(&cased), 0.8, Derivation::Parts);
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
        add(alts, index, vec![term], 0.7, Derivation::Prefix);
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
        add(alts, index, vec![term], 0.7, Derivation::Initials);
    }
}

fn expand_typos(word: &str, index: &Index, alts: &mut Vec<Alternative>) {
    let keys = hangul::keys(word);
    // Very short words are one key away from too much.
    if keys.len() < 4 || !word.chars().any(text::is_hangul_syllable) {
        return;
    }
    let len = word.chars().count();
    let found = index
        .keyed_terms()
        .iter()
        .filter(|k| k.chars.abs_diff(len) <= 1 && hangul::edit_distance(&keys, &k.keys, 1).is_some())
        .map(|k| (k.term.clone(), k.df))
        .collect();
    for (term, _) in best(found, EXPANSIONS) {
        add(alts, index, vec![term], 0.6, Derivation::Typo);
    }
}

/// Adds the facet values that `phrase` names (label or synonym) as alternatives.
fn facet_synonyms(phrase: &str, index: &Index, weight: f32, alts: &mut Vec<Alternative>) {
    let q = squash(phrase);
    if q.chars().count() < 2 {
        return;
    }
    let bare = particles::bare(&q);
    for n in &index.names {
        let named = n.squashed == q || bare.as_deref() == Some(n.squashed.as_str());
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
            facet_synonyms(&phrase, index, 1.0, &mut joined_alts);
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
    use crate::facets::Bitset;
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
            chunks: vec![],
            listing_chunk: 1,
        };
        let none = || crate::filter::TermFilter::build(&[]).to_lookup().unwrap();
        Index::from_parts(meta, vec![none(), none(), none()]).unwrap()
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
        // Without the prefix option the last word is read as typed.
        let w = analyze("잿", &idx, Options::default());
        assert!(w[0].alternatives.is_empty());
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

    #[test]
    fn unknown_words_have_no_alternative() {
        let idx = index(VOCAB);
        assert!(analyze("없는말", &idx, Options::default())[0].alternatives.is_empty());
    }
}
