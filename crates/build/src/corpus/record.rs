//! One incident record, `incidents/<id>.md`, parsed in named steps: the front
//! matter ([`super::frontmatter`]), field typing ([`super::fields`]), field checks
//! ([`super::checks`]), the body sections ([`super::sections`]) and the assembly
//! of the [`Incident`].

use std::path::Path;

use super::checks::check_fields;
use super::controls;
use super::date::When;
use super::diagnostic::Diagnostic;
use super::fields::{check_unknown_fields, type_fields, Fields};
use super::frontmatter::{parse_table, split};
use super::sections::parse_sections;
use super::taxonomy::Taxonomy;
use super::{Incident, Section};

/// What [`parse_incident`] learnt from one file.
#[derive(Default)]
pub(super) struct Parsed {
    /// The record, when the file has no problem.
    pub incident: Option<Incident>,
    /// Its id and line, when it has a string id, for the duplicate check.
    pub id: Option<(String, usize)>,
    /// Its related ids with their lines, for the cross-record check.
    pub related: Vec<(String, usize)>,
    /// Its source URLs with their lines, for the one-record-per-source check.
    pub sources: Vec<(String, usize)>,
}

/// Parses one record, adding its problems to `diags`.
pub(super) fn parse_incident(path: &Path, text: &str, taxonomy: &Taxonomy, diags: &mut Vec<Diagnostic>) -> Parsed {
    let mut parsed = Parsed::default();
    let before = diags.len();
    control_characters(path, text, diags);
    parsed.incident = parse_record(path, text, taxonomy, diags, &mut parsed);
    if diags.len() > before {
        parsed.incident = None;
    }
    parsed
}

/// Reports every line that holds a control character ([`controls`]), raw or, in
/// the front matter, written as a TOML escape, naming the front-matter key or the
/// section it is in: such characters would reach the pages and the API raw.
fn control_characters(path: &Path, text: &str, diags: &mut Vec<Diagnostic>) {
    let mut field: Option<String> = None;
    let mut fences = 0;
    let mut fields: Vec<Option<String>> = Vec::new();
    let (mut front_start, mut front_end) = (0, 0);
    let mut offset = 0;
    for line in text.split('\n') {
        if line.trim_end() == "+++" {
            fences += 1;
            field = None;
            if fences == 1 {
                front_start = offset + line.len() + 1;
            } else if fences == 2 {
                front_end = offset;
            }
        } else if fences == 1 {
            if let Some((key, _)) = line
                .split_once('=')
                .filter(|(k, _)| !k.trim().is_empty() && !k.contains('"'))
            {
                field = Some(key.trim().to_string());
            }
        } else if let Some(name) = line.strip_prefix("## ") {
            field = Some(name.trim().to_string());
        }
        fields.push(field.clone());
        offset += line.len() + 1;
    }
    let mut found = controls::refused(text, false);
    if front_end > front_start {
        let first = 1 + text[..front_start].matches('\n').count();
        found.extend(
            controls::escaped(&text[front_start..front_end])
                .into_iter()
                .map(|(l, c)| (l + first - 1, c)),
        );
        found.sort_by_key(|&(l, _)| l);
        found.dedup_by_key(|&mut (l, _)| l);
    }
    for (line, c) in found {
        let field = fields.get(line - 1).cloned().flatten();
        diags.push(controls::refused_diag(path, line, field.as_deref(), c));
    }
}

/// Parses and checks the record, step by step. Sets the id and related ids of
/// `parsed` once the fields are typed, so that the checks across records see them
/// even when the record has other problems. Returns the record only when this
/// adds no problem to `diags`.
fn parse_record(
    path: &Path,
    text: &str,
    taxonomy: &Taxonomy,
    diags: &mut Vec<Diagnostic>,
    parsed: &mut Parsed,
) -> Option<Incident> {
    let before = diags.len();
    let split = split(path, text, diags)?;
    let table = parse_table(path, split.front, diags)?;
    check_unknown_fields(path, &split, &table, diags);
    let fields = type_fields(path, &split, &table, diags);
    let date = check_fields(path, &fields, taxonomy, diags);
    parsed.id = fields.strings.get("id").cloned();
    parsed.related = fields.lists.get("related").cloned().unwrap_or_default();
    parsed.sources = fields.lists.get("sources").cloned().unwrap_or_default();
    let sections = parse_sections(path, split.body, split.body_line, diags);
    if diags.len() > before {
        return None;
    }
    Some(assemble(path, &fields, date?, sections))
}

/// The record from its checked fields, date and sections.
fn assemble(path: &Path, fields: &Fields, when: When, sections: Vec<Section>) -> Incident {
    let get = |name: &str| fields.string(name);
    let list = |name: &str| fields.list(name);
    Incident {
        path: path.to_path_buf(),
        id: get("id").unwrap_or_default(),
        title: get("title").unwrap_or_default(),
        org: get("org").unwrap_or_default(),
        date: when.sort,
        when,
        tags: list("tags"),
        severity: get("severity"),
        impact: get("impact"),
        affected_users: get("affected_users"),
        regions: list("regions"),
        time_to_detect: get("time_to_detect"),
        time_to_recover: get("time_to_recover"),
        facets: incident_core::facets::FACETS
            .iter()
            .map(|f| match get(f.field) {
                // A facet with one value (the organisation) is a string.
                Some(one) => vec![one],
                None => list(f.field),
            })
            .collect(),
        sources: list("sources"),
        related: list("related"),
        checks: list("checks"),
        published: get("published").and_then(|p| super::date::Date::parse(&p)),
        updated: get("updated").and_then(|u| super::date::Date::parse(&u)),
        history: list("history"),
        sections,
    }
}
