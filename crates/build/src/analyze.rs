//! Build-time Korean analysis: turns record text into index terms with lindera
//! (mecab-ko-dic).
//!
//! For every eojeol (space-delimited word) of the text the analyzer emits:
//!
//! 1. **Content morphemes** from lindera: general and proper nouns (NNG, NNP), roots
//!    (XR), foreign words (SL), numbers (SN) and hanja (SH); for verbs and adjectives
//!    (VV, VA, also when lindera returns a fused form such as `VV+EP`), the stem taken
//!    from the expression field: `비웠다` → `비우`.
//! 2. **Compounds**: prefixes (XPN), suffixes (XSN) and runs of nouns inside one eojeol
//!    are joined, and every contiguous part of the run is emitted too, so that spacing
//!    does not decide what is found: `재시도증폭` → `재시도증폭`, `재시도`, `증폭`, `시도`.
//! 3. **Latin and digits** are taken whole, lower-cased, and also split on hyphen,
//!    digit and case boundaries: `us-central1` → `us-central1`, `us`, `central1`,
//!    `central`, `1`; `OOMKilled` → `oomkilled`, `oom`, `killed`; `5XX` → `5xx`, `5`, `xx`.
//! 4. **The bare eojeol**: the word with its particle or ending removed by
//!    [`incident_core::text::particles::bare`], the same rule table the browser applies to queries:
//!    `재시도를` → `재시도`, `재시작되는` → `재시작`. A word the table leaves whole is
//!    emitted only when nothing else came of it and it has no digits.
//!
//! ```text
//! "재시도 증폭으로 캐시를 비웠다"  →  재시도 시도 증폭 캐시 비우
//! ```
//!
//! A noun found only inside a prefixed or suffixed unit (`시도` of `재시도`, `인증`
//! of `인증서`) is a **part**: [`Analyzer::marked_terms`] says so, and the index
//! weighs a record that has the term only as a part below one that has it whole.
//!
//! All terms are NFKC-normalised and lower-cased ([`incident_core::text::normalize`]).

use std::borrow::Cow;
use std::path::Path;

use lindera::mode::Mode;
use lindera::segmenter::Segmenter;

use crate::error::{Error, Result};
use incident_core::text::particles;
use incident_core::text::{self, Script};

/// The longest part of a noun run that is emitted besides the whole run.
const MAX_SUBRUN_UNITS: usize = 2;

/// A lindera segmenter loaded with the ko-dic dictionary.
pub struct Analyzer {
    segmenter: Segmenter,
    /// Distinguishes this analyzer's entries in the per-thread entry cache.
    id: u64,
}

/// One morpheme of an eojeol, reduced to what term emission needs.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Morpheme {
    surface: String,
    class: Class,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Prefix (XPN): binds to the noun after it.
    Prefix,
    /// Noun-like content (NNG, NNP, XR, SH).
    Noun,
    /// Suffix (XSN): binds to the noun before it.
    Suffix,
    /// A verb or adjective stem.
    Stem,
    /// Anything else: particles, endings, symbols, Latin (handled separately).
    Other,
}

impl Analyzer {
    /// Loads the ko-dic dictionary from `dir` (see [`crate::ko_dic`]) and, when given,
    /// a user dictionary of domain words: a CSV of `surface,POS,reading` lines such as
    /// `재시도,NNG,재시도`, so that words ko-dic lacks are not split (`재시 + 도`).
    pub fn load(dir: &Path, user_dictionary: Option<&Path>) -> Result<Analyzer> {
        let dictionary = crate::ko_dic::load(dir)?;
        let user = match user_dictionary {
            Some(path) => Some(
                lindera::dictionary::load_user_dictionary_from_csv(&dictionary.metadata, path).map_err(|e| {
                    Error::msg(format!(
                        "{}: not a valid user dictionary: {e}\n  hint: each line is `surface,NNG,reading`",
                        path.display()
                    ))
                })?,
            ),
            None => None,
        };
        Ok(Analyzer {
            segmenter: Segmenter::new(Mode::Normal, dictionary, user),
            id: NEXT_ANALYZER.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        })
    }

