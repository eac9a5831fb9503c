//! The relevance evaluation: a set of Korean queries with the incidents each must
//! find (`tests/relevance/queries.toml`), scored by recall@10 and mean reciprocal
//! rank for this engine, for a whitespace-split baseline over the same corpus, and
//! for any other engine whose rankings are given as JSON (Pagefind, see
//! `tests/relevance/pagefind.mjs`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use serde::Deserialize;

use crate::corpus::Corpus;
use crate::error::{Error, Result};
use crate::index::Index;
use crate::search::{self, Request, Sort};

/// Hits that count for recall.
pub const CUTOFF: usize = 10;

/// One query of the set.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Query {
    /// What is typed.
    pub q: String,
    /// Which behaviour it exercises (particle, spacing, prefix, initials, …).
    pub kind: String,
    /// Ids of the incidents it must find.
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
pub fn load_queries(path: &Path, corpus: &Corpus) -> Result<Vec<Query>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let file: QueryFile =
        toml::from_str(&text).map_err(|e| Error::msg(format!("{}: {}", path.display(), e.message())))?;
    let ids: BTreeSet<&str> = corpus.incidents.iter().map(|i| i.id.as_str()).collect();
    for q in &file.query {
        if q.expect.is_empty() {
            return Err(Error::msg(format!(
                "{}: query {:?} expects nothing",
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
    Ok(file.query)
}

/// Recall@10 and MRR of one engine, overall and by kind.
#[derive(Debug, Clone, PartialEq)]
pub struct Scores {
    /// Mean over queries of the share of expected incidents in the top 10.
    pub recall: f64,
    /// Mean over queries of 1 / rank of the first expected incident (0 if absent).
    pub mrr: f64,
    /// Per kind: (queries, recall, mrr).
    pub by_kind: BTreeMap<String, (usize, f64, f64)>,
    /// Queries whose top 10 misses an expected incident, with what was returned.
    pub misses: Vec<(String, Vec<String>)>,
}

/// Scores rankings (`ranked[i]` for `queries[i]`, best first).
pub fn score(queries: &[Query], ranked: &[Vec<String>]) -> Scores {
    let mut sum_r = 0.0;
    let mut sum_m = 0.0;
    let mut kinds: BTreeMap<String, (usize, f64, f64)> = BTreeMap::new();
    let mut misses = Vec::new();
    for (q, hits) in queries.iter().zip(ranked) {
        let top: Vec<&String> = hits.iter().take(CUTOFF).collect();
        let found = q.expect.iter().filter(|e| top.contains(e)).count();
        let recall = found as f64 / q.expect.len() as f64;
        let mrr = hits
            .iter()
            .position(|h| q.expect.contains(h))
            .map_or(0.0, |p| 1.0 / (p + 1) as f64);
        sum_r += recall;
        sum_m += mrr;
        let k = kinds.entry(q.kind.clone()).or_default();
        k.0 += 1;
        k.1 += recall;
        k.2 += mrr;
        if found < q.expect.len() {
            misses.push((q.q.clone(), top.into_iter().cloned().collect()));
        }
    }
    let n = queries.len().max(1) as f64;
    for v in kinds.values_mut() {
        v.1 /= v.0 as f64;
        v.2 /= v.0 as f64;
    }
    Scores {
        recall: sum_r / n,
        mrr: sum_m / n,
        by_kind: kinds,
        misses,
    }
}

/// This engine's rankings: the search the CLI and the browser run; `prefix`
/// queries are read as typed so far.
pub fn engine_rankings(index: &Index, queries: &[Query]) -> Vec<Vec<String>> {
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
                .map(|r| r.hits.into_iter().map(|h| h.id).collect())
                .unwrap_or_default()
        })
        .collect()
}

/// The baseline: records split on whitespace into lower-cased words without
/// punctuation; a record matches when it has every query word, and ranks by the
/// words' inverse document frequency, then recency.
pub fn baseline_rankings(corpus: &Corpus, queries: &[Query]) -> Vec<Vec<String>> {
    let tokens = |text: &str| -> BTreeSet<String> {
        text.split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let docs: Vec<BTreeSet<String>> = corpus
        .incidents
        .iter()
        .map(|i| {
            let mut text = i.title.clone();
            for s in &i.sections {
                text.push('\n');
                text.push_str(&s.text);
            }
            tokens(&text)
        })
        .collect();
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
            scored
                .into_iter()
                .take(CUTOFF)
                .map(|(_, i)| corpus.incidents[i].id.clone())
                .collect()
        })
        .collect()
}

/// Rankings written by another engine: a JSON object from query text to ranked ids.
pub fn external_rankings(path: &Path, queries: &[Query]) -> Result<Vec<Vec<String>>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let map: HashMap<String, Vec<String>> =
        serde_json::from_str(&text).map_err(|e| Error::msg(format!("{}: {e}", path.display())))?;
    queries
        .iter()
        .map(|q| {
            map.get(&q.q)
                .cloned()
                .ok_or_else(|| Error::msg(format!("{}: no ranking for {:?}", path.display(), q.q)))
        })
        .collect()
}
