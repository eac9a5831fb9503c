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
//!
//! This module holds the request and response types and [`search`], which runs the
//! steps; each step has its own submodule: `filters`, `rank`, `counts`, `order`
//! (with [`Sort`]), `page`, `suggest` (suggested filters and completions) and
//! `graph`.

pub mod excerpt;
pub mod weights;

mod by_facet;
mod counts;
mod filters;
mod graph;
mod order;
mod page;
mod rank;
mod suggest;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::bitset::Bitset;
use crate::index::Index;
use crate::query::{self, Word};
use crate::text;

use counts::{count, facet_counts};
use order::{is_full, order};
use page::page;
use rank::rank;
use suggest::completions;

pub use by_facet::ByFacet;
pub use counts::FacetCount;
pub use filters::resolve_filters;
pub use graph::{graph, Graph, GraphLink, GraphNode};
pub use order::Sort;
pub use rank::idf;
pub use suggest::suggest;

pub use crate::weights::{B, K1, LEVEL_TF, META_WEIGHT, PART_WEIGHT, TITLE_WEIGHT};

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
    /// Give each hit's matched words their share of its score ([`Matched::score`]).
    pub explain: bool,
}

/// One ranked incident.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Hit {
    /// Incident id.
    pub id: String,
    /// Score (0 without a query), to three decimals.
    pub score: f64,
    /// Title.
    pub title: String,
    /// Organisation slug.
    pub org: String,
    /// `YYYY-MM-DD`, or as much of it as the sources give: `2019-06`, `--10-04`
    /// (no year), `--10-04/--10-05` (a span).
    pub date: String,
    /// The date as readers see it: `2023-08-30`, `2019년 6월`, `10월 4~5일 (연도 미상)`.
    pub date_label: String,
    /// Facet value slugs by facet key.
    #[cfg_attr(
        feature = "schema",
        schemars(with = "std::collections::BTreeMap<String, Vec<String>>")
    )]
    pub facets: ByFacet<Vec<String>>,
    /// Summary text.
    pub summary: String,
    /// True when the hit matches every query word (none only partially).
    pub full: bool,
    /// The query words it matched, and how.
    pub matched: Vec<Matched>,
    /// The query words it did not match (empty for a full match).
    pub missing: Vec<String>,
    /// The index terms it matched, for marking them in its text
    /// ([`crate::excerpt::excerpts`]).
    pub terms: Vec<String>,
}

/// How a hit matched one query word.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Matched {
    /// The word as analysed ([`Word::input`]).
    pub word: String,
    /// `exact`, `stem`, `synonym`, `lexicon`, `partial`, `typo`, `prefix` or
    /// `initials` ([`query::Derivation::how`]).
    pub how: &'static str,
    /// What matched: the terms (joined by `+`), or the taxonomy value's label.
    pub via: String,
    /// With [`Request::explain`]: the word's share of the hit's score, to three
    /// decimals (the shares add up to the score, `docs/ranking.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
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
    /// Index files (`index/` names) that this response needs and that are not
    /// loaded; [`Index::add_file`] adds them, and the same request then gives the
    /// full response. With `incomplete`, they are vocabulary blocks or near-term
    /// buckets and nothing else in the response holds yet; without, they are the listing
    /// files of this page's hits, whose title and summary are empty until then.
    /// Always empty for a fully loaded index.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// True when `missing` names vocabulary blocks or near-term buckets: the hits and
    /// readings are provisional and must not be shown, and the facet counts, the
    /// suggested filters and the graph are left empty until the search is complete.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
    /// With `incomplete`, once every word's own blocks are in and fewer files are
    /// missing than a browser opens connections, or whenever no more than two are:
    /// the listing files of the provisional page's hits, not yet loaded. A loader
    /// fetches them beside `missing`, on the connections those leave free: the
    /// near-term buckets and blocks still to come seldom change the first page,
    /// and then its titles need no round of their own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub likely: Vec<String>,
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

/// Connections a browser opens to one site over HTTP/1.1: a round of more files
/// than this takes more than one round trip. While fewer index files than this are
/// missing, the provisional page's listings ride on the free ones
/// ([`Response::likely`]); with more, they would only queue behind them.
pub const CONNECTIONS: usize = 6;

