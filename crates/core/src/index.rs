//! The index: what `incident-library build` writes into `dist/index/` and what the
//! search reads, natively and in the browser.
//!
//! Three kinds of file, each in the container of [`crate::format`]:
//!
//! * `meta.bin` ([`Meta`]): facets with their value bitsets, the vocabulary
//!   ([`crate::vocab`]: every term with its document frequency, or its incident when
//!   it has one), every incident's id and date, and the list of chunks.
//! * `filters-NNNN.bin` ([`FilterChunk`]): one membership filter over the term
//!   keys of a run of incidents, each key told apart by its incident.
//! * `listing-NNNN.bin` ([`ListingChunk`]): the title and summary that a result list
//!   shows, for [`LISTING_CHUNK`] incidents each.
//!
//! Meta and filters are what a search needs; listing files are only read for the
//! hits that are shown, so the browser fetches them as they are needed
//! ([`Index::open`], [`Index::add_listings`]) while native tools load everything
//! ([`Index::load`]). `docs/index-format.md` is the full description.

use serde::{Deserialize, Serialize};

use crate::bitset::Bitset;
use crate::format::{self, FormatError, Kind};
use crate::membership::{Lookup, TermFilter};
use crate::vocab::{Postings, Vocab};

/// Incidents per filter chunk.
pub const CHUNK_SIZE: usize = 512;

/// Incidents per listing file: one, so that a page of hits in relevance order
/// fetches the text of those hits and nothing else.
pub const LISTING_CHUNK: usize = 1;

/// Term occurrences per unit of [`Meta::lengths`].
pub const LENGTH_UNIT: u32 = 8;

pub use crate::facets::{FacetDef, FACETS};

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
    /// Days since 1970-01-01 of each incident's date, by incident number: the day
    /// it sorts by (see [`Meta::partial_dates`] for dates the sources give only
    /// in part).
    pub days: Vec<i32>,
    /// The incidents whose sources give no full day (a month, a day of an unknown
    /// year, a span), with how their date is written and shown. Sparse: most
    /// records have a plain day, which [`Meta::days`] holds alone.
    pub partial_dates: Vec<PartialDate>,
    /// Exact incident sets of the common terms, numbered as the vocabulary says.
    pub common: Vec<Bitset>,
    /// Each incident's length: term occurrences in units of [`LENGTH_UNIT`], 1..=255.
    pub lengths: Vec<u8>,
    /// The domain lexicon (`data/lexicon.toml`): what people type, and the terms
    /// records hold for it.
    pub lexicon: Vec<LexiconEntry>,
    /// The filter chunks, in order; chunk `c` holds incidents `c*CHUNK_SIZE ..`.
    pub chunks: Vec<ChunkRef>,
    /// Incidents per listing file; file `listing-NNNN.bin` (`NNNN` = `c`, four
    /// digits or more) holds incidents `c*listing_chunk ..`.
    pub listing_chunk: u32,
}

/// The date of an incident whose sources do not give a plain day.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PartialDate {
    /// Incident number.
    pub doc: u32,
    /// As the record writes it: `2019-06`, `--10-04`, `--10-04/--10-05`.
    pub date: String,
    /// As readers see it: `2019년 6월`, `10월 4~5일 (연도 미상)`.
    pub label: String,
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
    /// Old slugs that filters may still name ([`crate::search::resolve_filters`]).
    pub aliases: Vec<String>,
    /// The incidents that carry it.
    pub docs: Bitset,
}

/// One entry of the domain lexicon.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct LexiconEntry {
    /// The typed forms, normalised without spaces ([`squash`]); the reader adds the
    /// other forms the query compares ([`crate::query::lexicon_keys`]).
    pub say: Vec<String>,
    /// What they mean: each a list of vocabulary positions whose terms must all match.
    pub means: Vec<Vec<u32>>,
}

/// Where a filter chunk is.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ChunkRef {
    /// Filter file name, relative to the index folder.
    pub filters: String,
    /// Number of incidents in the chunk.
    pub len: u32,
}

