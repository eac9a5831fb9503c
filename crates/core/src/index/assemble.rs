//! The steps of [`super::Index::from_parts`]: checking that a decoded meta and its filters
//! agree, and deriving what the search reads from them (listings, taxonomy names,
//! the lexicon's lookup tables).

use super::{date_of, squash, Listing, LoadError, Meta, TaxonomyName, CHUNK_SIZE, FACETS};
use crate::format::FormatError;
use crate::membership::Lookup;
use crate::vocab::Vocab;

/// The lexicon as the query looks it up: every typed form's keys with the entry
/// they belong to, sorted; and each entry's meanings as terms.
type LexiconTables = (Vec<(String, u32)>, Vec<Vec<Vec<String>>>);

/// An error in `meta.bin`.
fn bad_meta(message: &str) -> LoadError {
    LoadError {
        file: "meta.bin".into(),
        error: FormatError::Decode(message.into()),
    }
}

/// Checks that the meta's per-incident lists, its chunks and `filters` count the
/// same incidents, and that its facets and listing chunk size are usable.
pub(super) fn check_shape(meta: &Meta, filters: &[Lookup]) -> Result<(), LoadError> {
    let n = meta.ids.len();
    let chunked = meta.chunks.iter().map(|c| c.len as usize).sum::<usize>() == n
        && meta.chunks.iter().rev().skip(1).all(|c| c.len as usize == CHUNK_SIZE)
        && meta.chunks.iter().all(|c| c.len > 0);
    if meta.days.len() != n
        || meta.lengths.len() != n
        || !chunked
        || filters.len() != meta.chunks.len()
        || meta.common.iter().any(|b| b.len() > n)
        || meta.partial_dates.iter().any(|p| p.doc as usize >= n)
    {
        return Err(bad_meta("incident counts of meta and filters differ"));
    }
    if meta.facets.len() != FACETS.len() {
        return Err(bad_meta("unexpected number of facets"));
    }
    if meta.listing_chunk == 0 {
        return Err(bad_meta("listing chunk size is zero"));
    }
    Ok(())
}

/// Decodes the vocabulary and checks it against the meta's common-term bitsets.
pub(super) fn decode_vocab(meta: &Meta) -> Result<Vocab, LoadError> {
    let vocab = Vocab::decode(&meta.vocab, meta.ids.len()).map_err(|error| LoadError {
        file: "meta.bin".into(),
        error,
    })?;
    if vocab.common_count() != meta.common.len() {
        return Err(bad_meta("common-term bitsets differ from the vocabulary"));
    }
    Ok(vocab)
}

/// Every incident's listing as far as the meta tells it: id, date, organisation and
/// facet values; title and summary stay empty until a listing file adds them.
pub(super) fn listings(meta: &Meta) -> Vec<Listing> {
    let org = &meta.facets[FACETS.len() - 1];
    let partial: std::collections::HashMap<u32, &crate::index::PartialDate> =
        meta.partial_dates.iter().map(|p| (p.doc, p)).collect();
    (0..meta.ids.len())
        .map(|d| {
            // A plain day reads the same for machines and people.
            let (written, label) = match partial.get(&(d as u32)) {
                Some(p) => (p.date.clone(), p.label.clone()),
                None => {
                    let day = date_of(meta.days[d]);
                    (day.clone(), day)
                }
            };
            let facets: Vec<Vec<u16>> = meta
                .facets
                .iter()
                .map(|f| {
                    (0..f.values.len())
                        .filter(|&v| f.values[v].docs.contains(d))
                        .map(|v| v as u16)
                        .collect()
                })
                .collect();
            Listing {
                id: meta.ids[d].clone(),
                title: String::new(),
                org: facets[FACETS.len() - 1]
                    .first()
                    .map(|&v| org.values[v as usize].slug.clone())
                    .unwrap_or_default(),
                date: written,
                date_label: label,
                facets,
                summary: String::new(),
            }
        })
        .collect()
}

/// Every label (Korean, English, slug) and synonym of every facet value, normalised.
pub(super) fn taxonomy_names(meta: &Meta) -> Vec<TaxonomyName> {
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
    names
}

/// The mean of the incidents' lengths (in [`super::LENGTH_UNIT`]s).
pub(super) fn mean_length(meta: &Meta) -> f32 {
    meta.lengths.iter().map(|&l| f32::from(l)).sum::<f32>() / meta.ids.len().max(1) as f32
}

/// The lexicon's lookup tables, refusing an entry that names a term the vocabulary
/// does not have.
pub(super) fn lexicon_tables(meta: &Meta, vocab: &Vocab) -> Result<LexiconTables, LoadError> {
    let mut lexicon_keys: Vec<(String, u32)> = Vec::new();
    let mut lexicon_means = Vec::with_capacity(meta.lexicon.len());
    for (e, entry) in meta.lexicon.iter().enumerate() {
        if entry.means.iter().flatten().any(|&t| t as usize >= vocab.len()) {
            return Err(bad_meta("a lexicon entry names a term that is not in the vocabulary"));
        }
        let mut means = Vec::with_capacity(entry.means.len());
        for terms in &entry.means {
            let mut words = Vec::with_capacity(terms.len());
            for &t in terms {
                words.push(vocab.term(t as usize).to_string());
            }
            means.push(words);
        }
        lexicon_means.push(means);
        for form in &entry.say {
            for key in crate::query::lexicon_keys(form) {
                lexicon_keys.push((key, e as u32));
            }
        }
    }
    crate::sort::sort_by(&mut lexicon_keys, |a, b| a.cmp(b));
    lexicon_keys.dedup();
    Ok((lexicon_keys, lexicon_means))
}
