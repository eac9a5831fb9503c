//! The index's numbered files as the writer makes them: the vocabulary cut into
//! blocks, each with the incidents and keys of its terms.

use super::VocabBlock;
use crate::bitset::Bitset;
use crate::membership::TermFilter;
use crate::vocab::{is_common, Directory};

/// Cuts a vocabulary (terms sorted by bytes, distinct, each with its incidents) of
/// an index of `n` incidents into blocks of [`crate::vocab::block_terms`] terms: the
/// directory for `meta.bin` and the blocks, in order. `filter(b)` is block `b`'s
/// filter over its terms' keys in every incident (see
/// [`crate::vocab::block_terms`] for which terms a block holds).
pub fn vocab_blocks(
    terms: &[(&str, &[u32])],
    n: usize,
    mut filter: impl FnMut(usize) -> TermFilter,
) -> (Directory, Vec<VocabBlock>) {
    let per_block = crate::vocab::block_terms(terms.len());
    let dir = Directory::of(terms.iter().map(|(t, _)| *t), per_block);
    let blocks = terms
        .chunks(per_block)
        .enumerate()
        .map(|(b, chunk)| {
            let first = b * per_block;
            let mut common = Vec::new();
            let mut lists = Vec::new();
            for (position, (_, docs)) in (first as u32..).zip(chunk) {
                if is_common(docs.len() as u64, n) {
                    let mut set = Bitset::empty(n);
                    for &d in *docs {
                        set.insert(d as usize);
                    }
                    common.push((position, set));
                } else if docs.len() >= 2 {
                    lists.push((position, crate::vocab::encode_list(docs)));
                }
            }
            VocabBlock {
                first: first as u32,
                terms: crate::vocab::encode(chunk.iter().copied(), n),
                filter: filter(b),
                common,
                lists,
            }
        })
        .collect();
    (dir, blocks)
}
