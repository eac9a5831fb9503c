//! The search: ranks incidents for a query, applies facet filters, counts facet
//! values and pages the result. The CLI, the wasm module, the API and the MCP server
//! all call [`search`].
//!
//! Ranking is BM25F-like with OR semantics; `docs/ranking.md` gives the formula.
//! Every incident that matches at least one query word (through one of its
//! alternatives) is a hit. Hits that match every word (a *full* match, none of the
//! words only partially) come first, then the others. Within each group a hit
//! scores the sum over its matched words of the best alternative's score: inverse
//! document frequency times a saturated, length-normalised pseudo term frequency
//! built from where and how often the record uses the term (title, 요약,
//! occurrences, a taxonomy value), times the alternative's weight. A record that
//! has a term only as a part of a longer word (`인증` of `인증서`) counts less. Equal
//! scores go to the more recent incident, then to the lower id.
//!
//! Every hit says which words it matched and how ([`Matched`]) and which it did not
//! (`missing`); the response says how many hits are full matches.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::bitset::Bitset;
use crate::facets::{self, Selection};
use crate::index::Index;
use crate::query::{self, Word};
use crate::sort;
use crate::text;

/// Pseudo term frequency that a title occurrence adds.
pub const TITLE_WEIGHT: f32 = 3.0;
/// Pseudo term frequency of a match through the classification (a taxonomy value
/// the query names).
pub const META_WEIGHT: f32 = 2.0;
/// Pseudo term frequency of a body match by level: a term the record mentions; one
/// it uses most ([`Index::level`]).
pub const LEVEL_TF: [f32; 2] = [1.0, 2.5];
/// BM25's term-frequency saturation.
pub const K1: f32 = 1.2;
/// BM25's length normalisation (0 none, 1 full); records are short and alike.
pub const B: f32 = 0.4;
/// Multiplier for a record that has the term only as a part of a longer word.
pub const PART_WEIGHT: f32 = 0.4;

/// Result order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    /// By score (the default with a query).
    Relevance,
    /// Newest first (the default without a query).
    Recent,
}

impl std::str::FromStr for Sort {
    type Err = String;
    fn from_str(s: &str) -> Result<Sort, String> {
        match s {
            "relevance" => Ok(Sort::Relevance),
            "recent" => Ok(Sort::Recent),
            _ => Err(format!("unknown sort \"{s}\"; use relevance or recent")),
        }
    }
}

/// A search request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Request {
    /// What the person typed; may be empty.
    pub query: String,
    /// Facet filters as (facet key, value slug) pairs.
    pub filters: Vec<(String, String)>,
    /// Order; `None` picks relevance with a query and recent without.
    pub sort: Option<Sort>,
    /// 1-based page number (0 is taken as 1).
    pub page: usize,
    /// Hits per page (0 means 10).
    pub per_page: usize,
    /// Facet keys of the columns of a flow graph over the results (e.g. cause,
    /// component, symptom); empty for no graph.
    pub graph: Vec<String>,
    /// Read the last word as a prefix: search as you type.
    pub prefix: bool,
}

/// One ranked incident.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    /// Incident id.
    pub id: String,
    /// Score (0 without a query).
    pub score: f32,
    /// Title.
    pub title: String,
    /// Organisation slug.
    pub org: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Facet value slugs by facet key.
    pub facets: ByFacet<Vec<String>>,
    /// Summary text.
    pub summary: String,
    /// True when the hit matches every query word (none only partially).
    pub full: bool,
    /// The query words it matched, and how.
    pub matched: Vec<Matched>,
    /// The query words it did not match (empty for a full match).
    pub missing: Vec<String>,
}

/// How a hit matched one query word.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Matched {
    /// The word as analysed ([`Word::input`]).
    pub word: String,
    /// `exact`, `stem`, `synonym`, `lexicon`, `partial`, `typo`, `prefix` or
    /// `initials` ([`query::Derivation::how`]).
    pub how: &'static str,
    /// What matched: the terms (joined by `+`), or the taxonomy value's label.
    pub via: String,
}

