//! The corpus folder, read by [`load`] and checked in one pass: the taxonomy, the
//! lexicon, every record, then the checks across records.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::diagnostic::{diag, did_you_mean, Diagnostic, Problem};
use super::moved::{load_moved, Moved};
use super::record::{parse_incident, Parsed};
use super::taxonomy::{load_taxonomy, Taxonomy};
use super::tomlfile::{read_toml, Presence};
use super::wording::{self, Reading};
use super::{Corpus, Incident};

/// Reads and checks the corpus in `dir` (`taxonomy.toml`, `incidents/*.md`).
/// Returns the corpus when there are no problems, else every problem found.
pub fn load(dir: &Path) -> Result<Corpus, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let taxonomy = load_taxonomy(&dir.join("taxonomy.toml"), &mut diags);
    check_taxonomy_has_values(dir, &taxonomy, &mut diags);
    let lexicon = crate::lexicon::load(&dir.join("lexicon.toml"), &mut diags);
    let incidents_dir = dir.join("incidents");
    let paths = record_paths(&incidents_dir, &mut diags);
    check_user_dictionary(&dir.join(crate::bundle::USER_DICTIONARY), &mut diags);
    let names = load_readings(&dir.join("GLOSSARY.md"), &mut diags);
    let (incidents, parsed) = read_records(&paths, &taxonomy, &names, &mut diags);
    let moved = load_moved(&dir.join("moved.toml"), &mut diags);
    let general = load_general_sources(&dir.join("general-sources.toml"), &mut diags);
    check_across_records(&parsed, &moved, &dir.join("moved.toml"), &general, &mut diags);
    if diags.is_empty() {
        let mut incidents = incidents;
        incidents.sort_by_key(|i| super::syntax::id_number(&i.id));
        Ok(Corpus {
            taxonomy,
            incidents,
            lexicon,
            moved,
        })
    } else {
        sort_diagnostics(&mut diags, &incidents_dir);
        Err(diags)
    }
}

/// Checks the user dictionary (`dictionary.csv`) as the build reads it, so that
/// `check` passes only what `build` accepts: each line a CSV row of three fields,
/// `surface,NNG,reading`, with its quotes closed. Absent is fine.
fn check_user_dictionary(path: &Path, diags: &mut Vec<Diagnostic>) {
    let Ok(text) = fs::read_to_string(path) else {
        if path.exists() {
            diags.push(diag(
                path,
                1,
                None,
                Problem::Io,
                "cannot read the user dictionary as UTF-8 text".into(),
                Some("each line is `surface,NNG,reading`"),
            ));
        }
        return;
    };
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let quotes = line.matches('"').count();
        let fields = if quotes == 0 {
            line.split(',').count()
        } else {
            csv_fields(line)
        };
        let problem = if quotes % 2 == 1 {
            Some("a quote is opened and never closed".to_string())
        } else if fields < 3 {
            Some(format!("{fields} field(s) where the dictionary needs at least 3"))
        } else if line.split(',').next().is_some_and(|s| s.trim().is_empty()) {
            Some("the surface (first field) is empty".to_string())
        } else {
            None
        };
        if let Some(message) = problem {
            diags.push(diag(
                path,
                i + 1,
                None,
                Problem::BadValue,
                message,
                Some("each line is `surface,NNG,reading`, e.g. `재시도,NNG,재시도`"),
            ));
        }
    }
}

/// The number of comma-separated fields of a CSV row with quoted fields.
fn csv_fields(line: &str) -> usize {
    let mut quoted = false;
    1 + line
        .chars()
        .filter(|&c| {
            if c == '"' {
                quoted = !quoted;
            }
            c == ',' && !quoted
        })
        .count()
}

/// The names and readings of the glossary's reading table (none without a
/// glossary: a corpus need not have one), each bad row reported.
fn load_readings(path: &Path, diags: &mut Vec<Diagnostic>) -> Vec<Reading> {
    let Ok(text) = fs::read_to_string(path) else {
        return Vec::new();
    };
    let (names, bad) = wording::readings(&text);
    for (line, message) in bad {
        diags.push(diag(
            path,
            line,
            None,
            Problem::Wording,
            message,
            Some("each row is | name | reading |, the reading in Hangul"),
        ));
    }
    names
}

