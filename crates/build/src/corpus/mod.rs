//! The corpus in `data/`: the taxonomy (`taxonomy.toml`) and the incident records
//! (`incidents/<id>.md`), read and checked.
//!
//! A record is TOML front matter between `+++` lines followed by a Korean Markdown
//! body whose `##` sections are, in order, those of [`incident_core::sections`] (a
//! section the sources say nothing about is left out, and the page says so). [`load`] reads everything
//! and reports every problem it finds in one pass, each as a [`Diagnostic`] naming
//! the file, the line, the field and a hint; nothing is built from a corpus that has
//! any.
//!
//! The steps, one private module each: `folder` ([`load`]: the folder, the checks
//! across records) → `record` (one file) → `frontmatter` (the `+++` split and the
//! TOML) → `fields` (field typing) → `checks` (field checks) → `sections` (the body).
//! `taxonomy` reads `taxonomy.toml`, `moved` reads `moved.toml` (merged ids),
//! `tomlfile` the folder's TOML files, `syntax` holds the shapes of ids,
//! slugs, durations and URLs, `date` the record date (as precise as the sources)
//! and `diagnostic` what is reported.
//! Their public items are re-exported here.

use std::path::PathBuf;

mod checks;
pub(crate) mod controls;
mod date;
mod diagnostic;
mod fields;
mod folder;
mod frontmatter;
mod moved;
mod record;
mod sections;
mod syntax;
mod taxonomy;
#[cfg(test)]
mod tests;
mod tomlfile;
pub mod wording;

pub use date::{Date, When, Written};
pub use diagnostic::{Diagnostic, Problem};
pub use folder::{load, MAX_RECORD_BYTES};
pub use moved::Moved;
pub use sections::plain_text;
pub use syntax::{id_number, is_incident_id, ID_PATTERN};
pub use taxonomy::{Taxonomy, Value};

/// One section of a record body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Heading (one of [`incident_core::sections::NAMES`]).
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
    /// The day the record sorts by: the UTC day impact began, the first of its
    /// month when the sources give no day, or `date_bound` when they give no year.
    pub date: Date,
    /// The date as far as the sources give it ([`When::label`] shows it).
    pub when: When,
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
    /// The slugs of each facet, by position in
    /// [`FACETS`](incident_core::facets::FACETS), read from the facet's record
    /// field (the organisation's one slug too).
    pub facets: Vec<Vec<String>>,
    /// Source URLs.
    pub sources: Vec<String>,
    /// Related incident ids.
    pub related: Vec<String>,
    /// Read-only checks.
    pub checks: Vec<String>,
    /// The day the record was first published here, when it says.
    pub published: Option<Date>,
    /// The day the record was last changed, when it says.
    pub updated: Option<Date>,
    /// What changed in it, newest first (`2026-12 후속 보고서 반영`).
    pub history: Vec<String>,
    /// Body sections in reading order ([`incident_core::sections`]).
    pub sections: Vec<Section>,
}

impl Incident {
    /// The last day the record says it changed: `updated`, else `published`.
    pub fn record_changed(&self) -> Option<Date> {
        self.updated.or(self.published)
    }

    /// Slugs of facet `key`, one of [`FACETS`](incident_core::facets::FACETS) (`org`
    /// gives the organisation). Keys come from that list: another is a bug, and
    /// panics in a debug build.
    pub fn facet(&self, key: &str) -> Vec<&str> {
        let f = incident_core::facets::position(key);
        debug_assert!(f.is_some(), "{key} is not a facet");
        f.map_or_else(Vec::new, |f| self.facets[f].iter().map(String::as_str).collect())
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
    /// Ids that moved to another record (`moved.toml`; empty when there is none).
    pub moved: Vec<Moved>,
}