/// Values by facet key, in the index's facet order; serialised as an object. (What
/// a `BTreeMap` would do, without its code in the browser module.)
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ByFacet<V>(pub Vec<(String, V)>);

impl<V> ByFacet<V> {
    /// The value of facet `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Facet keys with their values.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<V> std::ops::Index<&str> for ByFacet<V> {
    type Output = V;

    /// Panics when there is no facet `key`, like a map's index.
    fn index(&self, key: &str) -> &V {
        self.get(key).unwrap_or_else(|| panic!("no facet {key}"))
    }
}

impl<V: Serialize> Serialize for ByFacet<V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The count of one facet value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FacetCount {
    /// Slug.
    pub slug: String,
    /// Korean label.
    pub ko: String,
    /// Incidents it would give (disjunctive count).
    pub count: usize,
    /// Whether it is part of the current selection.
    pub selected: bool,
    /// Incidents among the current results that carry it.
    pub in_results: usize,
}

/// A taxonomy value whose label or synonym appears in the query (추천 필터).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suggestion {
    /// Facet key.
    pub facet: String,
    /// Value slug.
    pub slug: String,
    /// Korean label.
    pub ko: String,
    /// The label or synonym found in the query.
    pub matched: String,
}

/// How the results' facet values lead into each other, column by column.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Graph {
    /// Facet key of each column.
    pub columns: Vec<String>,
    /// Values present among the results, column by column.
    pub nodes: Vec<GraphNode>,
    /// Incidents that carry both ends, between neighbouring columns.
    pub links: Vec<GraphLink>,
}

/// A value in a [`Graph`] column.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphNode {
    /// Column position.
    pub column: usize,
    /// Facet key.
    pub facet: String,
    /// Value slug.
    pub slug: String,
    /// Korean label.
    pub ko: String,
    /// Incidents among the results that carry it.
    pub count: usize,
}

/// A band between two [`GraphNode`]s.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphLink {
    /// Node position of the left end.
    pub source: usize,
    /// Node position of the right end.
    pub target: usize,
    /// Incidents that carry both.
    pub count: usize,
}

