//! The flow graph: how the results' facet values lead into each other, column by column.

use serde::Serialize;

use super::SearchError;
use crate::bitset::Bitset;
use crate::index::Index;

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
