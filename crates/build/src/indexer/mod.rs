//! Builds the index of [`incident_core::index`] from a checked corpus: analyses every record
//! with lindera, keys its terms into a per-incident filter, counts document
//! frequencies into the vocabulary and sets the facet bitsets.
//!
//! The output depends only on the corpus and the dictionary: terms are sorted,
//! maps are ordered and nothing reads the clock, so the same input gives
//! byte-identical files.

use std::collections::{BTreeMap, BTreeSet};

use crate::analyze::Analyzer;
use crate::corpus::Corpus;
use crate::error::{Error, Result};
use crate::timings::phase;
use incident_core::bitset::Bitset;
use incident_core::format::{self, Kind};
use incident_core::hash::{doc_key, term_key, Field};
use incident_core::index::{
    Facet, FacetDef, FacetValue, LexiconEntry, Listing, ListingChunk, Meta, FACETS, LISTING_CHUNK,
};
use incident_core::membership::TermFilter;
use incident_core::text::particles;
use incident_core::vocab::is_common;
use incident_core::vocab::Directory;

pub use crate::summary::{summary, SUMMARY_CHARS};

mod terms;

pub use terms::{often_terms, record_keys, record_terms, RecordTerms, OFTEN_TERMS};

/// The files of a built index, by name, plus figures for the build report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltIndex {
    /// File name (relative to the index folder) and contents, `meta.bin` first.
    pub files: Vec<(String, Vec<u8>)>,
    /// Distinct terms in the vocabulary.
    pub vocab_terms: usize,
    /// Filter keys over all incidents.
    pub filter_keys: usize,
    /// Incident-list entries, then the part, often and title keys.
    pub key_counts: [usize; 4],
    /// What ranking adds to the index, measured: (what, raw bytes, gzip bytes) of the
    /// lexicon, the record lengths and the filter keys of [`Field::Often`] and
    /// [`Field::Part`] (the filters built with them minus those built without).
    pub ranking_costs: Vec<(String, usize, usize)>,
    /// Every record's terms, by incident number (for related-incident scoring).
    pub terms: Vec<BTreeSet<String>>,
}

/// Builds the index files. `progress(done, total)` is called after each record.
pub fn build(corpus: &Corpus, analyzer: &Analyzer, progress: impl FnMut(usize, usize)) -> Result<BuiltIndex> {
    let n = corpus.incidents.len();
    let records = phase("analysis", || analyse_records(corpus, analyzer, progress))?;
    let docs = phase("term incidents", || term_docs(&records));
    let keys = phase("filter keys", || FilterKeys::of(&records, &docs, n));
    let (filters, plain_filters) = phase("filters", || {
        let build = |keys: &[Vec<u64>]| keys.iter().map(|k| TermFilter::build(k)).collect::<Vec<TermFilter>>();
        (build(&keys.by_block), build(&keys.plain))
    });
    let listed: Vec<(&str, &[u32])> = docs.iter().map(|(t, l)| (t.as_str(), l.as_slice())).collect();
    let (directory, blocks) = phase("vocabulary", || {
        incident_core::index::vocab_blocks(&listed, n, |b| filters[b].clone())
    });
    let mut files: Vec<(String, Vec<u8>)> = blocks
        .iter()
        .enumerate()
        .map(|(b, block)| (Directory::file(b), format::encode(Kind::Vocab, block)))
        .collect();
    let near_band = incident_core::near::length_band(listed.len());
    let near = phase("near terms", || {
        incident_core::near::buckets(listed.iter().map(|(t, l)| (*t, l.len() as u64)), near_band)
    });
    let near_count = near.len() as u32;
    files.extend(
        near.iter()
            .enumerate()
            .map(|(b, bucket)| (incident_core::near::file(b), format::encode(Kind::Near, bucket))),
    );
    files.extend(phase("listings", || listing_files(corpus)));
    let meta = Meta {
        corpus_date: corpus_date(corpus),
        facets: facets(corpus),
        vocab: directory,
        near_buckets: near_count,
        near_band,
        ids: corpus.incidents.iter().map(|i| i.id.clone()).collect(),
        days: corpus.incidents.iter().map(|i| i.date.days_since_epoch()).collect(),
        lengths: records.iter().map(|r| length_byte(r.length)).collect(),
        lexicon: {
            let positions: std::collections::HashMap<&str, u32> =
                docs.keys().enumerate().map(|(i, t)| (t.as_str(), i as u32)).collect();
            phase("lexicon", || lexicon(corpus, analyzer, |t| positions.get(t).copied()))?
        },
        listing_chunk: LISTING_CHUNK as u32,
    };
    let ranking_costs = phase("ranking costs", || {
        ranking_costs(&meta, &filters, &plain_filters, &keys.counts)
    });
    files.insert(0, ("meta.bin".to_string(), format::encode(Kind::Meta, &meta)));
    Ok(BuiltIndex {
        files,
        vocab_terms: docs.len(),
        filter_keys: keys.total,
        key_counts: keys.counts,
        ranking_costs,
        terms: records.into_iter().map(RecordTerms::into_all).collect(),
    })
}