/// A search response.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Response {
    /// Number of matching incidents.
    pub total: usize,
    /// How many of them match every query word; they come first.
    pub full: usize,
    /// True when the query has text but no searchable word (only punctuation,
    /// symbols or emoji): then nothing is found, rather than everything.
    pub unsearchable: bool,
    /// True when the query was longer than the search reads (more than
    /// [`query::MAX_WORDS`] words, or a word over [`query::MAX_WORD_CHARS`]
    /// characters) and was cut.
    pub cut: bool,
    /// The page shown, 1-based.
    pub page: usize,
    /// Hits per page.
    pub per_page: usize,
    /// The order used.
    pub sort: Sort,
    /// This page's hits.
    pub hits: Vec<Hit>,
    /// Counts per facet key, values in taxonomy order.
    pub facets: ByFacet<Vec<FacetCount>>,
    /// How each query word was understood.
    pub words: Vec<Word>,
    /// Taxonomy values named in the query that are not selected yet.
    pub suggestions: Vec<Suggestion>,
    /// The flow graph, when asked for.
    pub graph: Option<Graph>,
    /// With `prefix`: vocabulary terms the last word may be the start of, most
    /// frequent first (autocomplete).
    pub completions: Vec<String>,
    /// Listing files (`index/` names) that this page's hits need and that are not
    /// loaded: those hits have an empty title and summary until
    /// [`Index::add_listings`] adds the files. Always empty for a fully loaded index.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// The facet key is not one of the index's facets.
    UnknownFacet {
        /// What was asked for.
        facet: String,
        /// The valid keys.
        allowed: Vec<String>,
    },
    /// The value is not in the facet.
    UnknownValue {
        /// The facet.
        facet: String,
        /// What was asked for.
        value: String,
        /// The closest valid slugs.
        suggestions: Vec<String>,
    },
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::UnknownFacet { facet, allowed } => {
                write!(f, "unknown facet \"{facet}\"; use one of: {}", allowed.join(", "))
            }
            SearchError::UnknownValue {
                facet,
                value,
                suggestions,
            } => {
                write!(f, "unknown {facet} value \"{value}\"")?;
                if !suggestions.is_empty() {
                    write!(f, "; did you mean {}?", suggestions.join(", "))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SearchError {}

/// Inverse document frequency (BM25's, always positive).
pub fn idf(n: usize, df: u64) -> f32 {
    let (n, df) = (n as f32, df as f32);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// How one incident matched the query: per word, the score and the alternative.
#[derive(Debug, Clone, Default)]
struct DocMatch {
    score: f32,
    /// Per word: `Some((alternative, score))` when it matched.
    words: Vec<Option<(usize, f32)>>,
    full: bool,
}

/// Runs `request` against `index`.
pub fn search(index: &Index, request: &Request) -> Result<Response, SearchError> {
    let selection = resolve_filters(index, &request.filters)?;
    let words = query::analyze(
        &request.query,
        index,
        query::Options {
            prefix_last: request.prefix,
        },
    );
    let has_query = !words.is_empty();
    // Text with no word in it at all (`.*`, `!!!`, emoji) asks for nothing that can
    // be found; a query of only stopwords (`장애 사례`) lists everything.
    let unsearchable = !request.query.trim().is_empty() && text::words(&request.query).next().is_none();
    let cut = text::words(&request.query)
        .enumerate()
        .any(|(i, w)| i >= query::MAX_WORDS || w.chars().nth(query::MAX_WORD_CHARS).is_some());
    let (matches, mut candidates) = rank(index, &words);
    if unsearchable {
        candidates = Bitset::empty(index.len());
    }

    let facet_bits: Vec<Vec<&Bitset>> = index
        .meta
        .facets
        .iter()
        .map(|f| f.values.iter().map(|v| &v.docs).collect())
        .collect();
    let counted = facets::count(&facet_bits, &candidates, &selection);

    let sort = request
        .sort
        .unwrap_or(if has_query { Sort::Relevance } else { Sort::Recent });
    let mut docs: Vec<usize> = counted.matching.iter().collect();
    let recent = |a: usize, b: usize| {
        index.meta.days[b]
            .cmp(&index.meta.days[a])
            .then_with(|| index.meta.ids[a].cmp(&index.meta.ids[b]))
    };
    let full = |d: usize| matches.get(d).is_some_and(|m| m.full);
    match sort {
        Sort::Recent => sort::sort_by(&mut docs, |&a, &b| full(b).cmp(&full(a)).then_with(|| recent(a, b))),
        Sort::Relevance => sort::sort_by(&mut docs, |&a, &b| {
            full(b)
                .cmp(&full(a))
                .then_with(|| {
                    let score = |d: usize| matches.get(d).map_or(0.0, |m| m.score);
                    score(b).partial_cmp(&score(a)).unwrap_or(Ordering::Equal)
                })
                .then_with(|| recent(a, b))
        }),
    }
    let full_count = if has_query {
        docs.iter().filter(|&&d| full(d)).count()
    } else {
        docs.len()
    };

    let per_page = if request.per_page == 0 { 10 } else { request.per_page };
    let page = request.page.max(1);
    let shown = || docs.iter().skip((page - 1).saturating_mul(per_page)).take(per_page);
    let hits = shown().map(|&d| hit(index, d, &words, matches.get(d))).collect();
    let mut missing: Vec<String> = Vec::new();
    for &d in shown().filter(|&&d| !index.is_listed(d)) {
        let file = index.listing_file(d);
        if !missing.contains(&file) {
            missing.push(file);
        }
    }

    let mut facet_counts = ByFacet::default();
    for (f, facet) in index.meta.facets.iter().enumerate() {
        let values = facet
            .values
            .iter()
            .enumerate()
            .map(|(v, value)| FacetCount {
                slug: value.slug.clone(),
                ko: value.ko.clone(),
                count: counted.counts[f][v],
                selected: selection.chosen[f].contains(&v),
                in_results: value.docs.intersection_len(&counted.matching),
            })
            .collect();
        facet_counts.0.push((facet.key.clone(), values));
    }

    let suggestions = suggest(index, &request.query, &selection);
    let completions = match (request.prefix, text::words(&request.query).last()) {
        (true, Some(last)) if !request.query.ends_with(char::is_whitespace) => {
            query::completions(&text::normalize(last), index, 6)
                .into_iter()
                .map(|(t, _)| t)
                .collect()
        }
        _ => Vec::new(),
    };
    let graph = if request.graph.is_empty() {
        None
    } else {
        Some(graph(index, &counted.matching, &request.graph)?)
    };
    Ok(Response {
        total: docs.len(),
        full: full_count,
        unsearchable,
        cut,
        page,
        per_page,
        sort,
        hits,
        facets: facet_counts,
        words,
        suggestions,
        graph,
        completions,
        missing,
    })
}

/// A query word's alternatives with their terms looked up once ([`Index::prepare`]).
struct PreparedWord<'a> {
    alternatives: Vec<PreparedAlternative<'a>>,
}

struct PreparedAlternative<'a> {
    alt: &'a query::Alternative,
    /// Each term with its document frequency; `None` when one is not in the index.
    terms: Option<Vec<(crate::index::Prepared, u64)>>,
}

/// Scores every incident for `words`: the per-incident matches (empty without a
/// query) and the incidents that match at least one word (all without a query).
fn rank(index: &Index, words: &[Word]) -> (Vec<DocMatch>, Bitset) {
    let n = index.len();
    if words.is_empty() {
        return (Vec::new(), Bitset::full(n));
    }
    // Plain loops: iterator adapters over new types add code to the browser module.
    let mut prepared: Vec<PreparedWord> = Vec::with_capacity(words.len());
    for w in words {
        let mut alternatives = Vec::with_capacity(w.alternatives.len());
        for alt in &w.alternatives {
            let mut terms = Some(Vec::with_capacity(alt.terms.len()));
            for t in &alt.terms {
                match (index.prepare(t), terms.as_mut()) {
                    (Some(p), Some(list)) => list.push((p, p.postings.df())),
                    _ => terms = None,
                }
            }
            alternatives.push(PreparedAlternative { alt, terms });
        }
        prepared.push(PreparedWord { alternatives });
    }
    let mut candidates = Bitset::empty(n);
    let mut matches = Vec::with_capacity(n);
    for doc in 0..n {
        let mut m = DocMatch {
            full: true,
            ..DocMatch::default()
        };
        for (word, p) in words.iter().zip(&prepared) {
            let found = word_score(index, p, doc, n);
            match found {
                Some((a, s)) => {
                    m.score += s;
                    if word.alternatives[a].derivation == query::Derivation::Partial {
                        m.full = false;
                    }
                }
                None => m.full = false,
            }
            m.words.push(found);
        }
        if m.words.iter().any(Option::is_some) {
            candidates.insert(doc);
        }
        matches.push(m);
    }
    (matches, candidates)
}

/// BM25's saturated, length-normalised term frequency.
fn saturate(tf: f32, relative_length: f32) -> f32 {
    tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * relative_length))
}

