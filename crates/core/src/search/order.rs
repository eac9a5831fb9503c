//! The result order: [`Sort`], read from its name in one place, and the ordering
//! of the matching incidents.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::rank::DocMatch;
use crate::index::Index;

/// Result order. Its names are `relevance` and `recent`; a name is read into a
/// `Sort` only by its [`FromStr`](std::str::FromStr) (the command line, the MCP server
/// and the browser module all call it), and by serde for JSON requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    /// By score (the default with a query).
    Relevance,
    /// Newest first (the default without a query).
    Recent,
}

impl std::str::FromStr for Sort {
    type Err = String;

    /// The order named `s`, or an error that lists the accepted names.
    fn from_str(s: &str) -> Result<Sort, String> {
        match s {
            "relevance" => Ok(Sort::Relevance),
            "recent" => Ok(Sort::Recent),
            _ => Err(format!("unknown sort \"{s}\"; use relevance or recent")),
        }
    }
}

impl Sort {
    /// The order used when a request names none: by score with a query, newest
    /// first without one.
    pub(super) fn default_for(has_query: bool) -> Sort {
        if has_query {
            Sort::Relevance
        } else {
            Sort::Recent
        }
    }
}

/// True when incident `doc` matches every query word ([`DocMatch::full`]).
pub(super) fn is_full(matches: &[DocMatch], doc: usize) -> bool {
    matches.get(doc).is_some_and(|m| m.full)
}

/// The first `keep` incidents of `matching` in `sort` order: full matches first,
/// then by score (with [`Sort::Relevance`]), ties to the more recent incident, then
/// to the lower id. Only the pages up to the one shown are ordered: the order is
/// total (no two incidents compare equal), so keeping the best `keep` in a short
/// sorted list gives the same first `keep` as sorting them all, in a fraction of
/// the comparisons when thousands match.
pub(super) fn order(
    index: &Index,
    matches: &[DocMatch],
    matching: &crate::bitset::Bitset,
    sort: Sort,
    keep: usize,
) -> Vec<usize> {
    let full = |d: usize| is_full(matches, d);
    let score = |d: usize| matches.get(d).map_or(0.0, |m| m.score);
    // Incidents are numbered in id order: the lower number is the lower id.
    let recent = |a: usize, b: usize| index.meta.days[b].cmp(&index.meta.days[a]).then_with(|| a.cmp(&b));
    let cmp = |a: usize, b: usize| -> Ordering {
        let by_full = full(b).cmp(&full(a));
        match sort {
            Sort::Recent => by_full.then_with(|| recent(a, b)),
            Sort::Relevance => by_full
                .then_with(|| score(b).partial_cmp(&score(a)).unwrap_or(Ordering::Equal))
                .then_with(|| recent(a, b)),
        }
    };
    let mut docs: Vec<usize> = Vec::with_capacity(keep.min(matching.len()) + 1);
    for d in matching.iter() {
        if docs.len() == keep && docs.last().is_none_or(|&last| cmp(d, last) != Ordering::Less) {
            continue;
        }
        let at = docs.partition_point(|&e| cmp(e, d) == Ordering::Less);
        docs.insert(at, d);
        docs.truncate(keep);
    }
    docs
}
