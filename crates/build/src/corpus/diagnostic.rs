//! What [`load`](super::load()) reports: a [`Diagnostic`] per problem, of a
//! [`Problem`] class, and the helpers that make them.

use std::fmt;
use std::path::{Path, PathBuf};

/// What kind of problem a [`Diagnostic`] reports. Tests match on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Problem {
    /// A file could not be read.
    Io,
    /// TOML syntax error, or front matter without its `+++` lines.
    MalformedToml,
    /// A required field is absent.
    MissingField,
    /// A field has the wrong type or an empty value.
    BadValue,
    /// A field that the format does not have.
    UnknownField,
    /// The id is not of the `IL-0001` form or does not match the file name.
    BadId,
    /// Two records share an id.
    DuplicateId,
    /// Not a real `YYYY-MM-DD` date.
    BadDate,
    /// Not a duration such as `19m` or `7h 45m`.
    BadDuration,
    /// Not an absolute http(s) URL.
    BadUrl,
    /// A tag that is not lower-case ascii kebab-case.
    BadTag,
    /// A taxonomy slug that does not exist.
    UnknownSlug,
    /// A related id that no record has.
    UnknownRelated,
    /// A required section is absent.
    MissingSection,
    /// A section with no text.
    EmptySection,
    /// A `##` section that the format does not have, a repeated one, or text outside sections.
    BadSection,
    /// Sections out of order.
    SectionOrder,
    /// A sentence that says only that the source is silent ("출처는 … 밝히지
    /// 않았다"), or a section that holds nothing else: leave the section out.
    Filler,
    /// Two records cite the same source URL: one incident, one record.
    SharedSource,
    /// A moved id (`moved.toml`) that a record still uses, or a bad entry there.
    Moved,
    /// The same item twice in one list.
    DuplicateItem,
    /// A taxonomy problem: bad or duplicate slug, missing label or description.
    Taxonomy,
    /// A lexicon problem (`lexicon.toml`): bad kind, empty or repeated forms, a
    /// `means` word that no record has.
    Lexicon,
    /// Something in `incidents/` named like a record that is not read: a `.MD`, a
    /// link, a FIFO or a folder.
    NotARecordFile,
    /// Wording: a particle that does not fit how the name before it is read
    /// (`GLOSSARY.md`), or a sentence about the source instead of the incident.
    Wording,
}

/// One problem in the corpus, with where it is and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// The field or section concerned, if any.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
    /// What to do.
    pub hint: Option<String>,
    /// The class of problem.
    pub problem: Problem,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file.display(), self.line)?;
        if let Some(field) = &self.field {
            write!(f, "`{field}`: ")?;
        }
        write!(f, "{}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// A [`Diagnostic`] from its parts.
pub(super) fn diag(
    file: &Path,
    line: usize,
    field: Option<&str>,
    problem: Problem,
    message: String,
    hint: Option<&str>,
) -> Diagnostic {
    Diagnostic {
        file: file.to_path_buf(),
        line,
        field: field.map(str::to_string),
        message,
        hint: hint.map(str::to_string),
        problem,
    }
}

/// 1-based line of byte `offset` in `text`, plus `first` (the line `text` starts on).
pub(super) fn line_of(text: &str, offset: usize, first: usize) -> usize {
    first + text[..offset.min(text.len())].matches('\n').count()
}

/// The candidate closest to `s` (Jaro-Winkler above 0.75), for a "did you mean" hint.
pub(super) fn did_you_mean<'a>(s: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    candidates
        .map(|c| (strsim::jaro_winkler(s, c), c))
        .filter(|(score, _)| *score > 0.75)
        .max_by(|a, b| {
            a.0.partial_cmp(&b.0)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(b.1.cmp(a.1))
        })
        .map(|(_, c)| c.to_string())
}