/// Reports a taxonomy that was read but holds no values.
fn check_taxonomy_has_values(dir: &Path, taxonomy: &Taxonomy, diags: &mut Vec<Diagnostic>) {
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
}

/// The record files of `incidents_dir`, sorted ([`record_file`]).
fn record_paths(incidents_dir: &Path, diags: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = match fs::read_dir(incidents_dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| record_file(p, diags))
            .collect(),
        Err(e) => {
            diags.push(diag(
                incidents_dir,
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
    paths
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

/// Reads and parses every record: the records without problems, and what was
/// learnt from every file that could be read, for the checks across records.
fn read_records(
    paths: &[PathBuf],
    taxonomy: &Taxonomy,
    names: &[Reading],
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Incident>, Vec<(PathBuf, Parsed)>) {
    /// One thread's records, parsed, with the problems it found.
    type Share = (Vec<(PathBuf, Parsed)>, Vec<Diagnostic>);
    // Records are read and parsed on every core, each share in order with its own
    // problems, then joined in path order: the same result as one pass.
    let threads = crate::threads();
    let share = paths.len().div_ceil(threads).max(1);
    let shares: Vec<Share> = std::thread::scope(|scope| {
        let handles: Vec<_> = paths
            .chunks(share)
            .map(|part| {
                scope.spawn(move || {
                    let mut diags = Vec::new();
                    let mut parsed = Vec::new();
                    for path in part {
                        if let Some(text) = read_text(path, &mut diags) {
                            parsed.push((path.clone(), parse_incident(path, &text, taxonomy, &mut diags)));
                            wording::check(path, &text, names, &mut diags);
                        }
                    }
                    (parsed, diags)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    let mut incidents = Vec::new();
    let mut parsed = Vec::new();
    for (part, part_diags) in shares {
        diags.extend(part_diags);
        for (path, mut p) in part {
            // The record is moved out: the checks across records read only the
            // parsed fields, not the incident.
            incidents.extend(p.incident.take());
            parsed.push((path, p));
        }
    }
    (incidents, parsed)
}

/// The largest record file read, in bytes: the longest record is about 10 KB, and a
/// much larger file is a mistake that would slow every check (docs/limits.md).
pub const MAX_RECORD_BYTES: u64 = 256 * 1024;

/// The UTF-8 text of the file at `path`, or `None` after reporting why not.
fn read_text(path: &Path, diags: &mut Vec<Diagnostic>) -> Option<String> {
    if let Ok(m) = fs::metadata(path) {
        if m.len() > MAX_RECORD_BYTES {
            diags.push(diag(
                path,
                1,
                None,
                Problem::BadValue,
                format!(
                    "the record is {} KB; a record is at most {} KB",
                    m.len() / 1024,
                    MAX_RECORD_BYTES / 1024
                ),
                Some("a record tells one incident in its own words (most are 4-10 KB): shorten it, or split what are two incidents"),
            ));
            return None;
        }
    }
    match fs::read(path).map(String::from_utf8) {
        Ok(Ok(text)) => Some(text),
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
            None
        }
        Err(e) => {
            diags.push(diag(
                path,
                1,
                None,
                Problem::Io,
                format!("cannot read: {e}"),
                Some("records must be UTF-8 text"),
            ));
            None
        }
    }
}

/// Across records, including those with other problems, so that one mistake does
/// not hide another: duplicate ids, related ids that point nowhere or at a moved
/// record, moves that clash with a record, and sources two records share.
fn check_across_records(
    parsed: &[(PathBuf, Parsed)],
    moved: &[Moved],
    moved_path: &Path,
    general: &HashSet<String>,
    diags: &mut Vec<Diagnostic>,
) {
    let ids = check_duplicate_ids(parsed, diags);
    check_moves(parsed, moved, moved_path, &ids, diags);
    check_related_exist(parsed, &ids, moved, diags);
    check_shared_sources(parsed, general, diags);
}

/// `general-sources.toml`: the pages several records may cite, a provider's
/// general status history for incidents whose own report is not known. A missing
/// file lists none.
fn load_general_sources(path: &Path, diags: &mut Vec<Diagnostic>) -> HashSet<String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        page: Vec<Page>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)] // `why` is for readers of the file
    struct Page {
        url: String,
        why: String,
    }
    read_toml::<File>(
        path,
        Presence::Optional,
        "each page is a [[page]] table with url and why",
        diags,
    )
    .map(|(_, f)| f.page.into_iter().map(|p| source_key(&p.url)).collect())
    .unwrap_or_default()
}

/// A source URL as compared: no fragment, no trailing slash.
fn source_key(url: &str) -> String {
    url.split('#').next().unwrap_or(url).trim_end_matches('/').to_string()
}

/// Reports a move whose old id still has a record, or whose new id has none.
fn check_moves(
    parsed: &[(PathBuf, Parsed)],
    moved: &[Moved],
    moved_path: &Path,
    ids: &HashSet<&str>,
    diags: &mut Vec<Diagnostic>,
) {
    for m in moved {
        if let Some((path, _)) = parsed
            .iter()
            .find(|(_, p)| p.id.as_ref().is_some_and(|(id, _)| *id == m.id))
        {
            diags.push(diag(
                path,
                1,
                Some("id"),
                Problem::Moved,
                format!("{} has a record, but moved.toml says it moved to {}", m.id, m.to),
                Some("delete this file (its content belongs in the record it moved to) or remove the move"),
            ));
        }
        if !ids.contains(m.to.as_str()) {
            diags.push(diag(
                moved_path,
                m.line,
                Some("to"),
                Problem::Moved,
                format!("{} moved to {}, which no record has", m.id, m.to),
                Some("name the id of the record that now holds the incident"),
            ));
        }
    }
}

/// Reports a source URL that an earlier record already cites: one incident is
/// one record, so two records citing one report are one incident written twice.
/// URLs are compared without a trailing slash or fragment. The pages of
/// `general-sources.toml` are the exception.
fn check_shared_sources(parsed: &[(PathBuf, Parsed)], general: &HashSet<String>, diags: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<String, (&str, &Path)> = HashMap::new();
    for (path, p) in parsed {
        let id = p.id.as_ref().map_or("", |(id, _)| id.as_str());
        for (url, line) in &p.sources {
            let key = source_key(url);
            if general.contains(&key) {
                continue;
            }
            match seen.get(&key) {
                Some((first, _)) if *first != id => diags.push(diag(
                    path,
                    *line,
                    Some("sources"),
                    Problem::SharedSource,
                    format!("{url} is also the source of {first}"),
                    Some("one incident is one record: merge the two into the lower id and add the higher to moved.toml, or cite each incident's own report"),
                )),
                _ => {
                    seen.insert(key, (id, path));
                }
            }
        }
    }
}

/// Reports every record whose id an earlier record has; returns the ids.
fn check_duplicate_ids<'a>(parsed: &'a [(PathBuf, Parsed)], diags: &mut Vec<Diagnostic>) -> HashSet<&'a str> {
    let mut seen: HashMap<&str, &Path> = HashMap::new();
    for (path, p) in parsed {
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
    seen.keys().copied().collect()
}

/// Reports every related id that is not in `ids`, with the nearest one.
fn check_related_exist(
    parsed: &[(PathBuf, Parsed)],
    ids: &HashSet<&str>,
    moved: &[Moved],
    diags: &mut Vec<Diagnostic>,
) {
    for (path, p) in parsed {
        for (related, line) in &p.related {
            if let Some(m) = moved.iter().find(|m| m.id == *related) {
                diags.push(diag(
                    path,
                    *line,
                    Some("related"),
                    Problem::Moved,
                    format!("{related} moved to {}", m.to),
                    Some(&format!("write {:?}", m.to)),
                ));
            } else if !ids.contains(related.as_str()) {
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
}

/// Orders the diagnostics for reading: the taxonomy and the lexicon first
/// (records depend on them), then by file and line.
fn sort_diagnostics(diags: &mut [Diagnostic], incidents_dir: &Path) {
    let record = |d: &Diagnostic| d.file.starts_with(incidents_dir);
    diags.sort_by(|a, b| {
        record(a)
            .cmp(&record(b))
            .then(a.file.cmp(&b.file))
            .then(a.line.cmp(&b.line))
    });
}
