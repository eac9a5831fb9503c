//! The index's numbered files as the writer makes them: the vocabulary cut into
//! blocks, and the names of the term parts.

use super::VocabBlock;
use crate::vocab::Directory;

/// Cuts a vocabulary (terms sorted by bytes, distinct, each with its incidents) of
/// an index of `n` incidents into blocks of [`crate::vocab::block_terms`] terms: the
/// directory for `meta.bin` and the blocks, in order.
pub fn vocab_blocks(terms: &[(&str, &[u32])], n: usize) -> (Directory, Vec<VocabBlock>) {
    let per_block = crate::vocab::block_terms(terms.len());
    let dir = Directory::of(terms.iter().map(|(t, _)| *t), per_block);
    let blocks = terms
        .chunks(per_block)
        .enumerate()
        .map(|(b, chunk)| VocabBlock {
            first: (b * per_block) as u32,
            terms: crate::vocab::encode(chunk.iter().copied(), n),
        })
        .collect();
    (dir, blocks)
}

/// The file name of term part `p`.
pub fn part_file(p: usize) -> String {
    format!("terms-{p:04}.bin")
}
