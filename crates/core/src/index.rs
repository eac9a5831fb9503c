//! The index: what `incident-library build` writes into `dist/index/` and what the
//! search reads, natively and in the browser.
//!
//! Four kinds of file, each in the container of [`crate::format`]:
//!
//! * `meta.bin` ([`Meta`]): facets with their value bitsets, every incident's id,
//!   date and length, the lexicon, and the vocabulary's [`Directory`]. It is the
//!   only file a page loads before the first query, and it holds nothing that
//!   grows with the vocabulary.
//! * `vocab-NNNN.bin` ([`VocabBlock`]): a block of [`BLOCK_TERMS`] vocabulary
//!   terms ([`crate::vocab`]) with their document frequencies, their incidents (a
//!   bitset or a list) and one membership filter over their keys in every incident:
//!   everything a search asks of a term, in the one file whose number the
//!   directory gives before anything else is loaded.
//! * `near-NNNN.bin` ([`crate::near::NearBucket`]): the terms filed under some of
//!   their keys for the typo and 초성 lookups of words the vocabulary lacks.
//! * `listing-NNNN.bin` ([`ListingChunk`]): the title and summary that a result list
//!   shows, for [`LISTING_CHUNK`] incidents each.
//!
//! Native tools load everything ([`Index::load`]). The browser opens `meta.bin`
//! alone ([`Index::open`]); a search then notes every block, bucket and listing it
//! needed and did not have ([`crate::search::Response::missing`]), the page fetches
//! those ([`Index::add_file`]) and searches again, until nothing is missing. So a
//! query costs the few kilobytes of its own terms, whatever the size of the
//! library. `docs/index-format.md` is the full description.

use serde::{Deserialize, Serialize};

use std::sync::Mutex;

use crate::bitset::Bitset;
use crate::membership::{Lookup, TermFilter};
use crate::vocab::{Directory, Postings, Vocab};

pub use crate::vocab::BLOCK_TERMS;

/// Incidents per listing file: one, so that a page of hits in relevance order
/// fetches the text of those hits and nothing else.
pub const LISTING_CHUNK: usize = 1;

/// Term occurrences per unit of [`Meta::lengths`].
pub const LENGTH_UNIT: u32 = 8;

pub use crate::facets::{FacetDef, FACETS};

/// The index's entry file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Meta {
    /// Where the vocabulary blocks are. First in the file, so that a loader can read
    /// it from the start of `meta.bin` while the rest is still coming, and ask for
    /// the blocks of a query's words before the search module has started
    /// (`docs/index-format.md`, "The directory and the lexicon first").
    pub vocab: Directory,
    /// The domain lexicon (`data/lexicon.toml`): what people type, and the terms
    /// records hold for it. Second in the file, for the same loader: the blocks of
    /// the meanings of a query's words come with those of the words.
    pub lexicon: Vec<LexiconEntry>,
    /// Number of near-term buckets (`near-NNNN.bin`, [`crate::near`]). Right after
    /// the lexicon, for the same loader: the buckets of a word its early blocks
    /// lack are asked for before the module has started.
    pub near_buckets: u32,
    /// The width of the length bands that typo keys are filed under, 0 for none
    /// ([`crate::near::length_band`]).
    pub near_band: u32,
    /// When the corpus was built, as an RFC 3339 date-time (`generated_at`). It is
    /// taken from the newest record date, not the clock, so builds are reproducible.
    pub corpus_date: String,
    /// The facets, in [`FACETS`] order (stored as [`packed::facets`] says).
    #[serde(with = "packed::facets")]
    pub facets: Vec<Facet>,
    /// Incident ids, by incident number (stored as [`packed::ids`] says).
    #[serde(with = "packed::ids")]
    pub ids: Vec<String>,
    /// Days since 1970-01-01 of each incident's date, by incident number: the day
    /// it sorts by. A date the sources give only in part is shown as its listing
    /// file says ([`Listing::partial_date`]).
    pub days: Vec<i32>,
    /// Each incident's length: term occurrences in units of [`LENGTH_UNIT`], 1..=255.
    pub lengths: Vec<u8>,
    /// Incidents per listing file; file `listing-NNNN.bin` (`NNNN` = `c`, four
    /// digits or more) holds incidents `c*listing_chunk ..`.
    pub listing_chunk: u32,
}

