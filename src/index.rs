//! The index: what `incident-library build` writes into `dist/index/` and what the
//! search reads, natively and in the browser.
//!
//! Three kinds of file, each in the container of [`crate::format`]:
//!
//! * `meta.bin` ([`Meta`]): facets with their value bitsets, the vocabulary
//!   ([`crate::vocab`]: every term with its document frequency, or its incident when
//!   it has one), every incident's id and date, and the list of chunks.
//! * `listing-NNNN.bin` ([`ListingChunk`]): what a result list shows for a run of
//!   incidents: id, title, organisation, date, facet values, summary.
//! * `filters-NNNN.bin` ([`FilterChunk`]): the per-incident term filters of the
//!   same run.
//!
//! Listing data and filters are kept apart and chunked, so a large corpus can be
//! loaded piece by piece; `docs/index-format.md` is the full description.

use serde::{Deserialize, Serialize};

use crate::facets::Bitset;
use crate::filter::{Lookup, TermFilter};
use crate::format::{self, FormatError, Kind};
use crate::vocab::{Postings, Vocab};

/// Incidents per listing and filter chunk.
pub const CHUNK_SIZE: usize = 512;

/// The facets, in the order they are stored and shown.
pub const FACETS: [(&str, &str, &str); 5] = [
    ("cause", "원인", "Cause"),
    ("component", "구성 요소", "Component"),
    ("symptom", "증상", "Symptom"),
    ("factor", "기여 요인", "Contributing factor"),
    ("org", "조직", "Organisation"),
];

/// The index's entry file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    /// When the corpus was built, as an RFC 3339 date-time (`generated_at`). It is
    /// taken from the newest record date, not the clock, so builds are reproducible.
    pub corpus_date: String,
    /// The facets, in [`FACETS`] order.
    pub facets: Vec<Facet>,
    /// Vocabulary, encoded as [`crate::vocab`] describes.
    pub vocab: Vec<u8>,
    /// Incident ids, by incident number.
    pub ids: Vec<String>,
    /// Days since 1970-01-01 of each incident's date, by incident number.
    pub days: Vec<i32>,
    /// Exact incident sets of the common terms, numbered as the vocabulary says.
    pub common: Vec<Bitset>,
    /// The chunks, in order; chunk `c` holds incidents `c*CHUNK_SIZE ..`.
    pub chunks: Vec<ChunkRef>,
}

/// One facet and its values.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Facet {
    /// Key used in filters and URLs (`cause`, `component`, …).
    pub key: String,
    /// Korean label.
    pub ko: String,
    /// English label.
    pub en: String,
    /// The values.
    pub values: Vec<FacetValue>,
}

/// One facet value.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FacetValue {
    /// Slug (ascii kebab-case).
    pub slug: String,
    /// Korean label.
    pub ko: String,
    /// English label.
    pub en: String,
    /// Words people type for it.
    pub synonyms: Vec<String>,
    /// The incidents that carry it.
    pub docs: Bitset,
}

/// Where a chunk's two files are.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ChunkRef {
    /// Listing file name, relative to the index folder.
    pub listing: String,
    /// Filter file name, relative to the index folder.
    pub filters: String,
    /// Number of incidents in the chunk.
    pub len: u32,
}

/// What a result list shows for one incident.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Listing {
    /// `IL-0001` form.
    pub id: String,
    /// One Korean sentence.
    pub title: String,
    /// Organisation slug. Not stored: filled in from the `org` facet on load.
    #[serde(skip)]
    pub org: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// Value positions per facet, in [`FACETS`] order. Not stored: filled in from
    /// the facet bitsets on load.
    #[serde(skip)]
    pub facets: Vec<Vec<u16>>,
    /// Plain-text summary (the record's 요약).
    pub summary: String,
}

/// A chunk of listing data.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ListingChunk {
    /// Listings in incident-number order.
    pub listings: Vec<Listing>,
}

/// A chunk of filters.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FilterChunk {
    /// Filters in incident-number order.
    pub filters: Vec<TermFilter>,
}

/// A fully loaded index, ready to search.
#[derive(Debug, Clone)]
pub struct Index {
    /// The entry file.
    pub meta: Meta,
    /// The vocabulary.
    pub vocab: Vocab,
    /// All listings, by incident number.
    pub listings: Vec<Listing>,
    /// All filters, by incident number.
    pub filters: Vec<Lookup>,
    /// Every label and synonym of every facet value, normalised once for the query
    /// analyzer and the suggested filters.
    pub names: Vec<TaxonomyName>,
    /// The vocabulary with each term's keys and initials, made on first use by the
    /// 초성 and typo lookups, which compare against every term.
    keyed: std::sync::OnceLock<Vec<KeyedTerm>>,
}

/// A vocabulary term as the 초성 and typo lookups compare it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedTerm {
    /// The term.
    pub term: String,
    /// Its document frequency.
    pub df: u64,
    /// Number of characters.
    pub chars: usize,
    /// Its 2-set keyboard keys ([`crate::hangul::keys`]).
    pub keys: Vec<char>,
    /// Its initial consonants, when it is all Hangul syllables.
    pub initials: Option<Vec<char>>,
}

/// A facet value's label or synonym, as queries are compared with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxonomyName {
    /// Facet position.
    pub f: usize,
    /// Value position.
    pub v: usize,
    /// The name as written.
    pub name: String,
    /// Normalised, without spaces (`메모리부족`).
    pub squashed: String,
}

/// Text as it is compared with taxonomy names: normalised, without spaces.
pub fn squash(s: &str) -> String {
    crate::text::normalize(s)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// Why an index could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// Which file.
    pub file: String,
    /// What is wrong with it.
    pub error: FormatError,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.error)
    }
}

impl std::error::Error for LoadError {}

