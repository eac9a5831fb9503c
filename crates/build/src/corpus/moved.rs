//! `moved.toml`: ids whose incident now lives in another record. Two records that
//! turned out to describe one incident are merged into the lower id; the higher
//! id stays reserved, so links to it keep working: its page redirects and its API
//! file says `moved_to`.
//!
//! ```toml
//! [[moved]]
//! id = "IL-0007"
//! to = "IL-0006"
//! reason = "같은 장애를 두 출처에서 따로 쓴 기록이라 하나로 합쳤다"
//! ```

use std::collections::HashSet;
use std::path::Path;

use serde::Deserialize;

use super::diagnostic::{diag, line_of, Diagnostic, Problem};
use super::syntax::is_incident_id;
use super::tomlfile::{read_toml, Presence};

/// One moved id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The id that no longer has a record.
    pub id: String,
    /// The record that holds its incident now.
    pub to: String,
    /// Why, in Korean, shown on the redirect page.
    pub reason: String,
    /// 1-based line of its `[[moved]]` header.
    pub line: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    moved: Vec<toml::Spanned<RawMoved>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMoved {
    id: String,
    to: String,
    reason: String,
}

/// Reads `moved.toml`; a missing file means nothing moved. Problems go into
/// `diags`. Whether the ids exist is checked with the records, in `folder`.
pub(super) fn load_moved(path: &Path, diags: &mut Vec<Diagnostic>) -> Vec<Moved> {
    let Some((text, raw)) = read_toml::<RawFile>(
        path,
        Presence::Optional,
        "each move is a [[moved]] table with id, to and reason",
        diags,
    ) else {
        return Vec::new();
    };
    let line_of = |offset: usize| line_of(&text, offset, 1);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for spanned in raw.moved {
        let line = line_of(spanned.span().start);
        let m = spanned.into_inner();
        let mut bad = |field: &str, message: String, hint: &str| {
            diags.push(diag(path, line, Some(field), Problem::Moved, message, Some(hint)));
        };
        if !is_incident_id(&m.id) {
            bad(
                "id",
                format!("{:?} is not an incident id", m.id),
                "ids are IL- and four digits, or the number past IL-9999",
            );
        } else if !is_incident_id(&m.to) {
            bad(
                "to",
                format!("{:?} is not an incident id", m.to),
                "ids are IL- and four digits, or the number past IL-9999",
            );
        } else if m.id == m.to {
            bad(
                "to",
                format!("{} moves to itself", m.id),
                "name the record that now holds the incident",
            );
        } else if !seen.insert(m.id.clone()) {
            bad("id", format!("{} is moved twice", m.id), "keep one entry per id");
        } else if m.reason.trim().is_empty() {
            bad(
                "reason",
                "the reason is empty".into(),
                "say in Korean why the record moved",
            );
        } else {
            out.push(Moved {
                id: m.id,
                to: m.to,
                reason: m.reason.trim().to_string(),
                line,
            });
        }
    }
    // A chain (A → B, B → C) would send readers through two redirects; point A at C.
    let ids: HashSet<String> = out.iter().map(|m| m.id.clone()).collect();
    for m in &out {
        if ids.contains(&m.to) {
            diags.push(diag(
                path,
                m.line,
                Some("to"),
                Problem::Moved,
                format!("{} moves to {}, which itself moved", m.id, m.to),
                Some("point it at the record that holds the incident now"),
            ));
        }
    }
    out
}
