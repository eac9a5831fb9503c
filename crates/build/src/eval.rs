//! The relevance evaluation: sets of Korean queries with the incidents each must
//! find (`tests/relevance/queries.toml`, written from the records, and
//! `tests/relevance/blind.toml`, written blind from the source reports), scored by
//! recall@10 and mean reciprocal rank for this engine, for a character-bigram BM25
//! reference and a whitespace-split baseline over the same corpus, and for any other
//! engine whose rankings are given as JSON (Pagefind, see
//! `tests/relevance/pagefind.mjs`).
//!
//! Queries of kind `absent` ask for something the library does not hold; they
//! expect nothing and are scored apart: the share that get no full match.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use serde::Deserialize;

use crate::corpus::Corpus;
use crate::error::{Error, Result};
use incident_core::index::Index;
use incident_core::search::{self, Request, Sort};

/// Hits that count for recall.
pub const CUTOFF: usize = 10;

/// The kind of query about something the library does not hold.
pub const ABSENT: &str = "absent";

/// One query of the set.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Query {
    /// What is typed.
    pub q: String,
    /// Which behaviour it exercises (particle, spacing, prefix, initials, …).
    pub kind: String,
    /// Ids of the incidents it must find; empty for kind [`ABSENT`].
    pub expect: Vec<String>,
    /// A short remark.
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryFile {
    query: Vec<Query>,
}

/// Reads the query set, checking that every expected id exists.
///
/// The sets are append-only: a query is never edited once committed. Two things
/// the library does change are honoured here instead. An expected id that moved
/// (`moved.toml`: two records of one incident merged) counts as the id it moved
/// to. And a query may be re-stated later in the file with the same text: the
/// last statement holds, in the first one's place. That is how a query of kind
/// `absent` whose incident a new record now holds gets its expectation, with the
/// reason in its note, while the original stays on record above it.
pub fn load_queries(path: &Path, corpus: &Corpus) -> Result<Vec<Query>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let file: QueryFile =
        toml::from_str(&text).map_err(|e| Error::msg(format!("{}: {}", path.display(), e.message())))?;
    let ids: BTreeSet<&str> = corpus.incidents.iter().map(|i| i.id.as_str()).collect();
    let moved: HashMap<&str, &str> = corpus.moved.iter().map(|m| (m.id.as_str(), m.to.as_str())).collect();
    let mut queries: Vec<Query> = Vec::new();
    for mut q in file.query {
        let mut expect: Vec<String> = Vec::new();
        for id in q.expect.drain(..) {
            let id = moved.get(id.as_str()).map_or(id, |to| to.to_string());
            if !expect.contains(&id) {
                expect.push(id);
            }
        }
        q.expect = expect;
        match queries.iter_mut().find(|earlier| earlier.q == q.q) {
            Some(earlier) => *earlier = q,
            None => queries.push(q),
        }
    }
    for q in &queries {
        if q.expect.is_empty() != (q.kind == ABSENT) {
            return Err(Error::msg(format!(
                "{}: query {:?}: a query of kind \"{ABSENT}\" expects nothing, any other at least one id",
                path.display(),
                q.q
            )));
        }
        if let Some(bad) = q.expect.iter().find(|id| !ids.contains(id.as_str())) {
            return Err(Error::msg(format!(
                "{}: query {:?} expects {bad}, which no record has",
                path.display(),
                q.q
            )));
        }
    }
    Ok(queries)
}

/// One engine's answer to one query.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ranking {
    /// Incident ids, best first.
    pub ids: Vec<String>,
    /// True when some hit matches the whole query (for engines without partial
    /// matches: when there is any hit).
    pub full: bool,
}

/// Recall@10 and MRR of one engine, overall and by kind.
#[derive(Debug, Clone, PartialEq)]
pub struct Scores {
    /// Mean over queries (not [`ABSENT`]) of the share of expected incidents in the top 10.
    pub recall: f64,
    /// Mean over queries (not [`ABSENT`]) of 1 / rank of the first expected incident (0 if absent).
    pub mrr: f64,
    /// Per kind: (queries, recall, mrr); for [`ABSENT`], recall is the share with no full match.
    pub by_kind: BTreeMap<String, (usize, f64, f64)>,
    /// [`ABSENT`] queries, and how many of them got no full match.
    pub absent: (usize, usize),
    /// Queries whose top 10 misses an expected incident (or, for [`ABSENT`], that
    /// got a full match), with what was returned.
    pub misses: Vec<(String, Vec<String>)>,
}

