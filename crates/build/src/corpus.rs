//! The corpus in `data/`: the taxonomy (`taxonomy.toml`) and the incident records
//! (`incidents/<id>.md`), read and checked.
//!
//! A record is TOML front matter between `+++` lines followed by a Korean Markdown
//! body whose `##` sections are, in order, [`SECTIONS`]. [`load`] reads everything
//! and reports every problem it finds in one pass, each as a [`Diagnostic`] naming
//! the file, the line, the field and a hint; nothing is built from a corpus that has
//! any.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use incident_core::index::FACETS;

/// The body sections every record has, in this order.
pub const SECTIONS: [&str; 8] = ["요약", "증상", "촉발", "원인", "감지", "조치", "후속 조치", "교훈"];

/// Front-matter fields, with whether they are required and their type.
const FIELDS: &[(&str, bool, Kind)] = &[
    ("id", true, Kind::Str),
    ("title", true, Kind::Str),
    ("org", true, Kind::Str),
    ("date", true, Kind::Str),
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
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Str,
    List,
}

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

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Year.
    pub year: i32,
    /// Month, 1..=12.
    pub month: u32,
    /// Day, 1..=31.
    pub day: u32,
}

impl Date {
    /// Parses `YYYY-MM-DD`, checking that the day exists.
    pub fn parse(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let year: i32 = s[0..4].parse().ok()?;
        let month: u32 = s[5..7].parse().ok()?;
        let day: u32 = s[8..10].parse().ok()?;
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        ((1970..=2100).contains(&year) && (1..=days).contains(&day)).then_some(Date { year, month, day })
    }

    /// Days since 1970-01-01.
    pub fn days_since_epoch(self) -> i32 {
        // Howard Hinnant's days_from_civil.
        let y = if self.month <= 2 { self.year - 1 } else { self.year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = self.month as i32;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + self.day as i32 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146097 + doe - 719468
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// A taxonomy value.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Value {
    /// ascii kebab-case, unique in its facet.
    pub slug: String,
    /// Korean label.
    pub ko: String,
    /// English label.
    pub en: String,
    /// Words people type for it.
    #[serde(default)]
    pub synonyms: Vec<String>,
    /// Korean paragraph: its topic page.
    pub description: String,
}

/// The taxonomy: values per facet, in [`FACETS`] order (organisation last).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Taxonomy {
    /// `facets[f]` holds the values of facet `FACETS[f]`.
    pub facets: Vec<Vec<Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTaxonomy {
    #[serde(default)]
    cause: Vec<Spanned<Value>>,
    #[serde(default)]
    component: Vec<Spanned<Value>>,
    #[serde(default)]
    symptom: Vec<Spanned<Value>>,
    #[serde(default)]
    factor: Vec<Spanned<Value>>,
    #[serde(default)]
    org: Vec<Spanned<Value>>,
}

impl Taxonomy {
    /// The values of the facet with key `key`.
    pub fn values(&self, key: &str) -> &[Value] {
        FACETS
            .iter()
            .position(|f| f.0 == key)
            .and_then(|i| self.facets.get(i))
            .map_or(&[], |v| v.as_slice())
    }

    /// The value `slug` of facet `key`.
    pub fn get(&self, key: &str, slug: &str) -> Option<&Value> {
        self.values(key).iter().find(|v| v.slug == slug)
    }
}

/// One section of a record body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Heading (one of [`SECTIONS`]).
    pub name: String,
    /// The Markdown under the heading.
    pub markdown: String,
    /// Plain text of it (for indexing and summaries).
    pub text: String,
}

/// An incident record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incident {
    /// The file it came from.
    pub path: PathBuf,
    /// `IL-0001` form.
    pub id: String,
    /// One Korean sentence.
    pub title: String,
    /// Organisation slug.
    pub org: String,
    /// The UTC day impact began.
    pub date: Date,
    /// Free tags.
    pub tags: Vec<String>,
    /// Severity as the source states it.
    pub severity: Option<String>,
    /// What was affected.
    pub impact: Option<String>,
    /// Who was affected.
    pub affected_users: Option<String>,
    /// Regions.
    pub regions: Vec<String>,
    /// Time from impact to detection (`19m`).
    pub time_to_detect: Option<String>,
    /// Time from impact to recovery (`7h 45m`).
    pub time_to_recover: Option<String>,
    /// Cause slugs.
    pub causes: Vec<String>,
    /// Component slugs.
    pub components: Vec<String>,
    /// Symptom slugs.
    pub symptoms: Vec<String>,
    /// Contributing-factor slugs.
    pub factors: Vec<String>,
    /// Source URLs.
    pub sources: Vec<String>,
    /// Related incident ids.
    pub related: Vec<String>,
    /// Read-only checks.
    pub checks: Vec<String>,
    /// Body sections in [`SECTIONS`] order.
    pub sections: Vec<Section>,
}

