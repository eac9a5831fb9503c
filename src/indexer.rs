//! Builds the index of [`crate::index`] from a checked corpus: analyses every record
//! with lindera, keys its terms into a per-incident filter, counts document
//! frequencies into the vocabulary and sets the facet bitsets.
//!
//! The output depends only on the corpus and the dictionary: terms are sorted,
//! maps are ordered and nothing reads the clock, so the same input gives
//! byte-identical files.

use std::collections::{BTreeMap, BTreeSet};

use crate::analyze::Analyzer;
use crate::corpus::{Corpus, Incident};
use crate::error::{Error, Result};
use crate::facets::Bitset;
use crate::filter::TermFilter;
use crate::format::{self, Kind};
use crate::hash::{term_key, Field};
use crate::index::{
    ChunkRef, Facet, FacetValue, FilterChunk, Listing, ListingChunk, Meta, CHUNK_SIZE, FACETS, LISTING_CHUNK,
};
use crate::particles;
use crate::vocab::is_common;

/// Longest summary kept in the listing data, in characters.
pub const SUMMARY_CHARS: usize = 120;

/// The files of a built index, by name, plus figures for the build report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltIndex {
    /// File name (relative to the index folder) and contents, `meta.bin` first.
    pub files: Vec<(String, Vec<u8>)>,
    /// Distinct terms in the vocabulary.
    pub vocab_terms: usize,
    /// Filter keys over all incidents.
    pub filter_keys: usize,
    /// Every record's terms, by incident number (for related-incident scoring).
    pub terms: Vec<BTreeSet<String>>,
}

/// The terms of one record, by field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordTerms {
    /// Title terms.
    pub title: BTreeSet<String>,
    /// Every term of the record: body, title, tags and regions. Taxonomy labels and
    /// synonyms are not repeated here: the query reaches them through the facet
    /// bitsets.
    pub all: BTreeSet<String>,
}

/// Analyses one record into its terms.
pub fn record_terms(incident: &Incident, analyzer: &Analyzer) -> Result<RecordTerms> {
    let ctx = |e: Error| Error::msg(format!("{}: {e}", incident.path.display()));
    let keep = |t: &String| !particles::is_stopword(t);
    let mut t = RecordTerms::default();
    t.title
        .extend(analyzer.terms(&incident.title).map_err(ctx)?.into_iter().filter(keep));
    let mut texts = Vec::new();
    texts.extend(incident.sections.iter().map(|s| s.text.clone()));
    texts.extend(incident.impact.iter().cloned());
    texts.extend(incident.affected_users.iter().cloned());
    texts.extend(incident.severity.iter().cloned());
    texts.extend(incident.checks.iter().cloned());
    texts.extend(incident.tags.iter().cloned());
    texts.extend(incident.regions.iter().cloned());
    for text in &texts {
        t.all
            .extend(analyzer.terms(text).map_err(ctx)?.into_iter().filter(keep));
    }
    t.all.extend(t.title.iter().cloned());
    Ok(t)
}

/// The filter keys of a record: the terms that `filtered` says live in the filters
/// under [`Field::Any`] (neither common nor in this record alone), and all its title
/// terms under [`Field::Title`].
pub fn record_keys(terms: &RecordTerms, filtered: impl Fn(&str) -> bool) -> Vec<u64> {
    let mut keys: Vec<u64> = terms
        .all
        .iter()
        .filter(|t| filtered(t))
        .map(|t| term_key(t, Field::Any))
        .collect();
    keys.extend(terms.title.iter().map(|t| term_key(t, Field::Title)));
    keys
}