/// The score of a prepared term in incident `doc`, or `None` when the incident lacks it.
fn term_score(index: &Index, term: &crate::index::Prepared, df: u64, doc: usize, n: usize) -> Option<f32> {
    let (level, part, title) = index.term_in(doc, term)?;
    let mut tf = LEVEL_TF[usize::from(level.min(1))];
    if title {
        tf += TITLE_WEIGHT;
    }
    let mut s = idf(n, df) * saturate(tf, index.relative_length(doc));
    if !title && part {
        s *= PART_WEIGHT;
    }
    Some(s)
}

/// The score of a word in incident `doc` with the alternative that matched, or
/// `None` when no alternative matches. The text and the classification are two
/// fields: the best text alternative and the best taxonomy value add up, so that
/// of the incidents classified under a value the query names, those whose text
/// also has the word come first.
fn word_score(index: &Index, word: &PreparedWord, doc: usize, n: usize) -> Option<(usize, f32)> {
    let mut text: Option<(usize, f32)> = None;
    let mut class: Option<(usize, f32)> = None;
    for (a, p) in word.alternatives.iter().enumerate() {
        let alt = p.alt;
        let s = if let Some(f) = &alt.facet {
            let docs = &index.meta.facets[f.f].values[f.v].docs;
            if !docs.contains(doc) {
                continue;
            }
            idf(n, docs.len() as u64) * saturate(META_WEIGHT, 1.0)
        } else {
            let Some(terms) = &p.terms else { continue };
            if terms.is_empty() {
                continue;
            }
            let mut sum = 0.0;
            let mut all = true;
            for (term, df) in terms {
                match term_score(index, term, *df, doc, n) {
                    Some(s) => sum += s,
                    None => {
                        all = false;
                        break;
                    }
                }
            }
            if !all {
                continue;
            }
            sum / terms.len() as f32
        };
        let s = alt.weight * s;
        let slot = if alt.facet.is_some() { &mut class } else { &mut text };
        if slot.is_none_or(|(_, b)| s > b) {
            *slot = Some((a, s));
        }
    }
    match (text, class) {
        (Some((a, t)), Some((_, c))) => Some((a, t + c)),
        (one, other) => one.or(other),
    }
}