impl Incident {
    /// Slugs of facet `key` (`org` gives the organisation).
    pub fn facet(&self, key: &str) -> Vec<&str> {
        match key {
            "cause" => self.causes.iter().map(String::as_str).collect(),
            "component" => self.components.iter().map(String::as_str).collect(),
            "symptom" => self.symptoms.iter().map(String::as_str).collect(),
            "factor" => self.factors.iter().map(String::as_str).collect(),
            "org" => vec![self.org.as_str()],
            _ => Vec::new(),
        }
    }

    /// The section called `name`.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }
}

/// A checked corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corpus {
    /// The taxonomy.
    pub taxonomy: Taxonomy,
    /// Records sorted by id.
    pub incidents: Vec<Incident>,
    /// The domain lexicon (`lexicon.toml`; empty when there is none).
    pub lexicon: Vec<crate::lexicon::Entry>,
}

/// Reads and checks the corpus in `dir` (`taxonomy.toml`, `incidents/*.md`).
/// Returns the corpus when there are no problems, else every problem found.
pub fn load(dir: &Path) -> Result<Corpus, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let taxonomy = load_taxonomy(&dir.join("taxonomy.toml"), &mut diags);
    if taxonomy.facets.iter().all(Vec::is_empty) && !diags.iter().any(|d| d.file.ends_with("taxonomy.toml")) {
        diags.push(diag(
            &dir.join("taxonomy.toml"),
            1,
            None,
            Problem::Taxonomy,
            "the taxonomy has no values".into(),
            Some("list [[cause]], [[component]], [[symptom]], [[factor]] and [[org]] tables"),
        ));
    }
    let lexicon = crate::lexicon::load(&dir.join("lexicon.toml"), &mut diags);
    let incidents_dir = dir.join("incidents");
    let mut paths: Vec<PathBuf> = match fs::read_dir(&incidents_dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| record_file(p, &mut diags))
            .collect(),
        Err(e) => {
            diags.push(diag(
                &incidents_dir,
                1,
                None,
                Problem::Io,
                format!("cannot read the folder: {e}"),
                Some("records live in data/incidents/<id>.md"),
            ));
            Vec::new()
        }
    };
    paths.sort();
    let mut incidents = Vec::new();
    let mut parsed = Vec::new();
    for path in &paths {
        match fs::read(path).map(String::from_utf8) {
            Ok(Ok(text)) => {
                let p = parse_incident(path, &text, &taxonomy, &mut diags);
                incidents.extend(p.incident.clone());
                parsed.push((path.clone(), p));
            }
            Ok(Err(e)) => {
                // The line of the first byte that is not UTF-8, not line 1.
                let valid = e.utf8_error().valid_up_to();
                let line = 1 + e.as_bytes()[..valid].iter().filter(|&&b| b == b'\n').count();
                diags.push(diag(
                    path,
                    line,
                    None,
                    Problem::Io,
                    format!("byte {} is not UTF-8", valid + 1),
                    Some("save the record as UTF-8 text"),
                ));
            }
            Err(e) => diags.push(diag(
                path,
                1,
                None,
                Problem::Io,
                format!("cannot read: {e}"),
                Some("records must be UTF-8 text"),
            )),
        }
    }

    // Across records, including those with other problems, so that one mistake does
    // not hide another: duplicate ids and related ids that point nowhere.
    let mut seen: HashMap<&str, &Path> = HashMap::new();
    for (path, p) in &parsed {
        if let Some((id, line)) = &p.id {
            if let Some(first) = seen.insert(id, path) {
                let message = format!("id {id} is also used by {}", first.display());
                diags.push(diag(
                    path,
                    *line,
                    Some("id"),
                    Problem::DuplicateId,
                    message,
                    Some("every record needs its own id; take the next free number"),
                ));
            }
        }
    }
    let ids: HashSet<&str> = seen.keys().copied().collect();
    for (path, p) in &parsed {
        for (related, line) in &p.related {
            if !ids.contains(related.as_str()) {
                let hint = did_you_mean(related, ids.iter().copied())
                    .map_or("list ids of existing records".into(), |n| {
                        format!("did you mean {n:?}?")
                    });
                diags.push(diag(
                    path,
                    *line,
                    Some("related"),
                    Problem::UnknownRelated,
                    format!("no record has the id {related:?}"),
                    Some(&hint),
                ));
            }
        }
    }

    if diags.is_empty() {
        incidents.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(Corpus {
            taxonomy,
            incidents,
            lexicon,
        })
    } else {
        // The taxonomy and the lexicon first: records depend on them.
        let record = |d: &Diagnostic| d.file.starts_with(&incidents_dir);
        diags.sort_by(|a, b| {
            record(a)
                .cmp(&record(b))
                .then(a.file.cmp(&b.file))
                .then(a.line.cmp(&b.line))
        });
        Err(diags)
    }
}