/// The terms of every record, by incident number, calling `progress` after each.
fn analyse_records(
    corpus: &Corpus,
    analyzer: &Analyzer,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<RecordTerms>> {
    let n = corpus.incidents.len();
    // The analysis is most of the build and each record is independent: every core
    // takes a share of each batch; the batches keep the progress moving.
    let threads = crate::threads();
    let mut records = Vec::with_capacity(n);
    for batch in corpus.incidents.chunks(32 * threads) {
        let share = batch.len().div_ceil(threads);
        let parts: Vec<Result<Vec<RecordTerms>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .chunks(share)
                .map(|part| scope.spawn(move || part.iter().map(|i| record_terms(i, analyzer)).collect()))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        });
        for part in parts {
            records.extend(part?);
        }
        progress(records.len(), n);
    }
    Ok(records)
}

/// Every term with its incidents, in byte order (the vocabulary's order).
fn term_docs(records: &[RecordTerms]) -> BTreeMap<String, Vec<u32>> {
    // Hashed while counting, ordered once: a tree lookup per term occurrence compared
    // strings about twenty times each.
    let mut docs: std::collections::HashMap<&str, Vec<u32>> = std::collections::HashMap::new();
    for (d, r) in records.iter().enumerate() {
        for term in r.all() {
            docs.entry(term.as_str()).or_default().push(d as u32);
        }
    }
    docs.into_iter().map(|(t, list)| (t.to_string(), list)).collect()
}

/// The filter keys of every record, by vocabulary block (the block of the term),
/// each key told apart by its incident.
struct FilterKeys {
    /// The keys of each block.
    by_block: Vec<Vec<u64>>,
    /// The keys of each block without [`Field::Often`] and [`Field::Part`] keys,
    /// to measure what those cost.
    plain: Vec<Vec<u64>>,
    /// Keys over all records.
    total: usize,
    /// Incident-list entries, then the part, often and title keys.
    counts: [usize; 4],
}