/// Builds the index files. `progress(done, total)` is called after each record.
pub fn build(corpus: &Corpus, analyzer: &Analyzer, mut progress: impl FnMut(usize, usize)) -> Result<BuiltIndex> {
    let n = corpus.incidents.len();
    let mut records = Vec::with_capacity(n);
    for (i, incident) in corpus.incidents.iter().enumerate() {
        records.push(record_terms(incident, analyzer)?);
        progress(i + 1, n);
    }
    // Every term with its incidents, in byte order (the vocabulary's order).
    let mut docs: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (d, r) in records.iter().enumerate() {
        for term in &r.all {
            docs.entry(term.clone()).or_default().push(d as u32);
        }
    }
    // Common terms get an exact bitset, numbered in vocabulary order.
    let mut common_docs: Vec<Bitset> = Vec::new();
    for list in docs.values() {
        if is_common(list.len() as u64, n) {
            let mut set = Bitset::empty(n);
            for &d in list {
                set.insert(d as usize);
            }
            common_docs.push(set);
        }
    }
    let filtered = |t: &str| {
        docs.get(t)
            .is_some_and(|l| l.len() >= 2 && !is_common(l.len() as u64, n))
    };
    let mut filters = Vec::with_capacity(n);
    let mut filter_keys = 0;
    for r in &records {
        let keys = record_keys(r, filtered);
        filter_keys += keys.len();
        filters.push(TermFilter::build(&keys));
    }
    let all_terms: Vec<BTreeSet<String>> = records.into_iter().map(|r| r.all).collect();
    let vocab = crate::vocab::encode(docs.iter().map(|(t, l)| (t.as_str(), l.as_slice())), n);

    let facets: Vec<Facet> = FACETS
        .iter()
        .enumerate()
        .map(|(f, &(key, ko, en))| Facet {
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
                        docs,
                    }
                })
                .collect(),
        })
        .collect();

    // Listing files hold only what meta.bin does not: title and summary.
    let listings: Vec<Listing> = corpus
        .incidents
        .iter()
        .map(|inc| Listing {
            title: inc.title.clone(),
            summary: summary(inc),
            ..Listing::default()
        })
        .collect();

    let mut files = Vec::new();
    let mut chunks = Vec::new();
    for (c, fchunk) in filters.chunks(CHUNK_SIZE).enumerate() {
        let name = format!("filters-{c:04}.bin");
        files.push((
            name.clone(),
            format::encode(
                Kind::Filters,
                &FilterChunk {
                    filters: fchunk.to_vec(),
                },
            ),
        ));
        chunks.push(ChunkRef {
            filters: name,
            len: fchunk.len() as u32,
        });
    }
    for (c, lchunk) in listings.chunks(LISTING_CHUNK).enumerate() {
        files.push((
            format!("listing-{c:04}.bin"),
            format::encode(
                Kind::Listing,
                &ListingChunk {
                    first: (c * LISTING_CHUNK) as u32,
                    listings: lchunk.to_vec(),
                },
            ),
        ));
    }
    let meta = Meta {
        corpus_date: corpus_date(corpus),
        facets,
        vocab,
        ids: corpus.incidents.iter().map(|i| i.id.clone()).collect(),
        days: corpus.incidents.iter().map(|i| i.date.days_since_epoch()).collect(),
        common: common_docs,
        chunks,
        listing_chunk: LISTING_CHUNK as u32,
    };
    files.insert(0, ("meta.bin".to_string(), format::encode(Kind::Meta, &meta)));
    Ok(BuiltIndex {
        files,
        vocab_terms: docs.len(),
        filter_keys,
        terms: all_terms,
    })
}

/// The synonyms that the search can tell apart from the value's other names: it
/// compares names squashed (normalised, without spaces), so `memory leak` next to
/// `Memory leak` or `memory-leak` adds nothing to the download.
fn distinct_synonyms(slug: &str, ko: &str, en: &str, synonyms: &[String]) -> Vec<String> {
    let mut seen: BTreeSet<String> = [slug, &slug.replace('-', " "), ko, en]
        .iter()
        .map(|s| crate::index::squash(s))
        .collect();
    synonyms
        .iter()
        .filter(|s| seen.insert(crate::index::squash(s)))
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

/// The listing summary: the start of the 요약 section, cut at a word boundary.
pub fn summary(incident: &Incident) -> String {
    let text = incident
        .section("요약")
        .map(|s| s.text.replace('\n', " "))
        .unwrap_or_default();
    if text.chars().count() <= SUMMARY_CHARS {
        return text;
    }
    let cut: String = text.chars().take(SUMMARY_CHARS).collect();
    let at = cut.rfind(' ').filter(|&i| i > cut.len() / 2).unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end_matches([',', '.', ' ']))
}
