//! Field typing: the front-matter fields a record may have ([`FIELDS`]), and the
//! table read into strings and lists of strings, each with its line. Unknown,
//! missing, empty and mistyped fields are reported here; what the values say is
//! checked in [`super::checks`].

use std::collections::{HashMap, HashSet};
use std::path::Path;

use toml::Spanned;

use super::diagnostic::{diag, did_you_mean, Diagnostic, Problem};
use super::frontmatter::{Split, Table};

/// Front-matter fields, with whether they are required and their type.
const FIELDS: &[(&str, bool, Kind)] = &[
    ("id", true, Kind::Str),
    ("title", true, Kind::Str),
    ("org", true, Kind::Str),
    ("date", true, Kind::Str),
    ("date_end", false, Kind::Str),
    ("date_bound", false, Kind::Str),
    ("date_bound_note", false, Kind::Str),
    ("tags", false, Kind::List),
    ("severity", false, Kind::Str),
    ("impact", false, Kind::Str),
    ("affected_users", false, Kind::Str),
    ("regions", false, Kind::List),
    ("time_to_detect", false, Kind::Str),
    ("time_to_recover", false, Kind::Str),
    ("causes", true, Kind::List),
    ("components", true, Kind::List),
    ("symptoms", true, Kind::List),
    ("factors", false, Kind::List),
    ("sources", true, Kind::List),
    ("related", false, Kind::List),
    ("checks", false, Kind::List),
    ("published", false, Kind::Str),
    ("updated", false, Kind::Str),
    ("history", false, Kind::List),
];

/// The type of a front-matter field.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A string.
    Str,
    /// A list of strings.
    List,
}

/// The well-typed fields of a record, trimmed, each with the line of its value.
#[derive(Default)]
pub(super) struct Fields {
    /// String fields that are not empty.
    pub strings: HashMap<&'static str, (String, usize)>,
    /// List fields, with their non-empty items.
    pub lists: HashMap<&'static str, Vec<(String, usize)>>,
}

impl Fields {
    /// The value of string field `name`.
    pub fn string(&self, name: &str) -> Option<String> {
        self.strings.get(name).map(|(s, _)| s.clone())
    }

    /// The items of list field `name` (none when it is absent).
    pub fn list(&self, name: &str) -> Vec<String> {
        self.lists
            .get(name)
            .map(|l| l.iter().map(|(s, _)| s.clone()).collect())
            .unwrap_or_default()
    }
}

/// Reports every key of the table that is not one of [`FIELDS`].
pub(super) fn check_unknown_fields(path: &Path, split: &Split, table: &Table, diags: &mut Vec<Diagnostic>) {
    for key in table.keys() {
        if !FIELDS.iter().any(|f| f.0 == key.get_ref()) {
            let near = did_you_mean(key.get_ref(), FIELDS.iter().map(|f| f.0));
            diags.push(diag(
                path,
                split.line_at(key.span().start),
                Some(key.get_ref()),
                Problem::UnknownField,
                format!("unknown field {:?}", key.get_ref()),
                Some(&near.map_or_else(
                    || {
                        format!(
                            "the fields are: {}",
                            FIELDS.iter().map(|f| f.0).collect::<Vec<_>>().join(", ")
                        )
                    },
                    |n| format!("did you mean `{n}`?"),
                )),
            ));
        }
    }
}

/// Reads every one of [`FIELDS`] from the table by its type, reporting the
/// required ones that are missing and the values that are empty or mistyped.
pub(super) fn type_fields(path: &Path, split: &Split, table: &Table, diags: &mut Vec<Diagnostic>) -> Fields {
    let values: HashMap<&str, &Spanned<toml::Value>> = table.iter().map(|(k, v)| (k.get_ref().as_str(), v)).collect();
    let mut fields = Fields::default();
    for &(name, required, kind) in FIELDS {
        let Some(value) = values.get(name) else {
            if required {
                missing_field(path, name, kind, diags);
            }
            continue;
        };
        let line = split.line_at(value.span().start);
        match (kind, value.get_ref()) {
            (Kind::Str, toml::Value::String(s)) => {
                if let Some(s) = string_value(path, line, name, required, s, diags) {
                    fields.strings.insert(name, (s, line));
                }
            }
            (Kind::List, toml::Value::Array(items)) => {
                fields
                    .lists
                    .insert(name, list_value(path, line, name, required, items, diags));
            }
            (_, other) => wrong_type(path, line, name, kind, other, diags),
        }
    }
    fields
}

/// Reports required field `name` as missing.
fn missing_field(path: &Path, name: &str, kind: Kind, diags: &mut Vec<Diagnostic>) {
    diags.push(diag(
        path,
        2,
        Some(name),
        Problem::MissingField,
        format!("required field `{name}` is missing"),
        Some(&format!(
            "add `{name} = {}` to the front matter",
            if kind == Kind::Str { "\"…\"" } else { "[\"…\"]" }
        )),
    ));
}

/// The trimmed value of string field `name`, or `None` after reporting it empty.
fn string_value(
    path: &Path,
    line: usize,
    name: &str,
    required: bool,
    s: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    if s.trim().is_empty() {
        diags.push(diag(
            path,
            line,
            Some(name),
            Problem::BadValue,
            format!("`{name}` is empty"),
            Some(if required {
                "give it a value"
            } else {
                "give it a value or leave the line out"
            }),
        ));
        return None;
    }
    Some(s.trim().to_string())
}

/// The trimmed non-empty string items of list field `name`, each with `line`.
/// Items that are not strings or are empty, repeated items and a required list
/// left empty are reported.
fn list_value(
    path: &Path,
    line: usize,
    name: &str,
    required: bool,
    items: &[toml::Value],
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    // A set, not a scan of `out`: a list of 100,000 items checks in linear time.
    let mut seen: HashSet<String> = HashSet::new();
    for item in items {
        match item {
            toml::Value::String(s) if !s.trim().is_empty() => {
                if !seen.insert(s.trim().to_string()) {
                    diags.push(diag(
                        path,
                        line,
                        Some(name),
                        Problem::DuplicateItem,
                        format!("{:?} appears twice in `{name}`", s.trim()),
                        Some("remove the repeated item"),
                    ));
                }
                out.push((s.trim().to_string(), line));
            }
            _ => diags.push(diag(
                path,
                line,
                Some(name),
                Problem::BadValue,
                format!("`{name}` must hold non-empty strings"),
                Some("write [\"a\", \"b\"]"),
            )),
        }
    }
    if out.is_empty() && required {
        diags.push(diag(
            path,
            line,
            Some(name),
            Problem::BadValue,
            format!("`{name}` is empty"),
            Some("a record needs at least one"),
        ));
    }
    out
}

/// Reports field `name`, of type `kind`, holding a value of another type.
fn wrong_type(path: &Path, line: usize, name: &str, kind: Kind, other: &toml::Value, diags: &mut Vec<Diagnostic>) {
    let hint = match (kind, other) {
        (Kind::Str, toml::Value::Datetime(_)) => "quote the date: date = \"2026-05-29\"",
        (Kind::Str, _) => "write it as a quoted string",
        (Kind::List, toml::Value::String(_)) => "write a list even for one item: [\"…\"]",
        _ => "write a list of strings: [\"a\", \"b\"]",
    };
    diags.push(diag(
        path,
        line,
        Some(name),
        Problem::BadValue,
        format!(
            "`{name}` must be {}",
            if kind == Kind::Str {
                "a string"
            } else {
                "a list of strings"
            }
        ),
        Some(hint),
    ));
}