/// True when `path` in `incidents/` is a record to read: a regular file named
/// `*.md`. A `.MD`, a link, a FIFO or a folder named like a record is reported, not
/// read: reading a FIFO would wait forever, and a link may lead out of the corpus.
fn record_file(path: &Path, diags: &mut Vec<Diagnostic>) -> bool {
    let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
        return false;
    };
    if !ext.eq_ignore_ascii_case("md") {
        return false;
    }
    let mut problem = |message: String, hint: &str| {
        diags.push(diag(path, 1, None, Problem::NotARecordFile, message, Some(hint)));
        false
    };
    if ext != "md" {
        return problem(
            format!("the extension is .{ext}, not .md, so this file would not be read"),
            "rename it to <id>.md",
        );
    }
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => problem(
            "is a link; records are read only as plain files inside data/incidents".into(),
            "copy the record into data/incidents instead of linking to it",
        ),
        Ok(m) if !m.is_file() => problem(
            "is not a regular file (a folder, FIFO or device)".into(),
            "records are plain UTF-8 files named <id>.md",
        ),
        Ok(_) => true,
        Err(e) => problem(format!("cannot read: {e}"), "records must be readable files"),
    }
}

fn diag(
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
fn line_of(text: &str, offset: usize, first: usize) -> usize {
    first + text[..offset.min(text.len())].matches('\n').count()
}

/// Reads `taxonomy.toml`.
fn load_taxonomy(path: &Path, diags: &mut Vec<Diagnostic>) -> Taxonomy {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            diags.push(diag(
                path,
                1,
                None,
                Problem::Io,
                format!("cannot read: {e}"),
                Some("the taxonomy lives in data/taxonomy.toml"),
            ));
            return Taxonomy {
                facets: vec![Vec::new(); FACETS.len()],
            };
        }
    };
    let raw: RawTaxonomy = match toml::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            let line = e.span().map_or(1, |s| line_of(&text, s.start, 1));
            diags.push(diag(path, line, None, Problem::MalformedToml, e.message().to_string(), Some("each value is a [[cause]], [[component]], [[symptom]], [[factor]] or [[org]] table with slug, ko, en, synonyms and description")));
            return Taxonomy {
                facets: vec![Vec::new(); FACETS.len()],
            };
        }
    };
    let mut facets = Vec::new();
    for (key, values) in [
        ("cause", raw.cause),
        ("component", raw.component),
        ("symptom", raw.symptom),
        ("factor", raw.factor),
        ("org", raw.org),
    ] {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for spanned in values {
            let line = line_of(&text, spanned.span().start, 1);
            let v = spanned.into_inner();
            if !is_kebab(&v.slug) {
                diags.push(diag(
                    path,
                    line,
                    Some("slug"),
                    Problem::Taxonomy,
                    format!("{key} slug {:?} is not ascii kebab-case", v.slug),
                    Some("use lower-case letters, digits and single hyphens, e.g. retry-amplification"),
                ));
            }
            if !seen.insert(v.slug.clone()) {
                diags.push(diag(
                    path,
                    line,
                    Some("slug"),
                    Problem::Taxonomy,
                    format!("{key} slug {:?} appears twice", v.slug),
                    Some("merge the two entries"),
                ));
            }
            for (field, value) in [("ko", &v.ko), ("en", &v.en), ("description", &v.description)] {
                if value.trim().is_empty() {
                    diags.push(diag(
                        path,
                        line,
                        Some(field),
                        Problem::Taxonomy,
                        format!("{key} {:?} has an empty {field}", v.slug),
                        Some("every value needs ko and en labels and a Korean description"),
                    ));
                }
            }
            if v.synonyms.iter().any(|s| s.trim().is_empty()) {
                diags.push(diag(
                    path,
                    line,
                    Some("synonyms"),
                    Problem::Taxonomy,
                    format!("{key} {:?} has an empty synonym", v.slug),
                    None,
                ));
            }
            out.push(v);
        }
        facets.push(out);
    }
    Taxonomy { facets }
}

