//! Field checks: what the well-typed fields of one record say. The id against the
//! file name, the title, the date, the durations, the tags, the source URLs, the
//! taxonomy slugs and the related ids. The checks across records are in `folder`.

use std::path::Path;

use incident_core::index::FACETS;

use super::date::{Date, When, Written};
use super::diagnostic::{diag, did_you_mean, Diagnostic, Problem};
use super::fields::Fields;
use super::syntax::{is_duration, is_incident_id, is_kebab, is_source_url};
use super::taxonomy::Taxonomy;

/// Checks the fields of the record at `path`, in the order its problems are
/// reported, and returns its date when it is a real one.
pub(super) fn check_fields(
    path: &Path,
    fields: &Fields,
    taxonomy: &Taxonomy,
    diags: &mut Vec<Diagnostic>,
) -> Option<When> {
    check_id(path, fields, diags);
    check_title(path, fields, diags);
    let date = check_date(path, fields, diags);
    check_updated(path, fields, date.as_ref().map(|w| w.sort), diags);
    check_published(path, fields, date.as_ref().map(|w| w.sort), diags);
    check_durations(path, fields, diags);
    check_tags(path, fields, diags);
    check_sources(path, fields, diags);
    check_slugs(path, fields, taxonomy, diags);
    check_not_self_related(path, fields, diags);
    date
}

/// The id: of the `IL-0001` form, and the file's name.
fn check_id(path: &Path, fields: &Fields, diags: &mut Vec<Diagnostic>) {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let Some((id, line)) = fields.strings.get("id") else {
        return;
    };
    if !is_incident_id(id) {
        diags.push(diag(
            path,
            *line,
            Some("id"),
            Problem::BadId,
            format!("id {id:?} is not of the form IL-0001"),
            Some("ids are IL- and four digits (IL-0001), or the number past IL-9999 (IL-10000)"),
        ));
    } else if id != stem {
        diags.push(diag(
            path,
            *line,
            Some("id"),
            Problem::BadId,
            format!("id {id} does not match the file name {stem}.md"),
            Some(&format!("rename the file to {id}.md or fix the id")),
        ));
    }
}

/// The title: on one line.
fn check_title(path: &Path, fields: &Fields, diags: &mut Vec<Diagnostic>) {
    if let Some((title, line)) = fields.strings.get("title") {
        if title.contains('\n') {
            diags.push(diag(
                path,
                *line,
                Some("title"),
                Problem::BadValue,
                "the title spans several lines".into(),
                Some("the title is one Korean sentence on one line"),
            ));
        }
    }
}

/// The date and its companions (`date_end`, `date_bound`, `date_bound_note`),
/// returned as a [`When`] when they hold together.
fn check_date(path: &Path, fields: &Fields, diags: &mut Vec<Diagnostic>) -> Option<When> {
    let before = diags.len();
    let (d, line) = fields.strings.get("date")?;
    let start = Written::parse(d);
    if start.is_none() {
        bad_date(
            diags,
            path,
            ("date", *line),
            format!("{d:?} is not a real date"),
            "use the UTC day impact began, \"2026-05-29\"; \"2019-06\" when the sources give no day; \"1999\" when they give only the year; \"--10-04\" when they give no year",
        );
    }
    let end = check_end(path, fields, start, diags);
    let (sort, note) = check_bound(path, fields, start, *line, diags);
    if diags.len() > before {
        return None;
    }
    Some(When {
        start: start?,
        end,
        sort: sort?,
        bound_note: note,
    })
}

/// `published`, when given: a real day, not before the day the record sorts by
/// (`sort`) and not after `updated`.
fn check_published(path: &Path, fields: &Fields, sort: Option<Date>, diags: &mut Vec<Diagnostic>) {
    let Some((p, line)) = fields.strings.get("published") else {
        return;
    };
    let at = ("published", *line);
    let Some(day) = Date::parse(p) else {
        let message = format!("{p:?} is not a real YYYY-MM-DD day");
        bad_date(
            diags,
            path,
            at,
            message,
            "the day the record was first published here, e.g. \"2026-11-30\"",
        );
        return;
    };
    if let Some(sort) = sort.filter(|&sort| day < sort) {
        let message = format!("published {day} is before the record's date {sort}");
        bad_date(
            diags,
            path,
            at,
            message,
            "the day the record was first published here: on or after the day of the incident",
        );
    }
    if let Some(updated) = fields
        .strings
        .get("updated")
        .and_then(|(u, _)| Date::parse(u))
        .filter(|&u| day > u)
    {
        let message = format!("published {day} is after updated {updated}");
        bad_date(
            diags,
            path,
            at,
            message,
            "a record is published before it is changed: published is the first day, updated the latest",
        );
    }
}