/// What a result list shows for one incident. Only the title and the summary are
/// stored in listing files; the rest comes from `meta.bin` on load.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Listing {
    /// `IL-0001` form.
    #[serde(skip)]
    pub id: String,
    /// One Korean sentence (empty until the listing file is loaded).
    pub title: String,
    /// Organisation slug.
    #[serde(skip)]
    pub org: String,
    /// `YYYY-MM-DD`, or as much of it as the sources give ([`PartialDate::date`]).
    #[serde(skip)]
    pub date: String,
    /// The date as readers see it.
    #[serde(skip)]
    pub date_label: String,
    /// Value positions per facet, in [`FACETS`] order.
    #[serde(skip)]
    pub facets: Vec<Vec<u16>>,
    /// Plain-text summary (the record's 요약; empty until the listing file is loaded).
    pub summary: String,
}

/// A chunk of listing data.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ListingChunk {
    /// Number of the chunk's first incident: a file saved under another chunk's
    /// name is refused rather than showing the wrong titles.
    pub first: u32,
    /// Listings in incident-number order.
    pub listings: Vec<Listing>,
}

/// A chunk of filters.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FilterChunk {
    /// The keys of every incident of the chunk ([`crate::hash::doc_key`]). One filter
    /// for the chunk rather than one an incident: small filters waste a third of
    /// their bytes on rounding, a large one holds a key in about 10 bits.
    pub filter: TermFilter,
}

/// An index ready to search: loaded whole ([`Index::load`]) or without the listing
/// text, which is added as it is needed ([`Index::open`]).
#[derive(Debug, Clone)]
pub struct Index {
    /// The entry file.
    pub meta: Meta,
    /// The vocabulary.
    pub vocab: Vocab,
    /// All listings, by incident number; title and summary are empty where
    /// [`Index::is_listed`] is false.
    pub listings: Vec<Listing>,
    /// Which listings have their listing file loaded.
    listed: Vec<bool>,
    /// The filters, by chunk: incident `d` is in chunk `d / CHUNK_SIZE`.
    pub filters: Vec<Lookup>,
    /// Every label and synonym of every facet value, normalised once for the query
    /// analyzer and the suggested filters.
    pub names: Vec<TaxonomyName>,
    /// The vocabulary with each term's keys and initials, made on first use by the
    /// 초성 and typo lookups, which compare against every term.
    keyed: std::sync::OnceLock<Vec<KeyedTerm>>,
    /// Mean of `meta.lengths`.
    mean_length: f32,
    /// Every typed form of the lexicon with its entry, sorted, for lookups.
    lexicon_keys: Vec<(String, u32)>,
    /// Each lexicon entry's meanings as terms.
    lexicon_means: Vec<Vec<Vec<String>>>,
    /// The Hangul typed forms of the lexicon with their keys, made on first use by
    /// the typo lookup.
    keyed_lexicon: std::sync::OnceLock<Vec<KeyedTerm>>,
}

/// A term looked up once for scoring many incidents ([`Index::prepare`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prepared {
    /// Where its incidents are.
    pub postings: Postings,
    /// Its filter keys: any, often, part, title.
    keys: [u64; 4],
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
    /// Its 2-set keyboard keys ([`crate::text::hangul::keys`]).
    pub keys: Vec<char>,
    /// [`crate::text::hangul::signature`] of the keys.
    pub signature: u64,
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