impl Index {
    /// Loads an index from its files: `read(name)` returns the bytes of a file of the
    /// index folder (`meta.bin`, then the chunk files the meta names).
    pub fn load<E: std::fmt::Display>(mut read: impl FnMut(&str) -> Result<Vec<u8>, E>) -> Result<Index, LoadError> {
        let fail = |file: &str, error: FormatError| LoadError {
            file: file.to_string(),
            error,
        };
        let get = |read: &mut dyn FnMut(&str) -> Result<Vec<u8>, E>, name: &str| {
            read(name).map_err(|e| fail(name, FormatError::Decode(format!("cannot read: {e}"))))
        };
        let meta_bytes = get(&mut read, "meta.bin")?;
        let meta: Meta = format::decode(Kind::Meta, &meta_bytes).map_err(|e| fail("meta.bin", e))?;
        let mut listings = Vec::with_capacity(meta.ids.len());
        let mut filters = Vec::with_capacity(meta.ids.len());
        for chunk in &meta.chunks {
            let bytes = get(&mut read, &chunk.listing)?;
            let lc: ListingChunk = format::decode(Kind::Listing, &bytes).map_err(|e| fail(&chunk.listing, e))?;
            let bytes = get(&mut read, &chunk.filters)?;
            let fc: FilterChunk = format::decode(Kind::Filters, &bytes).map_err(|e| fail(&chunk.filters, e))?;
            if lc.listings.len() != chunk.len as usize || fc.filters.len() != chunk.len as usize {
                return Err(fail(
                    &chunk.listing,
                    FormatError::Decode("chunk length differs from meta.bin".into()),
                ));
            }
            listings.extend(lc.listings);
            for f in &fc.filters {
                filters.push(
                    f.to_lookup()
                        .map_err(|e| fail(&chunk.filters, FormatError::Decode(e)))?,
                );
            }
        }
        Index::from_parts(meta, listings, filters)
    }

    /// Assembles an index from decoded parts, checking that they agree.
    pub fn from_parts(meta: Meta, mut listings: Vec<Listing>, filters: Vec<Lookup>) -> Result<Index, LoadError> {
        let bad = |m: &str| LoadError {
            file: "meta.bin".into(),
            error: FormatError::Decode(m.into()),
        };
        let n = meta.ids.len();
        if meta.days.len() != n || listings.len() != n || filters.len() != n || meta.common.iter().any(|b| b.len() > n)
        {
            return Err(bad("incident counts of meta, listings and filters differ"));
        }
        if meta.facets.len() != FACETS.len() {
            return Err(bad("unexpected number of facets"));
        }
        let vocab = Vocab::decode(&meta.vocab, n).map_err(|error| LoadError {
            file: "meta.bin".into(),
            error,
        })?;
        if vocab.common_count() != meta.common.len() {
            return Err(bad("common-term bitsets differ from the vocabulary"));
        }
        for (d, l) in listings.iter_mut().enumerate() {
            l.facets = meta
                .facets
                .iter()
                .map(|f| {
                    (0..f.values.len())
                        .filter(|&v| f.values[v].docs.contains(d))
                        .map(|v| v as u16)
                        .collect()
                })
                .collect();
            let org = &meta.facets[FACETS.len() - 1];
            l.org = l.facets[FACETS.len() - 1]
                .first()
                .map(|&v| org.values[v as usize].slug.clone())
                .unwrap_or_default();
        }
        let mut names = Vec::new();
        for (f, facet) in meta.facets.iter().enumerate() {
            for (v, value) in facet.values.iter().enumerate() {
                for name in [&value.ko, &value.en, &value.slug].into_iter().chain(&value.synonyms) {
                    names.push(TaxonomyName {
                        f,
                        v,
                        name: name.clone(),
                        squashed: squash(name),
                    });
                }
            }
        }
        Ok(Index {
            meta,
            vocab,
            listings,
            filters,
            names,
            keyed: std::sync::OnceLock::new(),
        })
    }

    /// Number of incidents.
    pub fn len(&self) -> usize {
        self.listings.len()
    }

    /// True when the index holds no incident.
    pub fn is_empty(&self) -> bool {
        self.listings.is_empty()
    }

    /// Document frequency of `term`, if it is in the vocabulary.
    pub fn df(&self, term: &str) -> Option<u64> {
        self.vocab.get(term).map(Postings::df)
    }

    /// True when incident `doc` has `term`: exactly for common terms (their
    /// bitset), else through the incident's filter.
    pub fn has_term(&self, doc: usize, term: &str) -> bool {
        match self.vocab.get(term) {
            None => false,
            Some(Postings::Single(d)) => d as usize == doc,
            Some(Postings::Common { id, .. }) => self.meta.common.get(id as usize).is_some_and(|b| b.contains(doc)),
            Some(Postings::Filtered(_)) => {
                self.filters[doc].contains(crate::hash::term_key(term, crate::hash::Field::Any))
            }
        }
    }

    /// Every vocabulary term with its keys and initials.
    pub fn keyed_terms(&self) -> &[KeyedTerm] {
        self.keyed.get_or_init(|| {
            self.vocab
                .iter()
                .map(|(term, postings)| KeyedTerm {
                    term: term.to_string(),
                    df: postings.df(),
                    chars: term.chars().count(),
                    keys: crate::hangul::keys(term),
                    initials: crate::hangul::initials(term),
                })
                .collect()
        })
    }

    /// True when `term` is in the title of incident `doc`.
    pub fn in_title(&self, doc: usize, term: &str) -> bool {
        self.filters[doc].contains(crate::hash::term_key(term, crate::hash::Field::Title))
    }

    /// Position of a facet by key.
    pub fn facet_position(&self, key: &str) -> Option<usize> {
        self.meta.facets.iter().position(|f| f.key == key)
    }
}