/// The date of an incident whose sources do not give a plain day.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PartialDate {
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
    /// The incidents that carry it (stored per incident, [`packed::facets`]).
    #[serde(skip)]
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

/// One block of the vocabulary (`vocab-NNNN.bin`): its terms and what the search
/// asks of them. The incidents and keys of a term live in the block that spells it,
/// so that a query fetches both in one round: the directory in `meta.bin` names the
/// block before anything else is loaded.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct VocabBlock {
    /// Vocabulary position of its first term: a file saved under another block's
    /// name is refused.
    pub first: u32,
    /// The block's terms, encoded as [`crate::vocab`] describes.
    pub terms: Vec<u8>,
    /// The keys of the block's terms in every incident ([`crate::hash::doc_key`]).
    /// One filter for all incidents rather than one each: small filters waste a
    /// third of their bytes on rounding, a large one holds a key in about 10 bits.
    pub filter: TermFilter,
    /// The exact incident sets of the block's common terms, by vocabulary position,
    /// in ascending order.
    pub common: Vec<(u32, Bitset)>,
    /// The incidents of the block's other terms in two or more incidents, by
    /// vocabulary position, ascending: each list as [`crate::vocab::encode_list`]
    /// writes it.
    pub lists: Vec<(u32, Vec<u8>)>,
}

/// What a result list shows for one incident. Only the title, the summary and a
/// date the sources give in part are stored in listing files; the rest comes from
/// `meta.bin` on load.
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
    /// The date, when the sources give no full day (a month, a day of an unknown
    /// year, a span). In the listing file, not `meta.bin`: only a shown hit reads
    /// it, and a large library's first search would download thousands (8.7 KB
    /// gzip at 9,000 synthetic records). Until the file is loaded, [`Listing::date`]
    /// is the day the incident sorts by.
    pub partial_date: Option<PartialDate>,
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

/// The incidents and keys of a block's terms, as the search reads them.
#[derive(Debug, Clone)]
pub struct Part {
    /// The filter.
    pub filter: Lookup,
    /// The common bitsets by vocabulary position, ascending.
    pub common: Vec<(u32, Bitset)>,
    /// The incident lists by vocabulary position, ascending (checked when added).
    pub lists: Vec<(u32, Vec<u8>)>,
}

/// The vocabulary blocks and near-term buckets an index has loaded (all of them
/// for [`Index::load`]).
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// Decoded vocabulary blocks, by block number.
    pub blocks: Vec<Option<Vocab>>,
    /// The incidents and keys of each loaded block's terms, by block number.
    pub parts: Vec<Option<Part>>,
    /// Near-term buckets, by bucket number: each term with its document frequency
    /// and its keys, in term order.
    pub near: Vec<Option<Vec<KeyedTerm>>>,
}

/// An index ready to search: loaded whole ([`Index::load`]) or without the listing
/// text, which is added as it is needed ([`Index::open`]).
#[derive(Debug)]
pub struct Index {
    /// The entry file.
    pub meta: Meta,
    /// The build in `meta.bin`'s header ([`crate::format::stamp`]); every file added must
    /// carry the same.
    pub build: u64,
    /// The vocabulary blocks and near-term buckets loaded so far.
    pub data: Loaded,
    /// Each incident's listing as its listing file holds it (title, summary and a
    /// partial date), by incident number, once that file is loaded. The rest of a
    /// listing is the meta's, read when a listing is asked for ([`Index::listing`]):
    /// building all of them on opening cost a large library's first search tens of
    /// ms in a browser, and so did a default listing for each.
    texts: Vec<Option<Box<Listing>>>,
    /// Index files that a lookup needed since the last [`Index::take_missing`] and
    /// did not find loaded. A lock rather than a cell keeps the index `Sync`; a fully
    /// loaded index never takes it.
    missing: Mutex<Vec<String>>,
    /// Lookups that found their file missing, every one counted, for
    /// [`Index::missing_count`].
    misses: std::sync::atomic::AtomicUsize,
    /// Every label and synonym of every facet value, normalised once for the query
    /// analyzer and the suggested filters ([`Index::names`]), made on first use.
    names: std::sync::OnceLock<Names>,
    /// Mean of `meta.lengths`.
    mean_length: f32,
    /// Every typed form of the lexicon with its entry, sorted, for lookups
    /// ([`Index::lexicon_keys`]), made on first use.
    lexicon_keys: std::sync::OnceLock<Vec<(String, u32)>>,
    /// The Hangul typed forms of the lexicon with their keys, made on first use by
    /// the typo lookup.
    keyed_lexicon: std::sync::OnceLock<Vec<KeyedTerm>>,
    /// The last completions worked out from loaded vocabulary blocks: the word, the
    /// limit and the terms. A search asks for its last word's twice (the analysis
    /// and the response), and each reads thousands of terms in a large library.
    completed: Mutex<Option<Completed>>,
}