/// Scores rankings (`ranked[i]` for `queries[i]`).
pub fn score(queries: &[Query], ranked: &[Ranking]) -> Scores {
    let mut sum_r = 0.0;
    let mut sum_m = 0.0;
    let mut counted = 0usize;
    let mut absent = (0, 0);
    let mut kinds: BTreeMap<String, (usize, f64, f64)> = BTreeMap::new();
    let mut misses = Vec::new();
    for (q, r) in queries.iter().zip(ranked) {
        let top: Vec<&String> = r.ids.iter().take(CUTOFF).collect();
        let k = kinds.entry(q.kind.clone()).or_default();
        k.0 += 1;
        if q.kind == ABSENT {
            absent.0 += 1;
            if r.full {
                misses.push((q.q.clone(), top.into_iter().cloned().collect()));
            } else {
                absent.1 += 1;
                k.1 += 1.0;
            }
            continue;
        }
        let found = q.expect.iter().filter(|e| top.contains(e)).count();
        let recall = found as f64 / q.expect.len() as f64;
        let mrr = r
            .ids
            .iter()
            .position(|h| q.expect.contains(h))
            .map_or(0.0, |p| 1.0 / (p + 1) as f64);
        counted += 1;
        sum_r += recall;
        sum_m += mrr;
        k.1 += recall;
        k.2 += mrr;
        if found < q.expect.len() {
            misses.push((q.q.clone(), top.into_iter().cloned().collect()));
        }
    }
    let n = counted.max(1) as f64;
    for v in kinds.values_mut() {
        v.1 /= v.0 as f64;
        v.2 /= v.0 as f64;
    }
    Scores {
        recall: sum_r / n,
        mrr: sum_m / n,
        by_kind: kinds,
        absent,
        misses,
    }
}

/// This engine's rankings: the search the CLI and the browser run; `prefix`
/// queries are read as typed so far.
pub fn engine_rankings(index: &Index, queries: &[Query]) -> Vec<Ranking> {
    queries
        .iter()
        .map(|q| {
            let request = Request {
                query: q.q.clone(),
                per_page: CUTOFF,
                sort: Some(Sort::Relevance),
                prefix: q.kind == "prefix",
                ..Default::default()
            };
            search::search(index, &request)
                .map(|r| Ranking {
                    full: r.full > 0,
                    ids: r.hits.into_iter().map(|h| h.id).collect(),
                })
                .unwrap_or_default()
        })
        .collect()
}

/// The baseline: records split on whitespace into lower-cased words without
/// punctuation; a record matches when it has every query word, and ranks by the
/// words' inverse document frequency, then recency.
pub fn baseline_rankings(corpus: &Corpus, queries: &[Query]) -> Vec<Ranking> {
    let tokens = |text: &str| -> BTreeSet<String> {
        text.split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let docs: Vec<BTreeSet<String>> = corpus.incidents.iter().map(|i| tokens(&record_text(i))).collect();
    let mut df: HashMap<&str, usize> = HashMap::new();
    for d in &docs {
        for t in d {
            *df.entry(t.as_str()).or_default() += 1;
        }
    }
    let n = docs.len();
    queries
        .iter()
        .map(|q| {
            let words = tokens(&q.q);
            let mut scored: Vec<(f32, usize)> = docs
                .iter()
                .enumerate()
                .filter(|(_, d)| !words.is_empty() && words.iter().all(|w| d.contains(w)))
                .map(|(i, _)| {
                    (
                        words
                            .iter()
                            .map(|w| search::idf(n, *df.get(w.as_str()).unwrap_or(&1) as u64))
                            .sum(),
                        i,
                    )
                })
                .collect();
            scored.sort_by(|a, b| {
                b.0.total_cmp(&a.0)
                    .then(corpus.incidents[b.1].date.cmp(&corpus.incidents[a.1].date))
            });
            let ids: Vec<String> = scored
                .into_iter()
                .take(CUTOFF)
                .map(|(_, i)| corpus.incidents[i].id.clone())
                .collect();
            Ranking {
                full: !ids.is_empty(),
                ids,
            }
        })
        .collect()
}

/// The text of a record as the reference engines read it: title and sections.
fn record_text(incident: &crate::corpus::Incident) -> String {
    let mut text = incident.title.clone();
    for s in &incident.sections {
        text.push('\n');
        text.push_str(&s.text);
    }
    text
}

/// The units of the bigram reference: every pair of neighbouring characters inside a
/// whitespace-split, lower-cased word, and a one-character word whole.
fn bigrams(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = word.to_lowercase().chars().collect();
        match chars.len() {
            0 => {}
            1 => out.push(chars[0].to_string()),
            _ => out.extend(chars.windows(2).map(|w| w.iter().collect::<String>())),
        }
    }
    out
}