impl FilterKeys {
    /// The keys of `records`, whose terms occur in the incidents `docs` says.
    fn of(records: &[RecordTerms], docs: &BTreeMap<String, Vec<u32>>, n: usize) -> FilterKeys {
        // Each term's document frequency and vocabulary block, the vocabulary cut as
        // `vocab_blocks` cuts it.
        let per_block = incident_core::vocab::block_terms(docs.len());
        let terms: std::collections::HashMap<&str, (u64, usize)> = docs
            .iter()
            .enumerate()
            .map(|(i, (t, l))| (t.as_str(), (l.len() as u64, i / per_block)))
            .collect();
        let df = |t: &str| terms.get(t).map_or(0, |&(df, _)| df);
        let filtered = |t: &str| {
            let d = df(t);
            d >= 2 && !is_common(d, n)
        };
        let mut counts = [0usize; 4];
        // Each record's (often terms, title terms), each term with its key.
        type Keyed<'t> = Vec<(&'t str, u64)>;
        let mut all: Vec<(Keyed, Keyed)> = Vec::with_capacity(records.len());
        for r in records {
            let often = often_terms(r, n, df);
            counts[0] += r.all().filter(|t| filtered(t)).count();
            counts[1] += r.all().filter(|t| filtered(t) && !r.is_whole(t)).count();
            counts[2] += often.len();
            counts[3] += r.title.len();
            // Without often and part keys only the title keys are left.
            let plain: Vec<(&str, u64)> = r
                .title
                .iter()
                .map(|t| (t.as_str(), term_key(t, Field::Title)))
                .collect();
            all.push((record_keys(r, filtered, &often), plain));
        }
        let total: usize = all.iter().map(|(k, _)| k.len()).sum();
        let blocks = docs.len().div_ceil(per_block);
        let mut keys = FilterKeys {
            by_block: vec![Vec::new(); blocks],
            plain: vec![Vec::new(); blocks],
            total,
            counts,
        };
        for (d, (record, plain)) in all.into_iter().enumerate() {
            for (t, k) in record {
                keys.by_block[terms[t].1].push(doc_key(k, d));
            }
            for (t, k) in plain {
                keys.plain[terms[t].1].push(doc_key(k, d));
            }
        }
        keys
    }
}

/// The facets with their values and each value's incidents, in [`FACETS`] order.
fn facets(corpus: &Corpus) -> Vec<Facet> {
    let n = corpus.incidents.len();
    FACETS
        .iter()
        .enumerate()
        .map(|(f, &FacetDef { key, ko, en, .. })| Facet {
            key: key.into(),
            ko: ko.into(),
            en: en.into(),
            values: corpus.taxonomy.facets[f]
                .iter()
                .map(|v| {
                    let mut docs = Bitset::empty(n);
                    for (d, inc) in corpus.incidents.iter().enumerate() {
                        if inc.facet(key).contains(&v.slug.as_str()) {
                            docs.insert(d);
                        }
                    }
                    FacetValue {
                        slug: v.slug.clone(),
                        ko: v.ko.clone(),
                        en: v.en.clone(),
                        synonyms: distinct_synonyms(&v.slug, &v.ko, &v.en, &v.synonyms),
                        aliases: v.aliases.clone(),
                        docs,
                    }
                })
                .collect(),
        })
        .collect()
}

/// The listing files, `listing-0000.bin`, …, of [`LISTING_CHUNK`] records each.
/// They hold only what `meta.bin` does not: title, summary and a date the sources
/// give in part.
fn listing_files(corpus: &Corpus) -> Vec<(String, Vec<u8>)> {
    let listings: Vec<Listing> = corpus
        .incidents
        .iter()
        .map(|inc| Listing {
            title: inc.title.clone(),
            summary: summary(inc),
            partial_date: (!inc.when.is_day()).then(|| incident_core::index::PartialDate {
                date: inc.when.machine(),
                label: inc.when.label(),
            }),
            ..Listing::default()
        })
        .collect();
    listings
        .chunks(LISTING_CHUNK)
        .enumerate()
        .map(|(c, lchunk)| {
            (
                format!("listing-{c:04}.bin"),
                format::encode(
                    Kind::Listing,
                    &ListingChunk {
                        first: (c * LISTING_CHUNK) as u32,
                        listings: lchunk.to_vec(),
                    },
                ),
            )
        })
        .collect()
}

/// What ranking adds to the index ([`BuiltIndex::ranking_costs`]): the lexicon,
/// the record lengths, and the filters with often and part keys minus those
/// without.
fn ranking_costs(
    meta: &Meta,
    filters: &[TermFilter],
    plain_filters: &[TermFilter],
    key_counts: &[usize; 4],
) -> Vec<(String, usize, usize)> {
    let size = |bytes: &[u8]| (bytes.len(), crate::bundle::gz(bytes));
    let (lex_raw, lex_gz) = size(&postcard::to_allocvec(&meta.lexicon).unwrap_or_default());
    let (len_raw, len_gz) = size(&meta.lengths);
    let (with_raw, with_gz) = size(&postcard::to_allocvec(filters).unwrap_or_default());
    let (without_raw, without_gz) = size(&postcard::to_allocvec(plain_filters).unwrap_or_default());
    vec![
        (format!("lexicon ({} entries)", meta.lexicon.len()), lex_raw, lex_gz),
        ("lengths".to_string(), len_raw, len_gz),
        (
            format!("often + part keys ({})", key_counts[1] + key_counts[2]),
            with_raw.saturating_sub(without_raw),
            with_gz.saturating_sub(without_gz),
        ),
    ]
}

