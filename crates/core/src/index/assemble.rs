//! The steps of [`super::Index::from_parts`] and [`super::Index::add_file`]:
//! checking that a decoded meta, its vocabulary blocks and near-term buckets agree,
//! and deriving what the search reads from them (listings, taxonomy names, the
//! lexicon's lookup table).

use super::{date_of, squash, Listing, LoadError, Loaded, Meta, Part, TaxonomyName, VocabBlock, FACETS};
use crate::format::FormatError;
use crate::vocab::{Postings, Vocab};

/// An error in `meta.bin`.
fn bad_meta(message: &str) -> LoadError {
    LoadError {
        file: "meta.bin".into(),
        error: FormatError::Decode(message.into()),
    }
}

/// Checks that the meta's per-incident lists count the same incidents, that its
/// vocabulary directory and bucket count match the loaded data, and that its facets
/// and listing chunk size are usable.
pub(super) fn check_shape(meta: &Meta, data: &Loaded) -> Result<(), LoadError> {
    let n = meta.ids.len();
    if meta.days.len() != n || meta.lengths.len() != n {
        return Err(bad_meta("incident counts of the meta's lists differ"));
    }
    meta.vocab.check().map_err(|error| LoadError {
        file: "meta.bin".into(),
        error,
    })?;
    if data.parts.len() != meta.vocab.blocks()
        || data.blocks.len() != meta.vocab.blocks()
        || data.near.len() != meta.near_buckets as usize
    {
        return Err(bad_meta(
            "the vocabulary blocks or near-term buckets differ from the meta",
        ));
    }
    if meta.facets.len() != FACETS.len() {
        return Err(bad_meta("unexpected number of facets"));
    }
    if meta.facets.iter().flat_map(|f| &f.values).any(|v| !v.docs.below(n)) {
        return Err(bad_meta("a facet value names an incident past the end"));
    }
    if meta.listing_chunk == 0 {
        return Err(bad_meta("listing chunk size is zero"));
    }
    Ok(())
}

fn decode_error(message: &str) -> FormatError {
    FormatError::Decode(format!("{message}; rebuild the index"))
}

/// Decodes vocabulary block `b` and checks it against the meta's directory: its
/// position, its length, its first term, that its terms sort before the next
/// block's, and that its bitsets and lists are of its own terms; rebuilds its
/// filter's lookup.
pub(super) fn check_block(meta: &Meta, b: usize, block: VocabBlock) -> Result<(Vocab, Part), FormatError> {
    let dir = &meta.vocab;
    let first = b * dir.per_block as usize;
    if block.first as usize != first {
        return Err(decode_error(&format!(
            "holds the vocabulary from term {}, not {first}",
            block.first
        )));
    }
    let vocab = Vocab::decode(&block.terms, meta.ids.len(), block.first)?;
    let next = dir.separators.get(b + 1);
    if vocab.len() != dir.block_len(b)
        || vocab.is_empty()
        || !dir.starts_block(b, vocab.term(0))
        || next.is_some_and(|n| vocab.term(vocab.len() - 1).as_bytes() >= n.as_bytes())
    {
        return Err(decode_error("vocabulary block differs from meta.bin's directory"));
    }
    // Exactly one bitset for each common term and one list for each other term in
    // two or more incidents, in the block's order, each of as many incidents as
    // the term's frequency says, none past the last: a lookup then finds what the
    // vocabulary promises, and no incident number it yields is out of range.
    let n = meta.ids.len();
    let (mut common, mut listed) = (Vec::new(), Vec::new());
    for (_, postings) in vocab.iter() {
        match postings {
            Postings::Common { id, df } => common.push((id, df)),
            Postings::Listed { id, df } => listed.push((id, df)),
            Postings::Single(_) => {}
        }
    }
    if common.len() != block.common.len()
        || common
            .iter()
            .zip(&block.common)
            .any(|(&(id, df), (at, set))| id != *at || set.len() != df as usize || set.iter().any(|d| d >= n))
    {
        return Err(decode_error("the common-term bitsets differ from the block's terms"));
    }
    if listed.len() != block.lists.len() || listed.iter().zip(&block.lists).any(|(&(id, _), (at, _))| id != *at) {
        return Err(decode_error("the incident lists differ from the block's terms"));
    }
    for (&(_, df), (_, list)) in listed.iter().zip(&block.lists) {
        let mut count = 0usize;
        crate::vocab::decode_list(list, n, |_| count += 1)?;
        if count != df as usize {
            return Err(decode_error("an incident list differs from its term's frequency"));
        }
    }
    let filter = block.filter.to_lookup().map_err(FormatError::Decode)?;
    let part = Part {
        filter,
        common: block.common,
        lists: block.lists,
    };
    Ok((vocab, part))
}

/// Checks near-term bucket `b` against the meta: its number, its terms in order
/// with a frequency each.
pub(super) fn check_near(
    meta: &Meta,
    b: usize,
    bucket: crate::near::NearBucket,
) -> Result<Vec<super::KeyedTerm>, FormatError> {
    if bucket.bucket as usize != b {
        return Err(decode_error(&format!(
            "holds near-term bucket {}, not {b}",
            bucket.bucket
        )));
    }
    let n = meta.ids.len() as u32;
    if bucket.terms.len() != bucket.dfs.len()
        || bucket.terms.windows(2).any(|w| w[0] >= w[1])
        || bucket.dfs.iter().any(|&df| df == 0 || df > n)
    {
        return Err(decode_error(
            "near-term bucket is out of order or its frequencies are out of range",
        ));
    }
    // Keyed once as the bucket arrives: every typo and 초성 lookup compares keys.
    Ok(bucket
        .terms
        .into_iter()
        .zip(bucket.dfs)
        .map(|(t, df)| super::KeyedTerm::of(&t, u64::from(df)))
        .collect())
}