/// The taxonomy names ([`Index::names`]) and their positions ordered by squashed
/// name and then position, for [`Index::names_squashed`].
#[derive(Debug, Clone)]
struct Names {
    list: Vec<TaxonomyName>,
    by_squashed: Vec<u32>,
}

/// A word's completions, as [`Index::remember_completions`] keeps them.
type Completed = (String, usize, Vec<(String, u64)>);

impl Clone for Index {
    /// A copy with its own (empty) record of missing files.
    fn clone(&self) -> Index {
        Index {
            meta: self.meta.clone(),
            build: self.build,
            data: self.data.clone(),
            texts: self.texts.clone(),
            missing: Mutex::new(Vec::new()),
            misses: std::sync::atomic::AtomicUsize::new(0),
            names: self.names.clone(),
            mean_length: self.mean_length,
            lexicon_keys: self.lexicon_keys.clone(),
            keyed_lexicon: self.keyed_lexicon.clone(),
            completed: Mutex::new(None),
        }
    }
}

/// A term looked up once for scoring many incidents ([`Index::prepare`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// Where its incidents are.
    pub postings: Postings,
    /// Its vocabulary block.
    part: usize,
    /// A listed term's incidents, read from its list once.
    listed: Option<Bitset>,
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
    /// Characters in `squashed`.
    pub chars: usize,
    /// The first two characters of `squashed` (`'\0'` past its end): a query holds
    /// the name only if it holds this pair, which is checked before the name.
    pub head: (char, char),
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

mod assemble;
mod files;
mod keyed;
mod load;
mod lookup;
pub mod packed;

pub use files::vocab_blocks;
pub use load::LoadError;

impl Index {
    /// The completions of `word` kept by [`Index::remember_completions`], cut to
    /// `limit`, when they were worked out for this word with at least that limit.
    /// (They are the first terms of a total order, so a shorter list is a cut of a
    /// longer one.)
    pub(crate) fn remembered_completions(&self, word: &str, limit: usize) -> Option<Vec<(String, u64)>> {
        let kept = self.completed.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (w, l, found) = kept.as_ref()?;
        (w == word && *l >= limit).then(|| found.iter().take(limit).cloned().collect())
    }

    /// Keeps the completions of `word` for `limit`, worked out from vocabulary blocks
    /// that were all loaded: blocks are only ever added, so they stay right.
    pub(crate) fn remember_completions(&self, word: &str, limit: usize, found: &[(String, u64)]) {
        let mut kept = self.completed.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *kept = Some((word.to_string(), limit, found.to_vec()));
    }

    /// Every label and synonym of every facet value, normalised for the query
    /// analyzer and the suggested filters: made on first use, since a page that
    /// only lists incidents never reads them.
    pub fn names(&self) -> &[TaxonomyName] {
        &self.names_table().list
    }

    fn names_table(&self) -> &Names {
        self.names.get_or_init(|| {
            let list = assemble::taxonomy_names(&self.meta);
            let mut by_squashed: Vec<u32> = (0..list.len() as u32).collect();
            crate::stable_sort::sort_by(&mut by_squashed, |&a, &b| {
                list[a as usize]
                    .squashed
                    .cmp(&list[b as usize].squashed)
                    .then(a.cmp(&b))
            });
            Names { list, by_squashed }
        })
    }

