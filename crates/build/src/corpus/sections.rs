//! The body of a record: its `##` sections, split and checked against
//! [`incident_core::sections`], and the plain text of Markdown.

use std::path::Path;

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

use super::diagnostic::{diag, line_of, Diagnostic, Problem};
use incident_core::sections::{self as order, NAMES};

use super::Section;

/// A `##` heading of the body.
struct Heading {
    /// Its text, trimmed.
    name: String,
    /// Byte offset of the heading.
    start: usize,
    /// Byte offset of what follows the heading.
    content_start: usize,
}

/// Splits the body into its `##` sections and checks them. `first_line` is the
/// line of the file the body starts on. The sections come back in reading order.
pub(super) fn parse_sections(path: &Path, body: &str, first_line: usize, diags: &mut Vec<Diagnostic>) -> Vec<Section> {
    let headings = find_headings(path, body, first_line, diags);
    check_text_before(path, body, first_line, &headings, diags);
    let (mut sections, seen) = read_sections(path, body, first_line, &headings, diags);
    check_missing(path, first_line, &seen, diags);
    check_order(path, first_line, &sections, diags);
    sections.sort_by_key(|s| order::position(&s.name));
    sections
}

/// The `##` headings of the body, in order; a `#` heading is reported.
fn find_headings(path: &Path, body: &str, first_line: usize, diags: &mut Vec<Diagnostic>) -> Vec<Heading> {
    let mut headings = Vec::new();
    let mut in_heading: Option<(usize, String)> = None;
    for (event, range) in Parser::new(body).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                if level == HeadingLevel::H2 {
                    in_heading = Some((range.start, String::new()));
                } else if level == HeadingLevel::H1 {
                    diags.push(diag(
                        path,
                        line_of(body, range.start, first_line),
                        None,
                        Problem::BadSection,
                        "a level-1 heading in the body".into(),
                        Some("sections are ## headings; the title lives in the front matter"),
                    ));
                }
            }
            Event::Text(t) | Event::Code(t) if in_heading.is_some() => {
                if let Some((_, name)) = in_heading.as_mut() {
                    name.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(HeadingLevel::H2)) => {
                if let Some((start, name)) = in_heading.take() {
                    headings.push(Heading {
                        name: name.trim().to_string(),
                        start,
                        content_start: range.end,
                    });
                }
            }
            _ => {}
        }
    }
    headings
}

/// Reports text before the first heading.
fn check_text_before(path: &Path, body: &str, first_line: usize, headings: &[Heading], diags: &mut Vec<Diagnostic>) {
    if let Some(first) = headings.first() {
        if !body[..first.start].trim().is_empty() {
            diags.push(diag(
                path,
                first_line,
                None,
                Problem::BadSection,
                "text before the first section".into(),
                Some("start the body with ## 요약"),
            ));
        }
    }
}

/// The sections under the headings, in body order, with the names seen. Unknown
/// and repeated headings are reported and left out; empty sections are reported.
fn read_sections(
    path: &Path,
    body: &str,
    first_line: usize,
    headings: &[Heading],
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Section>, Vec<String>) {
    let mut sections = Vec::new();
    let mut seen = Vec::new();
    for (i, heading) in headings.iter().enumerate() {
        let name = &heading.name;
        let line = line_of(body, heading.start, first_line);
        let end = headings.get(i + 1).map_or(body.len(), |h| h.start);
        let markdown = body[heading.content_start..end].trim().to_string();
        if !known_and_new(path, line, name, &seen, diags) {
            continue;
        }
        seen.push(name.clone());
        let text = plain_text(&markdown);
        if text.trim().is_empty() {
            // Markup with no text (an HTML tag alone) is not an empty section to leave
            // out: it is markup the pages never show.
            let (message, hint) = if markdown.is_empty() {
                (
                    format!("section \"## {name}\" is empty"),
                    "where the source says nothing, leave the section out",
                )
            } else {
                (
                    format!("section \"## {name}\" holds only markup and no text"),
                    "write the section as plain Markdown text: HTML tags are not shown on the pages",
                )
            };
            diags.push(diag(path, line, Some(name), Problem::EmptySection, message, Some(hint)));
        }
        check_filler(path, body, heading.content_start, first_line, name, &text, diags);
        sections.push(Section {
            name: name.clone(),
            markdown,
            text,
        });
    }
    (sections, seen)
}