fn hit(index: &Index, doc: usize, words: &[Word], m: Option<&DocMatch>) -> Hit {
    let l = &index.listings[doc];
    let facets = index
        .meta
        .facets
        .iter()
        .zip(&l.facets)
        .map(|(f, values)| {
            (
                f.key.clone(),
                values.iter().map(|&v| f.values[v as usize].slug.clone()).collect(),
            )
        })
        .collect();
    let facets = ByFacet(facets);
    let mut matched = Vec::new();
    let mut missing = Vec::new();
    if let Some(m) = m {
        for (word, found) in words.iter().zip(&m.words) {
            match found {
                Some((a, _)) => {
                    let alt = &word.alternatives[*a];
                    matched.push(Matched {
                        word: word.input.clone(),
                        how: alt.derivation.how(),
                        via: match &alt.facet {
                            Some(f) => f.ko.clone(),
                            None => alt.terms.join("+"),
                        },
                    });
                }
                None => missing.push(word.input.clone()),
            }
        }
    }
    let score = m.map_or(0.0, |m| m.score);
    Hit {
        id: l.id.clone(),
        score: (score * 1000.0).round() / 1000.0,
        title: l.title.clone(),
        org: l.org.clone(),
        date: l.date.clone(),
        facets,
        summary: l.summary.clone(),
        full: m.is_none_or(|m| m.full),
        matched,
        missing,
    }
}

/// Taxonomy values whose Korean or English label or a synonym occurs in the query,
/// compared without spaces and case (`메모리부족` names `메모리 부족`). Values already
/// selected are left out; longer matches come first.
pub fn suggest(index: &Index, query: &str, selection: &Selection) -> Vec<Suggestion> {
    let q = crate::index::squash(query);
    if q.is_empty() {
        return Vec::new();
    }
    // The longest name found for each value.
    let mut best: Vec<((usize, usize), &crate::index::TaxonomyName)> = Vec::new();
    for n in &index.names {
        let len = n.squashed.chars().count();
        // Very short names (an ascii `ai`) would match inside other words; slugs are
        // not names people type.
        let is_slug = n.name == index.meta.facets[n.f].values[n.v].slug && n.name.contains('-');
        if len < 2
            || (len < 3 && n.squashed.is_ascii())
            || is_slug
            || selection.chosen[n.f].contains(&n.v)
            || !q.contains(n.squashed.as_str())
        {
            continue;
        }
        match best.iter_mut().find(|(key, _)| *key == (n.f, n.v)) {
            Some((_, slot)) if n.squashed.len() > slot.squashed.len() => *slot = n,
            Some(_) => {}
            None => best.push(((n.f, n.v), n)),
        }
    }
    let mut out: Vec<(usize, Suggestion)> = best
        .into_iter()
        .map(|((f, v), n)| {
            let (facet, value) = (&index.meta.facets[f], &index.meta.facets[f].values[v]);
            (
                n.squashed.len(),
                Suggestion {
                    facet: facet.key.clone(),
                    slug: value.slug.clone(),
                    ko: value.ko.clone(),
                    matched: n.name.clone(),
                },
            )
        })
        .collect();
    sort::sort_by(&mut out, |a, b| {
        b.0.cmp(&a.0)
            .then_with(|| a.1.facet.cmp(&b.1.facet))
            .then_with(|| a.1.slug.cmp(&b.1.slug))
    });
    out.into_iter().map(|(_, s)| s).take(8).collect()
}