/// A record's length as stored: term occurrences in units of
/// [`incident_core::index::LENGTH_UNIT`], at least 1 and at most 255.
pub fn length_byte(occurrences: u32) -> u8 {
    (occurrences.div_ceil(incident_core::index::LENGTH_UNIT)).clamp(1, 255) as u8
}

/// The lexicon as the index stores it: each entry's typed forms as the query
/// compares them, and each `means` word as the terms a record holds for it. A
/// `means` word that yields no term of the vocabulary is refused (`check` reports
/// it with its line first).
pub fn lexicon(
    corpus: &Corpus,
    analyzer: &Analyzer,
    position: impl Fn(&str) -> Option<u32>,
) -> Result<Vec<LexiconEntry>> {
    let mut out = Vec::new();
    for entry in &corpus.lexicon {
        let mut means = Vec::new();
        for word in &entry.means {
            let terms: Vec<Option<u32>> = means_terms(word, analyzer)?.iter().map(|t| position(t)).collect();
            if terms.is_empty() || terms.iter().any(Option::is_none) {
                return Err(Error::msg(format!(
                    "data/lexicon.toml: `{word}` (means of {:?}) is in no record\n  hint: use a word that the records contain, or remove it",
                    entry.say
                )));
            }
            let terms: Vec<u32> = terms.into_iter().flatten().collect();
            if !means.contains(&terms) {
                means.push(terms);
            }
        }
        let mut say: Vec<String> = Vec::new();
        for form in &entry.say {
            let key = incident_core::index::squash(form);
            if !say.contains(&key) {
                say.push(key);
            }
        }
        out.push(LexiconEntry { say, means });
    }
    Ok(out)
}

/// The terms a record holds for a `means` word: its analysed terms without those
/// that are inside another of them (`us-east-1`, not also `us`, `east`, `1`).
pub fn means_terms(word: &str, analyzer: &Analyzer) -> Result<Vec<String>> {
    let mut terms: Vec<String> = analyzer
        .terms(word)?
        .into_iter()
        .filter(|t| !particles::is_stopword(t))
        .collect();
    terms.dedup();
    let all = terms.clone();
    terms.retain(|t| !all.iter().any(|o| o != t && o.contains(t.as_str())));
    let mut seen = BTreeSet::new();
    terms.retain(|t| seen.insert(t.clone()));
    Ok(terms)
}

/// The synonyms that the search can tell apart from the value's other names: it
/// compares names squashed (normalised, without spaces), so `memory leak` next to
/// `Memory leak` or `memory-leak` adds nothing to the download.
fn distinct_synonyms(slug: &str, ko: &str, en: &str, synonyms: &[String]) -> Vec<String> {
    let mut seen: BTreeSet<String> = [slug, &slug.replace('-', " "), ko, en]
        .iter()
        .map(|s| incident_core::index::squash(s))
        .collect();
    synonyms
        .iter()
        .filter(|s| seen.insert(incident_core::index::squash(s)))
        .cloned()
        .collect()
}

/// When the corpus was last current, as RFC 3339: the newest record's date at
/// midnight UTC. Taken from the records, not the clock, so builds are reproducible.
pub fn corpus_date(corpus: &Corpus) -> String {
    corpus
        .incidents
        .iter()
        .map(|i| i.date)
        .max()
        .map_or_else(|| "1970-01-01T00:00:00Z".to_string(), |d| format!("{d}T00:00:00Z"))
}