/// True for ascii kebab-case: `[a-z0-9]+(-[a-z0-9]+)*`.
fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// True for `Nd`, `Nh`, `Nm` parts separated by spaces, largest unit first (`7h 45m`).
fn is_duration(s: &str) -> bool {
    let mut last = usize::MAX;
    let parts: Vec<&str> = s.split(' ').collect();
    !s.is_empty()
        && parts.iter().all(|p| {
            let Some(unit) = p.chars().last() else {
                return false;
            };
            let Some(rank) = ['m', 'h', 'd'].iter().position(|&u| u == unit) else {
                return false;
            };
            let num = &p[..p.len() - 1];
            let ok = !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) && rank < last;
            last = rank;
            ok
        })
}

fn did_you_mean<'a>(s: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
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

/// What [`parse_incident`] learnt from one file.
#[derive(Default)]
struct Parsed {
    /// The record, when the file has no problem.
    incident: Option<Incident>,
    /// Its id and line, when it has a string id, for the duplicate check.
    id: Option<(String, usize)>,
    /// Its related ids with their lines, for the cross-record check.
    related: Vec<(String, usize)>,
}

/// Parses one record, adding its problems to `diags`.
fn parse_incident(path: &Path, text: &str, taxonomy: &Taxonomy, diags: &mut Vec<Diagnostic>) -> Parsed {
    let mut parsed = Parsed::default();
    let before = diags.len();
    control_characters(path, text, diags);
    parsed.incident = parse_record(path, text, taxonomy, diags, &mut parsed);
    if diags.len() > before {
        parsed.incident = None;
    }
    parsed
}

/// Reports every line that holds a control character (NUL, escape, …; a tab is
/// fine), naming the front-matter key or the section it is in: such characters
/// would reach the pages and the API raw.
fn control_characters(path: &Path, text: &str, diags: &mut Vec<Diagnostic>) {
    let mut field: Option<String> = None;
    let mut fences = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim_end() == "+++" {
            fences += 1;
            field = None;
            continue;
        }
        if fences == 1 {
            if let Some((key, _)) = line
                .split_once('=')
                .filter(|(k, _)| !k.trim().is_empty() && !k.contains('"'))
            {
                field = Some(key.trim().to_string());
            }
        } else if let Some(name) = line.strip_prefix("## ") {
            field = Some(name.trim().to_string());
        }
        if let Some(c) = line.chars().find(|&c| c.is_control() && c != '\t' && c != '\r') {
            diags.push(diag(
                path,
                i + 1,
                field.as_deref(),
                Problem::BadValue,
                format!("the text holds the control character U+{:04X}", c as u32),
                Some("remove it: records are plain text, and the pages would show it raw"),
            ));
        }
    }
}