    /// Loads the dictionary from [`crate::ko_dic::default_dir`] with the given user
    /// dictionary.
    pub fn load_default(user_dictionary: Option<&Path>) -> Result<Analyzer> {
        Analyzer::load(&crate::ko_dic::default_dir(), user_dictionary)
    }

    /// All terms of `text`, in order of appearance, duplicates included.
    pub fn terms(&self, text: &str) -> Result<Vec<String>> {
        Ok(self.marked_terms(text)?.into_iter().map(|(t, _)| t).collect())
    }

    /// All terms of `text` as [`Analyzer::terms`] gives them, each with `true` when
    /// it is a part: a noun inside a prefixed or suffixed unit, not the word itself.
    pub fn marked_terms(&self, text: &str) -> Result<Vec<(String, bool)>> {
        let mut out = Emitted::default();
        for line in text.lines() {
            self.line_terms(line, &mut out)?;
        }
        Ok(out.terms.into_iter().zip(out.parts).collect())
    }

    fn line_terms(&self, line: &str, out: &mut Emitted) -> Result<()> {
        // NFKC without lower-casing first: case boundaries split OOMKilled.
        let cased = text::nfkc(line);
        if cased.trim().is_empty() {
            return Ok(());
        }
        let morphemes = self.morphemes(&cased)?;
        let mut cursor = 0;
        for word in eojeols(&cased) {
            let start = word.as_ptr() as usize - cased.as_ptr() as usize;
            let end = start + word.len();
            let inside: Vec<&Morpheme> = morphemes[cursor..]
                .iter()
                .take_while(|(s, _)| *s < end)
                .filter(|(s, _)| *s >= start)
                .map(|(_, m)| m)
                .collect();
            while cursor < morphemes.len() && morphemes[cursor].0 < end {
                cursor += 1;
            }
            eojeol_terms(word, &inside, out);
        }
        Ok(())
    }

    /// Segments `text` and returns each morpheme with its byte offset.
    fn morphemes(&self, text: &str) -> Result<Vec<(usize, Morpheme)>> {
        let tokens = self
            .segmenter
            .segment(Cow::Borrowed(text))
            .map_err(|e| Error::msg(format!("lindera could not segment {text:?}: {e}")))?;
        let mut out = Vec::with_capacity(tokens.len());
        WORDS.with_borrow_mut(|words| {
            if words.analyzer != self.id {
                *words = Words {
                    analyzer: self.id,
                    ..Words::default()
                };
            }
            for mut token in tokens {
                let key = (token.word_id.lex_type() as u8, token.word_id.id());
                let word = words.entries.entry(key).or_insert_with(|| Word::of(&mut token));
                let surface = match &word.stem {
                    Some(stem) => stem.clone(),
                    None => token.surface.to_string(),
                };
                out.push((
                    token.byte_start,
                    Morpheme {
                        surface,
                        class: word.class,
                    },
                ));
            }
        });
        Ok(out)
    }
}

/// What term emission needs of a dictionary entry, read once per entry and thread:
/// parsing a token's detail fields was a large part of the build's analysis time.
struct Word {
    class: Class,
    /// The stem that a fused form names in its expression field, for the surface.
    stem: Option<String>,
}

impl Word {
    fn of(token: &mut lindera::token::Token) -> Word {
        let pos = token.get("part_of_speech_tag").unwrap_or("").to_string();
        let first = pos.split('+').next().unwrap_or("");
        let class = match first {
            "NNG" | "NNP" | "XR" | "SH" => Class::Noun,
            "XPN" => Class::Prefix,
            "XSN" => Class::Suffix,
            "VV" | "VA" => Class::Stem,
            _ => Class::Other,
        };
        let stem = if class == Class::Stem && pos.contains('+') {
            // Fused forms (비웠 = 비우/VV + 었/EP) name their stem in the
            // expression field: "비우/VV/*+었/EP/*".
            token
                .get("expression")
                .unwrap_or("")
                .split('/')
                .next()
                .filter(|s| !s.is_empty() && *s != "*")
                .map(str::to_string)
        } else {
            None
        };
        Word { class, stem }
    }
}

