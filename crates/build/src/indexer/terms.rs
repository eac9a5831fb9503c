//! The terms of one record, as the index keys them: which field each comes from,
//! how often the record uses it, and the terms it uses most.

use std::collections::{BTreeMap, BTreeSet};

use crate::analyze::Analyzer;
use crate::corpus::Incident;
use crate::error::{Error, Result};
use incident_core::hash::{term_key, Field};
use incident_core::text::particles;

/// The terms of one record, by field.
///
/// Each term is held once, with what the index needs to know of its uses: a
/// large corpus holds hundreds of thousands of records' terms at once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordTerms {
    /// Title terms.
    pub title: BTreeSet<String>,
    /// Every term of the record (body, title, tags and regions) with its uses.
    /// Taxonomy labels and synonyms are not repeated here: the query reaches them
    /// through the facet bitsets.
    terms: BTreeMap<String, TermUse>,
    /// Term occurrences in the record.
    pub length: u32,
}

/// How a record uses one of its terms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct TermUse {
    /// Occurrences in the record.
    count: u32,
    /// It occurs at least once as a word of its own, not only as a part of a
    /// longer unit (`인증` of `인증서`).
    whole: bool,
    /// It occurs in the 요약 section.
    summary: bool,
}

impl RecordTerms {
    /// Every term of the record, in byte order.
    pub fn all(&self) -> impl Iterator<Item = &String> {
        self.terms.keys()
    }

    /// Every term of the record, in byte order, given up by the record.
    pub fn into_all(self) -> BTreeSet<String> {
        self.terms.into_keys().collect()
    }

    /// Distinct terms of the record.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// True when the record has no term.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// True when the record has `term`.
    pub fn has(&self, term: &str) -> bool {
        self.terms.contains_key(term)
    }

    /// How often the record uses `term` (0 when it does not).
    pub fn count(&self, term: &str) -> u32 {
        self.terms.get(term).map_or(0, |u| u.count)
    }

    /// True when `term` occurs at least once as a word of its own, not only as a
    /// part of a longer unit (`인증` of `인증서`).
    pub fn is_whole(&self, term: &str) -> bool {
        self.terms.get(term).is_some_and(|u| u.whole)
    }

    /// True when `term` occurs in the 요약 section.
    pub fn in_summary(&self, term: &str) -> bool {
        self.terms.get(term).is_some_and(|u| u.summary)
    }

    /// How strongly the record speaks of `term`: 2 when it occurs four times or
    /// more, 1 when twice or in the 요약, else 0 (see [`incident_core::hash::Field`]).
    pub fn level(&self, term: &str) -> u8 {
        let u = self.terms.get(term).copied().unwrap_or_default();
        if u.count >= 4 {
            2
        } else if u.count >= 2 || u.summary {
            1
        } else {
            0
        }
    }

    fn add(&mut self, terms: Vec<(String, bool)>, summary: bool) {
        for (term, part) in terms {
            if particles::is_stopword(&term) {
                continue;
            }
            self.length += 1;
            let u = self.terms.entry(term).or_default();
            u.count += 1;
            u.whole |= !part;
            u.summary |= summary;
        }
    }
}

/// Analyses one record into its terms.
pub fn record_terms(incident: &Incident, analyzer: &Analyzer) -> Result<RecordTerms> {
    let ctx = |e: Error| Error::msg(format!("{}: {e}", incident.path.display()));
    let mut t = RecordTerms::default();
    let title = analyzer.marked_terms(&incident.title).map_err(ctx)?;
    t.title.extend(
        title
            .iter()
            .map(|(t, _)| t.clone())
            .filter(|t| !particles::is_stopword(t)),
    );
    t.add(title, false);
    // `section` names the first section of a name: so does `position`.
    let summary = incident.sections.iter().position(|s| s.name == "요약");
    for (i, section) in incident.sections.iter().enumerate() {
        t.add(analyzer.marked_terms(&section.text).map_err(ctx)?, summary == Some(i));
    }
    let fields = [&incident.impact, &incident.affected_users, &incident.severity];
    let lists = [&incident.checks, &incident.tags, &incident.regions];
    for text in fields.into_iter().flatten().chain(lists.into_iter().flatten()) {
        t.add(analyzer.marked_terms(text).map_err(ctx)?, false);
    }
    Ok(t)
}

/// Terms a record marks as its own under [`Field::Often`] at most: the ones it
/// uses most, weighed by rarity. A key for every term used twice would cost about
/// as much as the filters themselves and buy almost nothing in ranking.
pub const OFTEN_TERMS: usize = 6;

/// The record's terms that get a [`Field::Often`] key: of the terms in two or more
/// records (`df(term)`), those used twice or more or in the 요약, the
/// [`OFTEN_TERMS`] with the highest count times inverse document frequency.
pub fn often_terms(terms: &RecordTerms, n: usize, df: impl Fn(&str) -> u64) -> Vec<&str> {
    let mut scored: Vec<(f32, &str)> = terms
        .all()
        .filter(|t| terms.level(t) >= 1)
        .filter_map(|t| {
            let d = df(t);
            (d >= 2).then(|| {
                let count = terms.count(t).max(1) as f32;
                (count * incident_core::search::idf(n, d), t.as_str())
            })
        })
        .collect();
    incident_core::stable_sort::sort_by(&mut scored, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(OFTEN_TERMS).map(|(_, t)| t).collect()
}

/// The filter keys of a record, each with its term: the terms that `listed` says
/// have an incident list (neither common nor in this record alone) under
/// [`Field::Part`] when the record has them only as parts; its [`often_terms`]
/// under [`Field::Often`]; and all its title terms under [`Field::Title`]. Whether
/// a record has a term at all is exact (its incident list or bitset), not a key.
pub fn record_keys<'a>(
    terms: &'a RecordTerms,
    listed: impl Fn(&str) -> bool,
    often: &[&'a str],
) -> Vec<(&'a str, u64)> {
    let mut keys = Vec::new();
    for t in terms.all().filter(|t| listed(t)) {
        if !terms.is_whole(t) {
            keys.push((t.as_str(), term_key(t, Field::Part)));
        }
    }
    keys.extend(often.iter().map(|&t| (t, term_key(t, Field::Often))));
    keys.extend(terms.title.iter().map(|t| (t.as_str(), term_key(t, Field::Title))));
    keys
}
