//! The Incident Library's search core: everything the browser runs, and nothing else.
//!
//! The build side (`incident-build`) writes the index with these types and the browser
//! module (`incident-wasm`) reads it with the same ones, so writer and reader cannot
//! disagree on the format. This crate has no lindera, no file system and no async
//! runtime: its manifest is the guarantee.
//!
//! * On disk: [`format`](mod@format) (framing and version), [`hash`] (term keys), [`membership`]
//!   (the per-chunk binary-fuse filters), [`bitset`], [`vocab`] (the sorted vocabulary).
//! * Text: [`text`] (normalisation and Latin tokens), [`text::hangul`] (syllables and
//!   jamo), [`text::particles`] (Korean particles and endings).
//! * Records: [`sections`] (the sections of a record, their order and anchors).
//! * Search: [`index`] (the loaded index), [`facets`] (the five facets and their bitsets),
//!   [`query`] (query analysis), [`search`] (ranking, counts, pages), [`weights`] (every
//!   weight of the ranking), [`sort`].

pub mod bitset;
pub mod excerpt;
pub mod facets;
pub mod format;
pub mod hash;
pub mod index;
pub mod membership;
pub mod near;
pub mod query;
pub mod search;
pub mod sections;
pub mod sort;
pub mod text;
pub mod vocab;
pub mod weights;