/// `updated`, when given: a real day, not before the day the record sorts by
/// (`sort`). `history` says what changed, so it needs `updated`.
fn check_updated(path: &Path, fields: &Fields, sort: Option<Date>, diags: &mut Vec<Diagnostic>) {
    let history = fields.lists.get("history").and_then(|h| h.first());
    let Some((u, line)) = fields.strings.get("updated") else {
        if let Some((_, hline)) = history {
            bad_date(
                diags,
                path,
                ("history", *hline),
                "history without updated".into(),
                "add updated = \"YYYY-MM-DD\", the day of the latest change the history names",
            );
        }
        return;
    };
    match (Date::parse(u), sort) {
        (None, _) => bad_date(
            diags,
            path,
            ("updated", *line),
            format!("{u:?} is not a real YYYY-MM-DD day"),
            "the day the record was last changed, e.g. \"2026-12-06\"",
        ),
        (Some(day), Some(sort)) if day < sort => bad_date(
            diags,
            path,
            ("updated", *line),
            format!("updated {day} is before the record's date {sort}"),
            "the day the record was last changed: on or after the day of the incident",
        ),
        _ => {}
    }
}

/// Reports a date field's problem: `at` is the field and its line.
fn bad_date(diags: &mut Vec<Diagnostic>, path: &Path, at: (&'static str, usize), message: String, hint: &str) {
    diags.push(diag(path, at.1, Some(at.0), Problem::BadDate, message, Some(hint)));
}

/// `date_end`, when given: a real date, later than `start` and written like it.
fn check_end(path: &Path, fields: &Fields, start: Option<Written>, diags: &mut Vec<Diagnostic>) -> Option<Written> {
    let (e, eline) = fields.strings.get("date_end")?;
    let parsed = Written::parse(e);
    match (start, parsed) {
        (_, None) => bad_date(
            diags,
            path,
            ("date_end", *eline),
            format!("{e:?} is not a real date"),
            "write it in the form of date",
        ),
        (Some(s), Some(p)) if !When::end_follows_start(s, p) => bad_date(
            diags,
            path,
            ("date_end", *eline),
            format!("date_end {e} does not follow date {s} in the same form"),
            "the last day of the incident, later than date and written like it",
        ),
        _ => {}
    }
    parsed
}

/// The day the record sorts by, and the note on its bound: a date without a year
/// needs `date_bound` and `date_bound_note`, and only such a date may have them.
/// `line` is the line of `date`.
fn check_bound(
    path: &Path,
    fields: &Fields,
    start: Option<Written>,
    line: usize,
    diags: &mut Vec<Diagnostic>,
) -> (Option<Date>, Option<String>) {
    let bound = fields.strings.get("date_bound");
    let note = fields.strings.get("date_bound_note");
    let no_year = start.is_some_and(|s| !s.has_year());
    let mut sort = start.and_then(Written::first_day);
    match (no_year, bound) {
        (true, None) => bad_date(
            diags,
            path,
            ("date_bound", line),
            "the year is unknown and there is no date_bound".into(),
            "add date_bound = \"YYYY-MM-DD\", the latest day the sources allow (e.g. the report's publication day), and date_bound_note saying what it is",
        ),
        (true, Some((b, bline))) => match Date::parse(b) {
            Some(day) => sort = Some(day),
            None => bad_date(
                diags,
                path,
                ("date_bound", *bline),
                format!("{b:?} is not a real YYYY-MM-DD day"),
                "the latest day the sources allow, e.g. \"2014-03-10\"",
            ),
        },
        (false, Some((_, bline))) if start.is_some() => bad_date(
            diags,
            path,
            ("date_bound", *bline),
            "date_bound is only for a date whose year is unknown".into(),
            "remove it: the record sorts by its own date",
        ),
        _ => {}
    }
    match (no_year, note) {
        (true, None) if bound.is_some() => bad_date(
            diags,
            path,
            ("date_bound_note", line),
            "date_bound has no date_bound_note".into(),
            "say what the bound is, e.g. date_bound_note = \"보고서 게시일\"",
        ),
        (false, Some((_, nline))) if start.is_some() => bad_date(
            diags,
            path,
            ("date_bound_note", *nline),
            "date_bound_note is only for a date whose year is unknown".into(),
            "remove it",
        ),
        _ => {}
    }
    (sort, note.map(|(n, _)| n.clone()))
}

/// The times to detect and to recover: durations such as `7h 45m`.
fn check_durations(path: &Path, fields: &Fields, diags: &mut Vec<Diagnostic>) {
    for name in ["time_to_detect", "time_to_recover"] {
        if let Some((d, line)) = fields.strings.get(name) {
            if !is_duration(d) {
                diags.push(diag(
                    path,
                    *line,
                    Some(name),
                    Problem::BadDuration,
                    format!("{d:?} is not a duration of at most 50 years"),
                    Some("write days, hours and minutes, largest first: \"19m\", \"7h 45m\", \"2d 3h\""),
                ));
            }
        }
    }
}

/// The tags: ascii kebab-case.
fn check_tags(path: &Path, fields: &Fields, diags: &mut Vec<Diagnostic>) {
    for (tag, line) in fields.lists.get("tags").into_iter().flatten() {
        if !is_kebab(tag) {
            diags.push(diag(
                path,
                *line,
                Some("tags"),
                Problem::BadTag,
                format!("tag {tag:?} is not ascii kebab-case"),
                Some("tags are lower-case ascii words joined by hyphens, e.g. ai-infra"),
            ));
        }
    }
}

/// The sources: absolute http(s) URLs ([`is_source_url`]).
fn check_sources(path: &Path, fields: &Fields, diags: &mut Vec<Diagnostic>) {
    for (url, line) in fields.lists.get("sources").into_iter().flatten() {
        if !is_source_url(url) {
            diags.push(diag(
                path,
                *line,
                Some("sources"),
                Problem::BadUrl,
                format!("{url:?} is not an absolute http(s) URL"),
                Some("cite the original report, e.g. \"https://status.example.com/incidents/123\"; percent-encode spaces and non-ASCII characters"),
            ));
        }
    }
}

/// The facet fields and the organisation: slugs of the taxonomy.
fn check_slugs(path: &Path, fields: &Fields, taxonomy: &Taxonomy, diags: &mut Vec<Diagnostic>) {
    // The facets' record fields come from the one list of facets: lists of slugs,
    // but for the organisation, which is one slug.
    for facet in FACETS {
        let listed = fields.lists.get(facet.field).into_iter().flatten();
        let single = fields.strings.get(facet.field).into_iter();
        for (slug, line) in listed.chain(single) {
            check_slug(path, *line, facet.field, facet.key, slug, taxonomy, diags);
        }
    }
}

/// The related ids: not the record's own. (That they exist is checked across
/// records.)
fn check_not_self_related(path: &Path, fields: &Fields, diags: &mut Vec<Diagnostic>) {
    let id = fields.string("id").unwrap_or_default();
    for (r, line) in fields.lists.get("related").into_iter().flatten() {
        if *r == id {
            diags.push(diag(
                path,
                *line,
                Some("related"),
                Problem::UnknownRelated,
                "a record cannot be related to itself".into(),
                Some("remove its own id from `related`"),
            ));
        }
    }
}

/// Reports `slug` in `field` when facet `key` has no such value, with the value
/// meant when the slug is a label or a near miss.
fn check_slug(
    path: &Path,
    line: usize,
    field: &str,
    key: &str,
    slug: &str,
    taxonomy: &Taxonomy,
    diags: &mut Vec<Diagnostic>,
) {
    let values = taxonomy.values(key);
    if values.iter().any(|v| v.slug == slug) {
        return;
    }
    // A taxonomy that did not load is reported once, first; every slug of every
    // record would otherwise be reported unknown after it.
    if taxonomy.facets.iter().all(Vec::is_empty) {
        return;
    }
    // An old slug: it still works in URLs, but a record says what the value is now.
    if let Some(v) = taxonomy.alias(key, slug) {
        diags.push(diag(
            path,
            line,
            Some(field),
            Problem::UnknownSlug,
            format!("{key} {slug:?} was merged into {:?}", v.slug),
            Some(&format!("write {:?}", v.slug)),
        ));
        return;
    }
    // Someone may have typed the label instead of the slug.
    let by_label = values.iter().find(|v| {
        v.ko == slug || v.en.eq_ignore_ascii_case(slug) || v.synonyms.iter().any(|s| s.eq_ignore_ascii_case(slug))
    });
    let near = by_label
        .map(|v| v.slug.clone())
        .or_else(|| did_you_mean(slug, values.iter().map(|v| v.slug.as_str())));
    let hint = match near {
        Some(n) => format!("did you mean {n:?}?"),
        None => format!(
            "add it to [[{key}]] in data/taxonomy.toml, or use one of: {}",
            values
                .iter()
                .map(|v| v.slug.as_str())
                .take(12)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    diags.push(diag(
        path,
        line,
        Some(field),
        Problem::UnknownSlug,
        format!(
            "unknown {} {slug:?}",
            FACETS.iter().find(|f| f.key == key).map_or(key, |f| f.key)
        ),
        Some(&hint),
    ));
}