/// The entries read so far on this thread, for the analyzer numbered `analyzer`
/// (each [`Analyzer::load`] gets a number: two analyzers may have different user
/// dictionaries, whose entry ids overlap).
#[derive(Default)]
struct Words {
    analyzer: u64,
    entries: std::collections::HashMap<(u8, u32), Word>,
}

thread_local! {
    static WORDS: std::cell::RefCell<Words> = std::cell::RefCell::new(Words::default());
}

/// The number of the next analyzer loaded; 0 is no analyzer.
static NEXT_ANALYZER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Terms as they are emitted, with which of them are parts.
#[derive(Default)]
struct Emitted {
    terms: Vec<String>,
    parts: Vec<bool>,
}

impl Emitted {
    fn push(&mut self, term: String) {
        self.terms.push(term);
        self.parts.push(false);
    }

    fn push_part(&mut self, term: String) {
        self.terms.push(term);
        self.parts.push(true);
    }

    fn len(&self) -> usize {
        self.terms.len()
    }
}

/// The eojeols of a line: runs of word characters, as slices of `line`.
fn eojeols(line: &str) -> impl Iterator<Item = &str> {
    text::words(line)
}

/// A compound unit, `XPN* noun XSN*` joined, with the nouns inside it.
type Unit = (String, Vec<String>);

/// Emits the terms of one eojeol from its morphemes and its text: its Latin and
/// digit runs, its verb stems and compound runs, then its bare form.
fn eojeol_terms(word: &str, morphemes: &[&Morpheme], out: &mut Emitted) {
    let lower = word.to_lowercase();
    if particles::is_suffix_only(&lower) {
        // A particle written apart (`us-east-1 에서`): lindera may call it a noun.
        return;
    }
    let start = out.len();
    latin_terms(word, out);
    for run in compound_runs(morphemes, out) {
        emit_run(&run, out);
    }
    bare_term(lower, start, out);
}

/// Emits the Latin and digit runs of `word` and their parts. Latin and digit runs
/// are ours to split, not lindera's. Bare numbers are kept only when they can mean
/// something on their own (503, 2017), not times (09:39).
fn latin_terms(word: &str, out: &mut Emitted) {
    for run in latin_runs(word) {
        let digits = run.bytes().all(|b| b.is_ascii_digit());
        if !digits || (3..=4).contains(&run.len()) {
            out.push(run.to_lowercase());
        }
        for part in text::latin_parts(run) {
            out.push(part);
        }
    }
}

/// The compound runs of an eojeol: units `XPN* (noun) XSN*`, consecutive units
/// forming a run. Verb and adjective stems, which end a run, are emitted as they
/// come.
fn compound_runs(morphemes: &[&Morpheme], out: &mut Emitted) -> Vec<Vec<Unit>> {
    let mut runs: Vec<Vec<Unit>> = Vec::new();
    let mut unit = String::new();
    let mut nouns: Vec<String> = Vec::new();
    let mut run: Vec<Unit> = Vec::new();
    let mut pending_prefix = String::new();
    let flush_unit = |unit: &mut String, nouns: &mut Vec<String>, run: &mut Vec<Unit>| {
        if !unit.is_empty() {
            run.push((std::mem::take(unit), std::mem::take(nouns)));
        }
    };
    for m in morphemes {
        match m.class {
            Class::Prefix => {
                flush_unit(&mut unit, &mut nouns, &mut run);
                pending_prefix.push_str(&m.surface);
            }
            Class::Noun => {
                flush_unit(&mut unit, &mut nouns, &mut run);
                unit.push_str(&std::mem::take(&mut pending_prefix));
                unit.push_str(&m.surface);
                nouns.push(m.surface.clone());
            }
            Class::Suffix if !unit.is_empty() => unit.push_str(&m.surface),
            Class::Stem => {
                flush_unit(&mut unit, &mut nouns, &mut run);
                if !run.is_empty() {
                    runs.push(std::mem::take(&mut run));
                }
                pending_prefix.clear();
                out.push(m.surface.to_lowercase());
            }
            _ => {
                flush_unit(&mut unit, &mut nouns, &mut run);
                if !run.is_empty() {
                    runs.push(std::mem::take(&mut run));
                }
                pending_prefix.clear();
            }
        }
    }
    flush_unit(&mut unit, &mut nouns, &mut run);
    if !run.is_empty() {
        runs.push(run);
    }
    runs
}