fn parse_record(
    path: &Path,
    text: &str,
    taxonomy: &Taxonomy,
    diags: &mut Vec<Diagnostic>,
    parsed: &mut Parsed,
) -> Option<Incident> {
    let before = diags.len();
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
    let body_line = 3 + front.matches('\n').count();

    let table: BTreeMap<Spanned<String>, Spanned<toml::Value>> = match toml::from_str(front) {
        Ok(t) => t,
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
            return None;
        }
    };
    let fields: HashMap<&str, (&Spanned<String>, &Spanned<toml::Value>)> =
        table.iter().map(|(k, v)| (k.get_ref().as_str(), (k, v))).collect();
    let line_at = |span: std::ops::Range<usize>| line_of(front, span.start, 2);

    for (key, _) in &table {
        if !FIELDS.iter().any(|f| f.0 == key.get_ref()) {
            let near = did_you_mean(key.get_ref(), FIELDS.iter().map(|f| f.0));
            diags.push(diag(
                path,
                line_at(key.span()),
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

    let mut strings: HashMap<&str, (String, usize)> = HashMap::new();
    let mut lists: HashMap<&str, Vec<(String, usize)>> = HashMap::new();
    for &(name, required, kind) in FIELDS {
        let Some((_, value)) = fields.get(name) else {
            if required {
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
            continue;
        };
        let line = line_at(value.span());
        match (kind, value.get_ref()) {
            (Kind::Str, toml::Value::String(s)) => {
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
                } else {
                    strings.insert(name, (s.trim().to_string(), line));
                }
            }
            (Kind::List, toml::Value::Array(items)) => {
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
                lists.insert(name, out);
            }
            (_, other) => {
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
        }
    }

    let get = |name: &str| strings.get(name).map(|(s, _)| s.clone());

    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if let Some((id, line)) = strings.get("id") {
        let well_formed = id.len() == 7 && id.starts_with("IL-") && id[3..].bytes().all(|b| b.is_ascii_digit());
        if !well_formed {
            diags.push(diag(
                path,
                *line,
                Some("id"),
                Problem::BadId,
                format!("id {id:?} is not of the form IL-0001"),
                Some("ids are IL- and four digits"),
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
    if let Some((title, line)) = strings.get("title") {
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
    let date = strings.get("date").and_then(|(d, line)| {
        let parsed = Date::parse(d);
        if parsed.is_none() {
            diags.push(diag(
                path,
                *line,
                Some("date"),
                Problem::BadDate,
                format!("{d:?} is not a real date in YYYY-MM-DD form"),
                Some("use the UTC day impact began, e.g. \"2026-05-29\""),
            ));
        }
        parsed
    });
    for name in ["time_to_detect", "time_to_recover"] {
        if let Some((d, line)) = strings.get(name) {
            if !is_duration(d) {
                diags.push(diag(
                    path,
                    *line,
                    Some(name),
                    Problem::BadDuration,
                    format!("{d:?} is not a duration"),
                    Some("write days, hours and minutes, largest first: \"19m\", \"7h 45m\", \"2d 3h\""),
                ));
            }
        }
    }
    for (tag, line) in lists.get("tags").into_iter().flatten() {
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
    for (url, line) in lists.get("sources").into_iter().flatten() {
        // As the API's schemas read it (`format: uri`, RFC 3986): ASCII, no spaces,
        // no characters that must be escaped.
        let plain = url
            .chars()
            .all(|c| c.is_ascii_graphic() && !matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}'));
        let ok = plain
            && url::Url::parse(url).ok().is_some_and(|u| {
                matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| h.contains('.'))
            });
        if !ok {
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
    let facet_fields = [
        ("causes", "cause"),
        ("components", "component"),
        ("symptoms", "symptom"),
        ("factors", "factor"),
    ];
    for (field, key) in facet_fields {
        for (slug, line) in lists.get(field).into_iter().flatten() {
            check_slug(path, *line, field, key, slug, taxonomy, diags);
        }
    }
    if let Some((org, line)) = strings.get("org") {
        check_slug(path, *line, "org", "org", org, taxonomy, diags);
    }
    let id = get("id").unwrap_or_default();
    parsed.id = strings.get("id").cloned();
    parsed.related = lists.get("related").cloned().unwrap_or_default();
    for (r, line) in &parsed.related {
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

    let sections = parse_sections(path, body, body_line, diags);

    if diags.len() > before {
        return None;
    }
    let list = |name: &str| {
        lists
            .get(name)
            .map(|l| l.iter().map(|(s, _)| s.clone()).collect())
            .unwrap_or_default()
    };
    Some(Incident {
        path: path.to_path_buf(),
        id,
        title: get("title").unwrap_or_default(),
        org: get("org").unwrap_or_default(),
        date: date?,
        tags: list("tags"),
        severity: get("severity"),
        impact: get("impact"),
        affected_users: get("affected_users"),
        regions: list("regions"),
        time_to_detect: get("time_to_detect"),
        time_to_recover: get("time_to_recover"),
        causes: list("causes"),
        components: list("components"),
        symptoms: list("symptoms"),
        factors: list("factors"),
        sources: list("sources"),
        related: list("related"),
        checks: list("checks"),
        sections,
    })
}

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
            FACETS.iter().find(|f| f.0 == key).map_or(key, |f| f.0)
        ),
        Some(&hint),
    ));
}

/// Splits the body into its `##` sections and checks them.
fn parse_sections(path: &Path, body: &str, first_line: usize, diags: &mut Vec<Diagnostic>) -> Vec<Section> {
    use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

    let mut headings: Vec<(String, usize, usize)> = Vec::new(); // name, heading start, content start
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
                    headings.push((name.trim().to_string(), start, range.end));
                }
            }
            _ => {}
        }
    }
    if let Some((_, start, _)) = headings.first() {
        if !body[..*start].trim().is_empty() {
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
    let mut sections = Vec::new();
    let mut seen = Vec::new();
    for (i, (name, start, content_start)) in headings.iter().enumerate() {
        let line = line_of(body, *start, first_line);
        let end = headings.get(i + 1).map_or(body.len(), |h| h.1);
        let markdown = body[*content_start..end].trim().to_string();
        if !SECTIONS.contains(&name.as_str()) {
            diags.push(diag(
                path,
                line,
                Some(name),
                Problem::BadSection,
                format!("unknown section \"## {name}\""),
                Some(&format!("the sections are, in order: {}", SECTIONS.join(", "))),
            ));
            continue;
        }
        if seen.contains(name) {
            diags.push(diag(
                path,
                line,
                Some(name),
                Problem::BadSection,
                format!("section \"## {name}\" appears twice"),
                Some("merge the two sections"),
            ));
            continue;
        }
        seen.push(name.clone());
        let text = plain_text(&markdown);
        if text.trim().is_empty() {
            diags.push(diag(
                path,
                line,
                Some(name),
                Problem::EmptySection,
                format!("section \"## {name}\" is empty"),
                Some("where the source says nothing, say so in one line"),
            ));
        }
        sections.push(Section {
            name: name.clone(),
            markdown,
            text,
        });
    }
    for name in SECTIONS {
        if !seen.iter().any(|s| s == name) {
            diags.push(diag(
                path,
                first_line,
                Some(name),
                Problem::MissingSection,
                format!("section \"## {name}\" is missing"),
                Some(&format!("every record has the sections {}", SECTIONS.join(", "))),
            ));
        }
    }
    let order: Vec<usize> = sections
        .iter()
        .filter_map(|s| SECTIONS.iter().position(|n| *n == s.name))
        .collect();
    if order.windows(2).any(|w| w[0] > w[1]) {
        diags.push(diag(
            path,
            first_line,
            None,
            Problem::SectionOrder,
            "sections are out of order".into(),
            Some(&format!("use the order {}", SECTIONS.join(", "))),
        ));
    }
    sections.sort_by_key(|s| SECTIONS.iter().position(|n| *n == s.name));
    sections
}

/// The plain text of a Markdown fragment: paragraphs and list items on their own
/// lines, markup removed.
pub fn plain_text(markdown: &str) -> String {
    use pulldown_cmark::{Event, Parser, TagEnd};
    let mut out = String::new();
    for event in Parser::new(markdown) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::End(TagEnd::Paragraph | TagEnd::Item | TagEnd::Heading(_)) => {
                if !out.ends_with('\n') {
                    out.push('\n');
                }
            }
            _ => {}
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(Date::parse("2026-05-29").unwrap().to_string(), "2026-05-29");
        assert!(Date::parse("2023-02-29").is_none());
        assert!(Date::parse("2024-02-29").is_some());
        assert!(Date::parse("2026-13-01").is_none());
        assert!(Date::parse("2026-5-29").is_none());
        assert_eq!(Date::parse("1970-01-01").unwrap().days_since_epoch(), 0);
        assert_eq!(Date::parse("2000-03-01").unwrap().days_since_epoch(), 11017);
    }

    #[test]
    fn durations() {
        for ok in ["19m", "7h 45m", "2d 3h", "1d"] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in ["", "19", "45m 7h", "7h  45m", "1.5h", "19min"] {
            assert!(!is_duration(bad), "{bad}");
        }
    }

    #[test]
    fn plain_text_strips_markup() {
        assert_eq!(plain_text("- **굵게** 썼다\n- `코드` 도"), "굵게 썼다\n코드 도");
    }
}