/// The flow graph of `matching` over the facets named in `columns`.
pub fn graph(index: &Index, matching: &Bitset, columns: &[String]) -> Result<Graph, SearchError> {
    let mut positions = Vec::new();
    for key in columns {
        positions.push(index.facet_position(key).ok_or_else(|| SearchError::UnknownFacet {
            facet: key.clone(),
            allowed: index.meta.facets.iter().map(|f| f.key.clone()).collect(),
        })?);
    }
    let mut nodes = Vec::new();
    let mut node_of: Vec<Vec<Option<usize>>> = Vec::new();
    for (c, &f) in positions.iter().enumerate() {
        let facet = &index.meta.facets[f];
        let mut map = vec![None; facet.values.len()];
        for (v, value) in facet.values.iter().enumerate() {
            let count = value.docs.intersection_len(matching);
            if count > 0 {
                map[v] = Some(nodes.len());
                nodes.push(GraphNode {
                    column: c,
                    facet: facet.key.clone(),
                    slug: value.slug.clone(),
                    ko: value.ko.clone(),
                    count,
                });
            }
        }
        node_of.push(map);
    }
    let mut links = Vec::new();
    for c in 1..positions.len() {
        let (left, right) = (&index.meta.facets[positions[c - 1]], &index.meta.facets[positions[c]]);
        for (a, av) in left.values.iter().enumerate() {
            let Some(source) = node_of[c - 1][a] else { continue };
            let mut both = av.docs.clone();
            both.and_with(matching);
            for (b, bv) in right.values.iter().enumerate() {
                let Some(target) = node_of[c][b] else { continue };
                let count = both.intersection_len(&bv.docs);
                if count > 0 {
                    links.push(GraphLink { source, target, count });
                }
            }
        }
    }
    Ok(Graph {
        columns: columns.to_vec(),
        nodes,
        links,
    })
}

/// Turns (facet, slug) pairs into value positions, refusing unknown ones.
pub fn resolve_filters(index: &Index, filters: &[(String, String)]) -> Result<Selection, SearchError> {
    let mut chosen = vec![Vec::new(); index.meta.facets.len()];
    for (facet, value) in filters {
        let f = index.facet_position(facet).ok_or_else(|| SearchError::UnknownFacet {
            facet: facet.clone(),
            allowed: index.meta.facets.iter().map(|f| f.key.clone()).collect(),
        })?;
        let values = &index.meta.facets[f].values;
        let v = values
            .iter()
            .position(|v| v.slug == *value)
            .ok_or_else(|| SearchError::UnknownValue {
                facet: facet.clone(),
                value: value.clone(),
                suggestions: closest(value, values.iter().map(|v| v.slug.as_str())),
            })?;
        if !chosen[f].contains(&v) {
            chosen[f].push(v);
        }
    }
    Ok(Selection { chosen })
}

/// Up to three candidates that share the most leading characters or contain `s`.
fn closest<'a>(s: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut scored: Vec<(usize, &str)> = candidates
        .map(|c| {
            let common = c.chars().zip(s.chars()).take_while(|(a, b)| a == b).count();
            let contains = usize::from(c.contains(s) || s.contains(c)) * 10;
            (common + contains, c)
        })
        .filter(|&(score, _)| score >= 2)
        .collect();
    sort::sort_by(&mut scored, |a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, c)| c.to_string()).collect()
}