/// Emits the bare eojeol (`lower`, the eojeol lower-cased), the form the query
/// reaches with the same particle table; not when the eojeol is itself one of the
/// terms emitted for it since `start` (재시도 is not 재시 + 도). A word the table
/// leaves whole is kept only when nothing else came of it and it has no digits:
/// `실행하자` is found through 실행, and `19일까지` is a date, not a term.
fn bare_term(lower: String, start: usize, out: &mut Emitted) {
    let emitted = &out.terms[start..];
    if !emitted.contains(&lower) {
        let extra = match particles::bare(&lower) {
            Some(bare) if !emitted.contains(&bare) => Some(bare),
            Some(_) => None,
            None if emitted.is_empty() && !lower.chars().any(|c| c.is_ascii_digit()) => Some(lower),
            None => None,
        };
        if let Some(term) = extra {
            out.push(term);
        }
    }
}

/// Emits a compound run: the whole run, every unit and every pair of neighbouring
/// units, and every noun inside a unit. (Longer sub-runs are left to the query,
/// which splits a word over the vocabulary.)
fn emit_run(run: &[Unit], out: &mut Emitted) {
    let n = run.len();
    for i in 0..n {
        for j in i + 1..=n {
            if j - i <= MAX_SUBRUN_UNITS || (i == 0 && j == n) {
                let joined: String = run[i..j].iter().map(|(u, _)| u.as_str()).collect();
                out.push(joined.to_lowercase());
            }
        }
        for noun in &run[i].1 {
            if *noun != run[i].0 {
                out.push_part(noun.to_lowercase());
            }
        }
    }
}

/// Maximal runs of Latin letters and digits (with inner joiners) inside a word.
fn latin_runs(word: &str) -> Vec<&str> {
    let mut runs = Vec::new();
    let mut start: Option<usize> = None;
    let is_latin = |c: char| matches!(text::script(c), Script::Latin | Script::Digit);
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let joiner = matches!(c, '-' | '_' | '.' | '/' | '+' | '#')
            && start.is_some()
            && chars.get(k + 1).is_some_and(|&(_, n)| is_latin(n));
        if is_latin(c) || joiner {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            runs.push(&word[s..i]);
        }
    }
    if let Some(s) = start {
        runs.push(&word[s..]);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_runs_inside_hangul() {
        assert_eq!(latin_runs("us-central1에서"), ["us-central1"]);
        assert_eq!(latin_runs("HTTP/2와"), ["HTTP/2"]);
        assert_eq!(latin_runs("5XX-"), ["5XX"]);
        assert!(latin_runs("재시도").is_empty());
    }

    #[test]
    fn compound_runs_emit_every_part() {
        let run = vec![
            ("재시도".to_string(), vec!["시도".to_string()]),
            ("증폭".to_string(), vec!["증폭".to_string()]),
        ];
        let mut out = Emitted::default();
        emit_run(&run, &mut out);
        assert_eq!(out.terms, ["재시도", "재시도증폭", "시도", "증폭"]);
        assert_eq!(out.parts, [false, false, true, false]);
    }
}
