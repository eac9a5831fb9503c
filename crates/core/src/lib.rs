//! The Incident Library's search core: everything the browser runs, and nothing else.
//!
//! The build side (`incident-build`) writes the index with these types and the browser
//! module (`incident-wasm`) reads it with the same ones, so writer and reader cannot
//! disagree on the format. This crate has no lindera, no file system and no async
//! runtime: its manifest is the guarantee.
//!
//! The folders are the map:
//!
//! * `format/`, on disk: [`format`](mod@format) (framing, version, build), [`hash`]
//!   (term keys), [`membership`] (the per-part binary-fuse filters), [`bitset`],
//!   [`vocab`] (the sorted vocabulary), [`near`] (the near-term buckets); and
//!   [`index`] (`index/`: the loaded index, reading and writing its files).
//! * `text/`: [`text`] (normalisation and Latin tokens), [`text::hangul`] (syllables
//!   and jamo), [`text::particles`] (Korean particles and endings).
//! * `query/`: [`query`] (reading a query: particles, typos, spacing, synonyms).
//! * `search/`: [`search`] (ranking, counts, pages), [`weights`] (every weight of the
//!   ranking), [`excerpt`] (where a hit's terms occur).
//! * The facts every part shares: [`facets`] (the five facets), [`sections`] (the
//!   sections of a record), [`stable_sort`] (one sort for every ordering).

pub mod facets;
pub mod format;

// The on-disk modules live in format/; their paths stay those of the crate's map.
pub use format::{bitset, hash, membership, near, vocab};
pub use search::{excerpt, weights};

pub mod index;
pub mod query;
pub mod search;
pub mod sections;
pub mod stable_sort;
pub mod text;