    /// Every typed form of the lexicon with its entry, sorted: made on first use.
    pub(crate) fn lexicon_keys(&self) -> &[(String, u32)] {
        self.lexicon_keys.get_or_init(|| assemble::lexicon_keys(&self.meta))
    }

    /// Makes the next lookup table that is otherwise made on first use (the
    /// taxonomy names, then the lexicon's keys); true while one is left. A
    /// browser makes them one per task after loading, so that none of its tasks
    /// is long on a phone.
    pub fn make_next_table(&self) -> bool {
        if self.names.get().is_none() {
            self.names_table();
            return true;
        }
        self.lexicon_keys();
        false
    }

    /// The taxonomy names whose squashed form is `squashed`, in the order of
    /// [`Index::names`]: a binary search, since every query word asks.
    pub fn names_squashed<'a>(&'a self, squashed: &str) -> impl Iterator<Item = &'a TaxonomyName> + 'a {
        let Names { list, by_squashed } = self.names_table();
        let key = |&i: &u32| list[i as usize].squashed.as_str();
        let start = by_squashed.partition_point(|i| key(i) < squashed);
        let end = start + by_squashed[start..].partition_point(|i| key(i) == squashed);
        by_squashed[start..end].iter().map(|&i| &list[i as usize])
    }

    /// The index files that lookups needed since the last call and did not find
    /// loaded, sorted by name; clears the record.
    pub fn take_missing(&self) -> Vec<String> {
        std::mem::take(&mut *self.missing_files())
    }

    /// The record of missing files. A panic while it was held leaves it as it was,
    /// which is still a list of file names.
    fn missing_files(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.missing.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Notes that a lookup needed `file`. A sorted list: a search notes a few dozen
    /// files at most, and a set would add its code to the wasm module.
    fn need(&self, file: String) {
        self.misses.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut missing = self.missing_files();
        if let Err(at) = missing.binary_search(&file) {
            missing.insert(at, file);
        }
    }

    /// How many lookups have found their file missing: an analysis step compares it
    /// before and after its lookups to know whether their "absent" can be trusted
    /// yet. Every lookup counts, not every file: a word whose block another word
    /// has already noted missing is not known to be absent either.
    pub fn missing_count(&self) -> usize {
        self.misses.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// True when every vocabulary block is loaded; else notes the missing ones.
    pub fn has_whole_vocabulary(&self) -> bool {
        self.has_blocks(0..self.data.blocks.len())
    }

    /// True when vocabulary blocks `blocks` are all loaded; else notes the missing ones.
    fn has_blocks(&self, blocks: std::ops::Range<usize>) -> bool {
        let mut all = true;
        for b in blocks {
            if matches!(self.data.blocks.get(b), Some(None)) {
                self.need(Directory::file(b));
                all = false;
            }
        }
        all
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
    pub fn has_listing(&self, doc: usize) -> bool {
        self.texts.get(doc).is_some_and(Option::is_some)
    }

    /// The listing of incident `doc` (`doc` < [`Index::len`]): id, date,
    /// organisation and facet values from the meta, title and summary once its
    /// listing file is loaded (empty until then).
    pub fn listing(&self, doc: usize) -> Listing {
        let file = self.texts[doc].as_deref().cloned().unwrap_or_default();
        assemble::listing(&self.meta, doc, file)
    }

    /// The title of incident `doc` (`doc` < [`Index::len`]); empty until its
    /// listing file is loaded. What a lookup by title reads, without the rest of
    /// the listing.
    pub fn title(&self, doc: usize) -> &str {
        self.texts[doc].as_ref().map_or("", |l| l.title.as_str())
    }

    /// Every incident's listing, by incident number.
    pub fn listings(&self) -> Vec<Listing> {
        (0..self.len()).map(|d| self.listing(d)).collect()
    }

    /// Number of incidents.
    pub fn len(&self) -> usize {
        self.meta.ids.len()
    }

    /// True when the index holds no incident.
    pub fn is_empty(&self) -> bool {
        self.meta.ids.is_empty()
    }

    /// Position of a facet by key.
    pub fn facet_position(&self, key: &str) -> Option<usize> {
        self.meta.facets.iter().position(|f| f.key == key)
    }
}