/// The reference: character-bigram BM25 (k1 = 1.2, b = 0.75) over title and
/// sections, with OR semantics: any shared bigram makes a candidate. A full match
/// is a record that holds every bigram of the query.
pub fn bigram_rankings(corpus: &Corpus, queries: &[Query]) -> Vec<Ranking> {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;
    let docs: Vec<HashMap<String, u32>> = corpus
        .incidents
        .iter()
        .map(|i| {
            let mut tf = HashMap::new();
            for g in bigrams(&record_text(i)) {
                *tf.entry(g).or_insert(0) += 1;
            }
            tf
        })
        .collect();
    let lengths: Vec<f64> = docs.iter().map(|d| d.values().sum::<u32>() as f64).collect();
    let avg = lengths.iter().sum::<f64>() / lengths.len().max(1) as f64;
    let mut df: HashMap<&str, usize> = HashMap::new();
    for d in &docs {
        for g in d.keys() {
            *df.entry(g.as_str()).or_default() += 1;
        }
    }
    let n = docs.len() as f64;
    queries
        .iter()
        .map(|q| {
            let grams: BTreeSet<String> = bigrams(&q.q).into_iter().collect();
            let mut scored: Vec<(f64, usize)> = Vec::new();
            let mut full = false;
            for (i, d) in docs.iter().enumerate() {
                let mut s = 0.0;
                let mut all = !grams.is_empty();
                for g in &grams {
                    let Some(&tf) = d.get(g) else {
                        all = false;
                        continue;
                    };
                    let dfg = df[g.as_str()] as f64;
                    let idf = (1.0 + (n - dfg + 0.5) / (dfg + 0.5)).ln();
                    let tf = tf as f64;
                    s += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * lengths[i] / avg));
                }
                full |= all;
                if s > 0.0 {
                    scored.push((s, i));
                }
            }
            scored.sort_by(|a, b| {
                b.0.total_cmp(&a.0)
                    .then(corpus.incidents[b.1].date.cmp(&corpus.incidents[a.1].date))
            });
            let ids = scored
                .into_iter()
                .take(CUTOFF)
                .map(|(_, i)| corpus.incidents[i].id.clone())
                .collect();
            Ranking { ids, full }
        })
        .collect()
}

/// Rankings written by another engine: a JSON object from query text to ranked ids
/// (a query with any hit counts as fully matched).
pub fn external_rankings(path: &Path, queries: &[Query]) -> Result<Vec<Ranking>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let map: HashMap<String, Vec<String>> =
        serde_json::from_str(&text).map_err(|e| Error::msg(format!("{}: {e}", path.display())))?;
    queries
        .iter()
        .map(|q| {
            map.get(&q.q)
                .cloned()
                .map(|ids| Ranking {
                    full: !ids.is_empty(),
                    ids,
                })
                .ok_or_else(|| Error::msg(format!("{}: no ranking for {:?}", path.display(), q.q)))
        })
        .collect()
}

/// Every scored query with its spaces removed, as people type on a phone
/// (`2017년AWS장애`): the same expectations. Queries of kind [`ABSENT`] and those
/// that are one word already are left out.
pub fn unspaced(queries: &[Query]) -> Vec<Query> {
    queries
        .iter()
        .filter(|q| q.kind != ABSENT && q.q.split_whitespace().nth(1).is_some())
        .map(|q| Query {
            q: q.q.split_whitespace().collect(),
            ..q.clone()
        })
        .collect()
}

/// How a query was glued, for the report of zero-hit answers: a Latin or digit run
/// against Hangul (`DNS레코드가`), or so many Hangul words run together.
pub fn glue_kind(spaced: &str) -> &'static str {
    let words: Vec<&str> = spaced.split_whitespace().collect();
    let script = |w: &str| {
        if w.chars().any(|c| c.is_ascii_alphanumeric()) {
            if w.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)) {
                'm'
            } else {
                'l'
            }
        } else {
            'h'
        }
    };
    let kinds: Vec<char> = words.iter().map(|w| script(w)).collect();
    if kinds.windows(2).any(|p| p[0] != p[1]) || kinds.contains(&'m') {
        "Latin or digits against Hangul"
    } else if kinds.iter().all(|&k| k == 'l') {
        "Latin words together"
    } else if words.len() == 2 {
        "two Hangul words together"
    } else {
        "three Hangul words together"
    }
}

/// The first two and the first three words of every query (each prefix once,
/// [`ABSENT`] queries left out), as (spaced, unspaced): a realistic length for a
/// search box.
pub fn prefixes(queries: &[Query]) -> Vec<(String, String)> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for q in queries.iter().filter(|q| q.kind != ABSENT) {
        let words: Vec<&str> = q.q.split_whitespace().collect();
        for n in [2, 3] {
            if words.len() < n {
                continue;
            }
            let spaced = words[..n].join(" ");
            if seen.insert(spaced.clone()) {
                out.push((spaced, words[..n].concat()));
            }
        }
    }
    out
}

/// How many incidents this engine finds for `query` (full and partial matches).
pub fn total_hits(index: &Index, query: &str) -> usize {
    let request = Request {
        query: query.to_string(),
        per_page: 1,
        sort: Some(Sort::Relevance),
        ..Default::default()
    };
    search::search(index, &request).map_or(0, |r| r.total)
}

/// The zero-hit report of the prefixes: for each kind of glue ([`glue_kind`]),
/// how many prefixes the spaced form finds something for, and how many of those
/// the unspaced form finds nothing for, with those prefixes.
pub fn zero_hit_report(index: &Index, pairs: &[(String, String)]) -> BTreeMap<&'static str, (usize, Vec<String>)> {
    let mut report: BTreeMap<&'static str, (usize, Vec<String>)> = BTreeMap::new();
    for (spaced, glued) in pairs {
        if total_hits(index, spaced) == 0 {
            continue;
        }
        let row = report.entry(glue_kind(spaced)).or_default();
        row.0 += 1;
        if total_hits(index, glued) == 0 {
            row.1.push(glued.clone());
        }
    }
    report
}