/// Index files that may be missing, however provisional the page, for its listings
/// to ride beside them ([`Response::likely`]): ten listings take two waves of
/// [`CONNECTIONS`] requests, which have room for two files more. Fetched after
/// them instead, the listings would take those two waves anyway, a round later;
/// a page a missing block does change costs only its wrong listings' bytes. Over
/// both query sets, the first searches done in two waves of requests after the
/// module starts go from 365 of 871 to 395 (crates/build/examples/first_search.rs).
const FREE_RIDERS: usize = 2;

/// Runs `request` against `index`: checks the filters, analyses the query, ranks
/// every incident, counts the facet values, orders the matching incidents and cuts
/// the page, then adds the suggested filters, the completions and the flow graph.
pub fn search(index: &Index, request: &Request) -> Result<Response, SearchError> {
    // What an earlier, unfinished call noted is not this request's.
    index.take_missing();
    let selection = resolve_filters(index, &request.filters)?;
    let words = query::analyze(
        &request.query,
        index,
        query::Options {
            prefix_last: request.prefix,
        },
    );
    let has_query = !words.is_empty();
    // The words as typed, split once: what the response says of the query (nothing
    // searchable, cut, the word being typed) reads them. The analysis reads its own
    // normalised text.
    let typed: Vec<&str> = text::words(&request.query).collect();
    let unsearchable = !request.query.trim().is_empty() && typed.is_empty();
    let (ranking, mut candidates) = rank(index, &words);
    let matches = &ranking.matches;
    if unsearchable {
        candidates = Bitset::empty(index.len());
    }
    let counted = count(index, &candidates, &selection);
    let sort = request.sort.unwrap_or(Sort::default_for(has_query));
    // Ordered up to the page shown.
    let per_page = if request.per_page == 0 {
        page::PER_PAGE
    } else {
        request.per_page
    };
    let keep = request.page.max(1).saturating_mul(per_page);
    let docs = order(index, matches, &counted.matching, sort, keep);
    let total = counted.matching.len();
    let full = if has_query {
        counted.matching.iter().filter(|&d| is_full(matches, d)).count()
    } else {
        total
    };
    let shown = page(
        index,
        &docs,
        &words,
        &ranking,
        (request.page, request.per_page),
        request.explain,
    );
    let completions = completions(index, request, typed.last().copied());
    let needed = index.take_missing();
    let incomplete = !needed.is_empty();
    let settled = words.iter().all(|w| !w.unread);
    // What a response still missing files is read for is those files: the flow
    // graph, the suggested filters and the facet counts (none of which reads a file
    // the search may lack) wait for the complete one.
    let graph = if request.graph.is_empty() || incomplete {
        None
    } else {
        Some(graph(index, &counted.matching, &request.graph)?)
    };
    let suggestions = if incomplete {
        Vec::new()
    } else {
        suggest(index, &request.query, &selection)
    };
    let facets = if incomplete {
        ByFacet::default()
    } else {
        facet_counts(index, &counted, &selection)
    };
    Ok(Response {
        total,
        full,
        unsearchable,
        cut: is_cut(&typed),
        page: shown.number,
        per_page: shown.per_page,
        sort,
        hits: shown.hits,
        facets,
        words,
        suggestions,
        graph,
        completions,
        likely: if incomplete && (needed.len() <= FREE_RIDERS || settled && needed.len() < CONNECTIONS) {
            shown.missing.clone()
        } else {
            Vec::new()
        },
        missing: if incomplete { needed } else { shown.missing },
        incomplete,
    })
}

/// True when the words as typed are more than the analysis reads
/// ([`query::MAX_WORDS`] words of [`query::MAX_WORD_CHARS`] characters, each cut
/// where scripts meet, as [`query::query_words`] cuts them). (A query with text but
/// no word, `.*` or `!!!`, is unsearchable: it asks for nothing that can be found;
/// one of only stopwords, `장애 사례`, is not: it lists everything.)
fn is_cut(typed: &[&str]) -> bool {
    typed
        .iter()
        .flat_map(|w| query::script_pieces(w))
        .enumerate()
        .any(|(i, w)| i >= query::MAX_WORDS || w.chars().nth(query::MAX_WORD_CHARS).is_some())
}
