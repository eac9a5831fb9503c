//! The domain lexicon, `data/lexicon.toml`: what people type (Hangul spellings of
//! names, places, English terms, colloquial verbs) and the words the records use
//! for it.
//!
//! ```toml
//! [[entry]]
//! kind = "name"              # english | name | place | colloquial
//! say = ["깃허브", "깃헙"]     # typed forms: a whole query word or phrase
//! means = ["GitHub"]         # words that occur in the records
//! ```
//!
//! [`load`] checks the file's shape; [`check_reachable`] checks that every `means`
//! word is a word of the records, so that no entry points at nothing. The indexer
//! stores each entry as [`incident_core::index::LexiconEntry`]: the typed forms as the query
//! compares them, and each `means` word as the terms a record holds for it.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::Path;

use serde::Deserialize;

use crate::corpus::{Diagnostic, Problem};

/// The kinds of entry, for readers of the file and for reports.
pub const KINDS: [&str; 4] = ["english", "name", "place", "colloquial"];

/// One entry as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// One of [`KINDS`].
    pub kind: String,
    /// Typed forms.
    pub say: Vec<String>,
    /// Words of the records.
    pub means: Vec<String>,
    /// 1-based line of the entry's `[[entry]]` header.
    pub line: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    entry: Vec<toml::Spanned<RawEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    kind: String,
    say: Vec<String>,
    means: Vec<String>,
}

fn problem(path: &Path, line: usize, field: Option<&str>, message: String, hint: &str) -> Diagnostic {
    Diagnostic {
        file: path.to_path_buf(),
        line,
        field: field.map(str::to_string),
        message,
        hint: Some(hint.to_string()),
        problem: Problem::Lexicon,
    }
}

/// Reads the lexicon at `path`; a missing file is an empty lexicon. Problems go
/// into `diags`, each with its line.
pub fn load(path: &Path, diags: &mut Vec<Diagnostic>) -> Vec<Entry> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            diags.push(problem(
                path,
                1,
                None,
                format!("cannot read: {e}"),
                "the lexicon is a UTF-8 TOML file of [[entry]] tables",
            ));
            return Vec::new();
        }
    };
    let line_of = |offset: usize| 1 + text[..offset.min(text.len())].matches('\n').count();
    let before = diags.len();
    crate::corpus::controls::check_toml(path, &text, diags);
    if diags.len() > before {
        return Vec::new();
    }
    let raw: RawFile = match toml::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            let line = e.span().map_or(1, |s| line_of(s.start));
            diags.push(problem(
                path,
                line,
                None,
                e.message().to_string(),
                "each entry is an [[entry]] table with kind, say and means",
            ));
            return Vec::new();
        }
    };
    let mut seen: HashMap<String, usize> = HashMap::new();
    raw.entry
        .into_iter()
        .map(|spanned| {
            let line = line_of(spanned.span().start);
            check_entry(path, line, spanned.into_inner(), &mut seen, diags)
        })
        .collect()
}

/// One entry at `line`, with its problems reported: an unknown kind, an empty word,
/// a typed form another entry has (`seen`: each squashed form and its line).
fn check_entry(
    path: &Path,
    line: usize,
    e: RawEntry,
    seen: &mut HashMap<String, usize>,
    diags: &mut Vec<Diagnostic>,
) -> Entry {
    if !KINDS.contains(&e.kind.as_str()) {
        diags.push(problem(
            path,
            line,
            Some("kind"),
            format!("unknown kind {:?}", e.kind),
            &format!("use one of: {}", KINDS.join(", ")),
        ));
    }
    for (field, list) in [("say", &e.say), ("means", &e.means)] {
        if list.is_empty() || list.iter().any(|s| s.trim().is_empty()) {
            diags.push(problem(
                path,
                line,
                Some(field),
                format!("`{field}` is empty or holds an empty word"),
                "every entry needs at least one typed form and one word of the records",
            ));
        }
    }
    for form in &e.say {
        let key = incident_core::index::squash(form);
        if let Some(first) = seen.insert(key, line) {
            if first != line {
                diags.push(problem(
                    path,
                    line,
                    Some("say"),
                    format!("{form:?} is also a typed form of the entry at line {first}"),
                    "merge the two entries, or keep the form in one of them",
                ));
            }
        }
    }
    Entry {
        kind: e.kind,
        say: e.say,
        means: e.means,
        line,
    }
}

/// Checks that every `means` word of `entries` is a word of the records:
/// `terms_of(word)` gives the terms a record holds for it, and `vocabulary` is the
/// set of every record's terms.
pub fn check_reachable(
    path: &Path,
    entries: &[Entry],
    vocabulary: &BTreeSet<String>,
    mut terms_of: impl FnMut(&str) -> crate::error::Result<Vec<String>>,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for e in entries {
        for word in &e.means {
            let terms = match terms_of(word) {
                Ok(t) => t,
                Err(err) => {
                    diags.push(problem(path, e.line, Some("means"), err.to_string(), "use plain words"));
                    continue;
                }
            };
            let missing: Vec<&String> = terms.iter().filter(|t| !vocabulary.contains(*t)).collect();
            if terms.is_empty() || !missing.is_empty() {
                diags.push(problem(
                    path,
                    e.line,
                    Some("means"),
                    format!("{word:?} is not a word of any record (no record has {missing:?})"),
                    "use a word as the records write it, or remove it",
                ));
            }
        }
    }
    diags
}
