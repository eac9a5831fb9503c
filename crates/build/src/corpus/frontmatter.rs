//! The front matter of a record: the TOML between the `+++` lines, split from the
//! body and parsed into a table with the place of every key and value.

use std::collections::BTreeMap;
use std::path::Path;

use toml::Spanned;

use super::diagnostic::{diag, line_of, Diagnostic, Problem};

/// The front matter as parsed: every key and value with its byte span in the front
/// matter.
pub(super) type Table = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

/// A record split at its `+++` lines.
pub(super) struct Split<'a> {
    /// The TOML between the `+++` lines, with its last newline. It starts on line 2.
    pub front: &'a str,
    /// The Markdown after the closing `+++` line.
    pub body: &'a str,
    /// The line of the file the body starts on.
    pub body_line: usize,
}

impl Split<'_> {
    /// The line of the file that byte `offset` of the front matter is on.
    pub fn line_at(&self, offset: usize) -> usize {
        line_of(self.front, offset, 2)
    }
}

/// Splits a record (after an optional byte-order mark) into front matter and body,
/// or reports a missing `+++` line.
pub(super) fn split<'a>(path: &Path, text: &'a str, diags: &mut Vec<Diagnostic>) -> Option<Split<'a>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text.strip_prefix("+++\n").or_else(|| text.strip_prefix("+++\r\n")) else {
        diags.push(diag(
            path,
            1,
            None,
            Problem::MalformedToml,
            "the record does not start with a +++ line".into(),
            Some("a record is TOML front matter between two +++ lines, then the Markdown body"),
        ));
        return None;
    };
    let Some(end) = rest
        .find("\n+++")
        .filter(|&e| rest[e + 4..].starts_with('\n') || rest[e + 4..].starts_with("\r\n") || rest[e + 4..].is_empty())
    else {
        diags.push(diag(
            path,
            1,
            None,
            Problem::MalformedToml,
            "the front matter is not closed".into(),
            Some("end the front matter with a line holding only +++"),
        ));
        return None;
    };
    let front = &rest[..end + 1];
    let body = rest[end + 4..]
        .trim_start_matches(['\r'])
        .strip_prefix('\n')
        .unwrap_or("");
    Some(Split {
        front,
        body,
        body_line: 3 + front.matches('\n').count(),
    })
}

/// Parses the front matter as TOML, or reports the syntax error with its line.
pub(super) fn parse_table(path: &Path, front: &str, diags: &mut Vec<Diagnostic>) -> Option<Table> {
    match toml::from_str(front) {
        Ok(t) => Some(t),
        Err(e) => {
            let line = e.span().map_or(2, |s| line_of(front, s.start, 2));
            diags.push(diag(
                path,
                line,
                None,
                Problem::MalformedToml,
                e.message().trim().to_string(),
                Some("check quotes, commas and brackets; strings are \"quoted\", lists are [\"a\", \"b\"]"),
            ));
            None
        }
    }
}
