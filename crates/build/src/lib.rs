//! The Incident Library's build side: from `data/` to a bundle in `dist/`.
//!
//! Native only. It reads and checks the corpus, segments Korean with lindera, builds
//! the index with the format types of `incident-core`, and writes the site, the static
//! API and the browser package. The flow, one module per step:
//!
//! [`corpus`] (read and check `data/`) → [`analyze`] (lindera, ko-dic from [`ko_dic`])
//! → [`indexer`] (vocabulary, filters, facets, [`lexicon`]) → [`bundle`] (writes
//! `dist/`: [`site`] pages with their [`preview`] images, [`api`] files, the index;
//! both show the same [`related`] incidents and [`summary`]). [`open`] reads a bundle
//! back for the CLI search, [`eval`] and the MCP server.

pub mod analyze;
pub mod api;
pub mod bundle;
pub mod corpus;
mod dom_ids;
pub mod error;
pub mod eval;
pub mod favicon;
pub mod feed;
pub mod headers;
pub mod indexer;
pub mod ko_dic;
pub mod lexicon;
pub mod llms;
pub mod markdown;
pub mod mcp_tools;
pub mod open;
pub mod overlap;
pub mod passages;
pub mod preview;
pub mod related;
pub mod site;
pub mod sitemap;
pub mod summary;
pub mod timings;

/// Threads for the work the build shares among the cores (analysis, related
/// incidents): one a core, at most eight.
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |t| t.get()).min(8)
}