/// The listing of incident `doc` with what its listing file holds (`file`: title,
/// summary, a partial date): its id, day, organisation and facet values are the
/// meta's.
pub(super) fn listing(meta: &Meta, doc: usize, file: Listing) -> Listing {
    let Listing {
        title,
        summary,
        partial_date,
        ..
    } = file;
    let (date, date_label) = match &partial_date {
        Some(p) => (p.date.clone(), p.label.clone()),
        // A plain day reads the same for machines and people.
        None => {
            let day = date_of(meta.days[doc]);
            (day.clone(), day)
        }
    };
    let facets: Vec<Vec<u16>> = meta
        .facets
        .iter()
        .map(|f| {
            (0..f.values.len())
                .filter(|&v| f.values[v].docs.contains(doc))
                .map(|v| v as u16)
                .collect()
        })
        .collect();
    let org = &meta.facets[FACETS.len() - 1];
    Listing {
        id: meta.ids[doc].clone(),
        title,
        org: facets[FACETS.len() - 1]
            .first()
            .map(|&v| org.values[v as usize].slug.clone())
            .unwrap_or_default(),
        date,
        date_label,
        facets,
        summary,
        partial_date,
    }
}

/// Every label (Korean, English, slug) and synonym of every facet value, normalised.
pub(super) fn taxonomy_names(meta: &Meta) -> Vec<TaxonomyName> {
    let mut names = Vec::new();
    for (f, facet) in meta.facets.iter().enumerate() {
        for (v, value) in facet.values.iter().enumerate() {
            for name in [&value.ko, &value.en, &value.slug].into_iter().chain(&value.synonyms) {
                let squashed = squash(name);
                let mut chars = squashed.chars();
                let head = (chars.next().unwrap_or('\0'), chars.next().unwrap_or('\0'));
                names.push(TaxonomyName {
                    f,
                    v,
                    name: name.clone(),
                    chars: squashed.chars().count(),
                    head,
                    squashed,
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

/// Refuses a lexicon entry that names a position past the vocabulary.
pub(super) fn check_lexicon(meta: &Meta) -> Result<(), LoadError> {
    if meta
        .lexicon
        .iter()
        .flat_map(|entry| entry.means.iter().flatten())
        .any(|&t| t >= meta.vocab.terms)
    {
        return Err(bad_meta("a lexicon entry names a term that is not in the vocabulary"));
    }
    Ok(())
}

/// The lexicon's lookup table: every typed form's keys with the entry they belong
/// to, sorted.
pub(super) fn lexicon_keys(meta: &Meta) -> Vec<(String, u32)> {
    let mut lexicon_keys: Vec<(String, u32)> = Vec::new();
    for (e, entry) in meta.lexicon.iter().enumerate() {
        for form in &entry.say {
            for key in crate::query::lexicon_keys(form) {
                lexicon_keys.push((key, e as u32));
            }
        }
    }
    crate::stable_sort::sort_by(&mut lexicon_keys, |a, b| a.cmp(b));
    lexicon_keys.dedup();
    lexicon_keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitset::Bitset;
    use crate::membership::TermFilter;

    /// A meta of `n` incidents and its blocks, for terms with these incidents.
    fn index(terms: &[(&str, &[u32])], n: usize) -> (Meta, Vec<VocabBlock>) {
        let (vocab, blocks) = crate::index::vocab_blocks(terms, n, |_| TermFilter::build(&[]));
        let meta = Meta {
            corpus_date: String::new(),
            facets: Vec::new(),
            vocab,
            near_buckets: 0,
            near_band: 0,
            ids: (0..n).map(|d| format!("IL-{d:04}")).collect(),
            days: vec![0; n],
            lengths: vec![1; n],
            lexicon: Vec::new(),
            listing_chunk: 1,
        };
        (meta, blocks)
    }

    #[test]
    fn a_block_whose_incidents_disagree_with_its_terms_is_refused() {
        let common: Vec<u32> = (0..20).collect();
        let terms: [(&str, &[u32]); 3] = [("가", &[3]), ("나", &[1, 4]), ("다", &common)];
        let (meta, blocks) = index(&terms, 24);
        assert!(check_block(&meta, 0, blocks[0].clone()).is_ok());
        let refused = |change: &dyn Fn(&mut VocabBlock)| {
            let mut block = blocks[0].clone();
            change(&mut block);
            check_block(&meta, 0, block).expect_err("a block that disagrees with its terms")
        };
        // A bitset that names an incident past the last: a search would index past
        // its tables.
        refused(&|b| {
            let mut set = Bitset::empty(64);
            for d in (0..19).chain([40]) {
                set.insert(d);
            }
            b.common[0].1 = set;
        });
        // A bitset of another size than the term's frequency.
        refused(&|b| b.common[0].1 = Bitset::empty(24));
        // A common term without its bitset, a listed term without its list.
        refused(&|b| b.common.clear());
        refused(&|b| b.lists.clear());
        // A list of another length than the term's frequency.
        refused(&|b| b.lists[0].1 = crate::vocab::encode_list(&[1, 4, 7]));
        // A list of another term.
        refused(&|b| b.lists[0].0 += 1);
    }
}