fn cannot_read(file: &str, e: impl std::fmt::Display) -> LoadError {
    LoadError {
        file: file.to_string(),
        error: FormatError::Decode(format!("cannot read: {e}")),
    }
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (proleptic Gregorian calendar).
pub fn date_of(days: i32) -> String {
    // Howard Hinnant's civil_from_days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
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

mod assemble;
mod keyed;
mod lookup;

impl Index {
    /// Loads an index completely from its files: `read(name)` returns the bytes of a
    /// file of the index folder (`meta.bin`, then the files the meta names).
    pub fn load<E: std::fmt::Display>(mut read: impl FnMut(&str) -> Result<Vec<u8>, E>) -> Result<Index, LoadError> {
        let mut index = Index::open(&mut read)?;
        for file in index.listing_files() {
            let bytes = read(&file).map_err(|e| cannot_read(&file, e))?;
            index.add_listings(&file, &bytes)?;
        }
        Ok(index)
    }

    /// Opens an index for searching: `meta.bin` and the filters, without the listing
    /// files, which [`Index::add_listings`] adds as hits need them.
    pub fn open<E: std::fmt::Display>(mut read: impl FnMut(&str) -> Result<Vec<u8>, E>) -> Result<Index, LoadError> {
        let fail = |file: &str, error: FormatError| LoadError {
            file: file.to_string(),
            error,
        };
        let meta_bytes = read("meta.bin").map_err(|e| cannot_read("meta.bin", e))?;
        let meta: Meta = format::decode(Kind::Meta, &meta_bytes).map_err(|e| fail("meta.bin", e))?;
        let mut filters = Vec::with_capacity(meta.chunks.len());
        for chunk in &meta.chunks {
            let bytes = read(&chunk.filters).map_err(|e| cannot_read(&chunk.filters, e))?;
            let fc: FilterChunk = format::decode(Kind::Filters, &bytes).map_err(|e| fail(&chunk.filters, e))?;
            filters.push(
                fc.filter
                    .to_lookup()
                    .map_err(|e| fail(&chunk.filters, FormatError::Decode(e)))?,
            );
        }
        Index::from_parts(meta, filters)
    }

    /// Assembles an index without listing text from a decoded meta and the filters,
    /// checking that they agree.
    pub fn from_parts(meta: Meta, filters: Vec<Lookup>) -> Result<Index, LoadError> {
        assemble::check_shape(&meta, &filters)?;
        let vocab = assemble::decode_vocab(&meta)?;
        let listings = assemble::listings(&meta);
        let names = assemble::taxonomy_names(&meta);
        let mean_length = assemble::mean_length(&meta);
        let (lexicon_keys, lexicon_means) = assemble::lexicon_tables(&meta, &vocab)?;
        Ok(Index {
            mean_length,
            lexicon_keys,
            lexicon_means,
            keyed_lexicon: std::sync::OnceLock::new(),
            listed: vec![false; meta.ids.len()],
            meta,
            vocab,
            listings,
            filters,
            names,
            keyed: std::sync::OnceLock::new(),
        })
    }

    /// The listing file that holds incident `doc`.
    pub fn listing_file(&self, doc: usize) -> String {
        format!("listing-{:04}.bin", doc / self.meta.listing_chunk as usize)
    }

    /// Every listing file, in order.
    pub fn listing_files(&self) -> Vec<String> {
        let per = self.meta.listing_chunk as usize;
        (0..self.len().div_ceil(per))
            .map(|c| self.listing_file(c * per))
            .collect()
    }

    /// True when the title and summary of incident `doc` are loaded.
    pub fn is_listed(&self, doc: usize) -> bool {
        self.listed.get(doc).copied().unwrap_or(false)
    }

    /// Adds the titles and summaries of listing file `file`.
    pub fn add_listings(&mut self, file: &str, bytes: &[u8]) -> Result<(), LoadError> {
        let fail = |error: FormatError| LoadError {
            file: file.to_string(),
            error,
        };
        let per = self.meta.listing_chunk as usize;
        let c = file
            .strip_prefix("listing-")
            .and_then(|f| f.strip_suffix(".bin"))
            .and_then(|c| c.parse::<usize>().ok())
            .filter(|&c| c * per < self.len() && self.listing_file(c * per) == file)
            .ok_or_else(|| fail(FormatError::Decode("not a listing file of this index".into())))?;
        let chunk: ListingChunk = format::decode(Kind::Listing, bytes).map_err(fail)?;
        let start = c * per;
        let end = (start + per).min(self.len());
        if chunk.first as usize != start {
            return Err(fail(FormatError::Decode(format!(
                "holds the listing of incident {}, not {start}",
                chunk.first
            ))));
        }
        if chunk.listings.len() != end - start {
            return Err(fail(FormatError::Decode("chunk length differs from meta.bin".into())));
        }
        for (d, l) in (start..end).zip(chunk.listings) {
            self.listings[d].title = l.title;
            self.listings[d].summary = l.summary;
            self.listed[d] = true;
        }
        Ok(())
    }

    /// Number of incidents.
    pub fn len(&self) -> usize {
        self.listings.len()
    }

    /// True when the index holds no incident.
    pub fn is_empty(&self) -> bool {
        self.listings.is_empty()
    }

    /// Position of a facet by key.
    pub fn facet_position(&self, key: &str) -> Option<usize> {
        self.meta.facets.iter().position(|f| f.key == key)
    }
}
