//! The Incident Library: a Korean-first, zero-backend search for public incident
//! reports.
//!
//! The crate has two halves, split by cargo features so that the browser gets only
//! what it runs:
//!
//! * **Shared core** (always compiled, also for `wasm32-unknown-unknown`):
//!   [`text`], [`particles`], [`hash`], [`format`], [`filter`], [`facets`],
//!   [`index`], [`query`] and [`search`]. No lindera, no file system.
//! * **Build side** (feature `build`, on by default): `corpus` reads and checks
//!   `data/`, `analyze` segments Korean with lindera, `kodic` prepares its
//!   dictionary, `indexer` builds the index and `bundle` writes `dist/`.
//! * **Browser binding** (feature `wasm`): `wasm` exposes the search to JavaScript.

pub mod error;
pub mod facets;
pub mod filter;
pub mod format;
pub mod hangul;
pub mod hash;
pub mod index;
pub mod particles;
pub mod query;
pub mod search;
pub mod sort;
pub mod text;
pub mod vocab;

#[cfg(feature = "build")]
pub mod analyze;
#[cfg(feature = "build")]
pub mod api;
#[cfg(feature = "build")]
pub mod bundle;
#[cfg(feature = "build")]
pub mod corpus;
#[cfg(feature = "build")]
pub mod eval;
#[cfg(feature = "build")]
pub mod indexer;
#[cfg(feature = "build")]
pub mod kodic;
#[cfg(feature = "build")]
pub mod lexicon;
#[cfg(feature = "build")]
pub mod mcp;
#[cfg(feature = "build")]
pub mod serve;
#[cfg(feature = "build")]
pub mod site;
#[cfg(feature = "wasm")]
pub mod wasm;