/// True when heading `name` is one of [`NAMES`] and not in `seen`; else reports it.
fn known_and_new(path: &Path, line: usize, name: &str, seen: &[String], diags: &mut Vec<Diagnostic>) -> bool {
    if !NAMES.contains(&name) {
        diags.push(diag(
            path,
            line,
            Some(name),
            Problem::BadSection,
            format!("unknown section \"## {name}\""),
            Some(&format!("the sections are, in order: {}", NAMES.join(", "))),
        ));
        return false;
    }
    if seen.iter().any(|s| s == name) {
        diags.push(diag(
            path,
            line,
            Some(name),
            Problem::BadSection,
            format!("section \"## {name}\" appears twice"),
            Some("merge the two sections"),
        ));
        return false;
    }
    true
}

/// Reports sentences that only say the source is silent. Such a sentence is
/// searchable noise: a query for 감지 would match every record that lacks one.
/// The page says "출처에 기록 없음" for an absent section by itself.
fn check_filler(
    path: &Path,
    body: &str,
    start: usize,
    first_line: usize,
    name: &str,
    text: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let line = line_of(body, start, first_line);
    let squashed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let placeholder = ["출처에기록없음", "기록없음", "알려지지않았다", "해당없음", "없음"]
        .iter()
        .any(|p| squashed.trim_end_matches('.') == *p);
    if placeholder {
        diags.push(diag(
            path,
            line,
            Some(name),
            Problem::Filler,
            format!("section \"## {name}\" holds only a placeholder"),
            Some("leave the section out: the page shows \"출처에 기록 없음\" for it"),
        ));
        return;
    }
    for sentence in text.split_inclusive(['.', '\n']) {
        if is_filler(sentence) {
            diags.push(diag(
                path,
                line,
                Some(name),
                Problem::Filler,
                format!("a sentence only says the source is silent: {:?}", sentence.trim()),
                Some("remove it; if the section has nothing else, leave the section out"),
            ));
        }
    }
}

/// True for a sentence about what the source does not say.
pub(super) fn is_filler(sentence: &str) -> bool {
    let s: String = sentence.chars().filter(|c| !c.is_whitespace()).collect();
    let about_source = ["출처", "보고서", "사후분석", "글은", "공지는", "자료"]
        .iter()
        .any(|w| s.contains(w));
    let silent = [
        "밝히지않",
        "밝힌내용이없",
        "언급하지않",
        "나와있지않",
        "적지않",
        "기록하지않",
        "설명하지않",
        "다루지않",
        "기록이없",
        "기록없음",
    ]
    .iter()
    .any(|w| s.contains(w));
    about_source && silent
}

/// Reports every required section ([`order::required`]) that is not in `seen`.
fn check_missing(path: &Path, first_line: usize, seen: &[String], diags: &mut Vec<Diagnostic>) {
    for name in order::required() {
        if !seen.iter().any(|s| s == name) {
            diags.push(diag(
                path,
                first_line,
                Some(name),
                Problem::MissingSection,
                format!("section \"## {name}\" is missing"),
                Some(&format!(
                    "every record has the sections {}; the others are left out when the source says nothing",
                    order::required().collect::<Vec<_>>().join(", ")
                )),
            ));
        }
    }
}

/// Reports sections that are not in reading order.
fn check_order(path: &Path, first_line: usize, sections: &[Section], diags: &mut Vec<Diagnostic>) {
    let order: Vec<usize> = sections.iter().filter_map(|s| order::position(&s.name)).collect();
    if order.windows(2).any(|w| w[0] > w[1]) {
        diags.push(diag(
            path,
            first_line,
            None,
            Problem::SectionOrder,
            "sections are out of order".into(),
            Some(&format!("use the order {}", NAMES.join(", "))),
        ));
    }
}

/// The plain text of a Markdown fragment: paragraphs and list items on their own
/// lines, markup removed.
pub fn plain_text(markdown: &str) -> String {
    let mut out = String::new();
    for event in Parser::new(markdown) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::Heading(_)) if !out.ends_with('\n') => {
                out.push('\n');
            }
            _ => {}
        }
    }
    out.trim().to_string()
}
