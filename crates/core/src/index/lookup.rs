//! Term lookups: whether an incident has a term (exactly: the vocabulary, a bitset
//! or an incident list), how strongly it speaks of it, and where (title, only as a
//! part: the filter), through the vocabulary block that spells it.
//!
//! A lookup that needs a block or a bucket that is not loaded notes the file
//! ([`Index::take_missing`]) and answers as if the term were absent; the search
//! then reports the file missing and its answer is not used.

use super::{Index, KeyedTerm, Part, Prepared};
use crate::bitset::Bitset;
use crate::hash::{doc_key, term_key, Field};
use crate::vocab::{Directory, Postings, Vocab};

impl Index {
    /// The loaded vocabulary block that would hold `term`; `None` when the term sorts
    /// before every term or its block is not loaded (then noted missing).
    fn block_for(&self, term: &str) -> Option<&Vocab> {
        let b = self.meta.vocab.block_of(term)?;
        let block = self.data.blocks.get(b)?.as_ref();
        if block.is_none() {
            self.need(Directory::file(b));
        }
        block
    }

    /// Where the incidents of `term` are, if it is in the vocabulary.
    pub fn postings(&self, term: &str) -> Option<Postings> {
        self.block_for(term)?.get(term)
    }

    /// Document frequency of `term`, if it is in the vocabulary.
    pub fn df(&self, term: &str) -> Option<u64> {
        self.postings(term).map(Postings::df)
    }

    /// The term at vocabulary position `position`, when its block is loaded (else
    /// noted missing).
    pub fn term_at(&self, position: u32) -> Option<&str> {
        let b = self.meta.vocab.block_at(position as usize);
        match self.data.blocks.get(b)? {
            Some(block) => {
                let i = (position - block.base()) as usize;
                (i < block.len()).then(|| block.term(i))
            }
            None => {
                self.need(Directory::file(b));
                None
            }
        }
    }

    /// Vocabulary terms in `[lo, hi)` (byte order) with their postings. Empty, with
    /// the blocks noted missing, until every block the range touches is loaded.
    pub fn vocab_range(&self, lo: &str, hi: &str) -> Vec<(&str, Postings)> {
        self.loaded_vocab_range(lo, hi).unwrap_or_default()
    }

    /// Vocabulary terms in `[lo, hi)` (byte order) with their postings, or `None`,
    /// with the blocks noted missing, until every block the range touches is
    /// loaded: unlike [`Index::vocab_range`], an empty range is told apart from one
    /// not loaded yet.
    pub fn loaded_vocab_range(&self, lo: &str, hi: &str) -> Option<Vec<(&str, Postings)>> {
        let blocks = self.vocab_range_blocks(lo, hi);
        if !self.has_blocks(blocks.clone()) {
            return None;
        }
        Some(
            blocks
                .filter_map(|b| self.data.blocks[b].as_ref())
                .flat_map(|block| block.range(lo, hi))
                .collect(),
        )
    }

    /// The vocabulary blocks that hold the terms of `[lo, hi)`, loaded or not.
    pub fn vocab_range_blocks(&self, lo: &str, hi: &str) -> std::ops::Range<usize> {
        let dir = &self.meta.vocab;
        if dir.blocks() == 0 || lo.as_bytes() >= hi.as_bytes() {
            return 0..0;
        }
        let first = dir.block_of(lo).unwrap_or(0);
        dir.block_of(hi).map_or(0..0, |last| first..last + 1)
    }

    /// Every vocabulary term with its postings, in order. Empty, with the blocks
    /// noted missing, until every block is loaded.
    pub fn vocab_terms(&self) -> impl Iterator<Item = (&str, Postings)> + '_ {
        let blocks: &[Option<Vocab>] = if self.has_whole_vocabulary() {
            &self.data.blocks
        } else {
            &[]
        };
        blocks.iter().flatten().flat_map(|block| block.iter())
    }

    /// The terms filed under any of `keys` in the near-term buckets
    /// ([`crate::near`]), with their document frequencies, sorted and distinct.
    /// Empty, with the buckets noted missing, until every bucket they need is loaded.
    pub fn near_terms(&self, keys: &[String]) -> Vec<&KeyedTerm> {
        let count = self.meta.near_buckets;
        let mut wanted: Vec<usize> = Vec::with_capacity(keys.len());
        for b in keys.iter().map(|k| crate::near::bucket_of(k, count)) {
            if !wanted.contains(&b) {
                wanted.push(b);
            }
        }
        let mut whole = true;
        for &b in &wanted {
            if matches!(self.data.near.get(b), Some(None)) {
                self.need(crate::near::file(b));
                whole = false;
            }
        }
        if !whole {
            return Vec::new();
        }
        // Each bucket's terms are sorted and two buckets may share a term: merged
        // one bucket at a time, which at a large library is far cheaper than
        // sorting thousands of terms.
        let mut out: Vec<&KeyedTerm> = Vec::new();
        for bucket in wanted.iter().filter_map(|&b| self.data.near.get(b)?.as_ref()) {
            out = merge_terms(&out, bucket);
        }
        out
    }

    /// The incidents and keys of the block that would hold `term`; `None` when the
    /// term sorts before every term or its block is not loaded (then noted missing).
    fn part_for(&self, term: &str) -> Option<&Part> {
        let b = self.meta.vocab.block_of(term)?;
        let part = self.data.parts.get(b)?.as_ref();
        if part.is_none() {
            self.need(Directory::file(b));
        }
        part
    }

    /// Looks `term` up once for many incidents: where its incidents are, its block
    /// and its filter keys, so that scoring every incident hashes and searches
    /// nothing.
    pub fn prepare(&self, term: &str) -> Option<Prepared> {
        let postings = self.postings(term)?;
        // Its postings were read from its block, so the block's part is loaded too.
        let part = self.meta.vocab.block_of(term)?;
        let loaded = self.data.parts.get(part)?.as_ref();
        let listed = match postings {
            Postings::Listed { id, .. } => loaded.and_then(|p| p.listed(id, self.len())),
            _ => None,
        };
        Some(Prepared {
            postings,
            part,
            listed,
            keys: [
                term_key(term, Field::Any),
                term_key(term, Field::Often),
                term_key(term, Field::Part),
                term_key(term, Field::Title),
            ],
        })
    }

    /// Adds the incidents that have a prepared term to `into`.
    pub fn add_incidents(&self, p: &Prepared, into: &mut crate::bitset::Bitset) {
        match p.postings {
            Postings::Single(d) => into.insert(d as usize),
            Postings::Common { id, .. } => {
                if let Some(set) = self
                    .data
                    .parts
                    .get(p.part)
                    .and_then(Option::as_ref)
                    .and_then(|part| part.common(id))
                {
                    into.or_with(set);
                }
            }
            Postings::Listed { .. } => {
                if let Some(set) = &p.listed {
                    into.or_with(set);
                }
            }
        }
    }

    /// What [`Index::has_term`], [`Index::level`], [`Index::is_part`] and
    /// [`Index::in_title`] say of a prepared term in incident `doc`: `None` when the
    /// incident lacks it, else (level, part only, in
    /// the title).
    pub fn term_in(&self, doc: usize, p: &Prepared) -> Option<(u8, bool, bool)> {
        let part = self.data.parts.get(p.part)?.as_ref()?;
        let probe = |key: u64| part.filter.contains(doc_key(key, doc));
        let present = match p.postings {
            Postings::Single(d) => d as usize == doc,
            Postings::Common { id, .. } => part.common(id).is_some_and(|b| b.contains(doc)),
            Postings::Listed { .. } => p.listed.as_ref().is_some_and(|b| b.contains(doc)),
        };
        if !present {
            return None;
        }
        let listed = matches!(p.postings, Postings::Listed { .. });
        let level = match p.postings {
            Postings::Single(_) => 1,
            _ => u8::from(probe(p.keys[1])),
        };
        Some((level, listed && probe(p.keys[2]), probe(p.keys[3])))
    }

    /// True when incident `doc` has `term`: exactly, through the term's bitset or
    /// incident list.
    pub fn has_term(&self, doc: usize, term: &str) -> bool {
        match self.postings(term) {
            None => false,
            Some(Postings::Single(d)) => d as usize == doc,
            Some(Postings::Common { id, .. }) => self
                .part_for(term)
                .and_then(|p| p.common(id))
                .is_some_and(|b| b.contains(doc)),
            Some(Postings::Listed { id, .. }) => self
                .part_for(term)
                .and_then(|p| p.listed(id, self.len()))
                .is_some_and(|b| b.contains(doc)),
        }
    }

    /// How strongly incident `doc` speaks of `term`, which it has: 1 when it is one
    /// of the terms the record uses most (`incident_build::indexer::often_terms`) or the
    /// record is the only one with it, else 0.
    pub fn level(&self, doc: usize, term: &str) -> u8 {
        match self.postings(term) {
            None => 0,
            Some(Postings::Single(_)) => 1,
            Some(_) => u8::from(self.probe(doc, term, Field::Often)),
        }
    }

    /// True when the filter of `term`'s block holds `term` in `field` for incident
    /// `doc`.
    fn probe(&self, doc: usize, term: &str, field: Field) -> bool {
        self.part_for(term)
            .is_some_and(|p| p.filter.contains(doc_key(term_key(term, field), doc)))
    }

    /// True when incident `doc` has `term` only as a part of longer units.
    pub fn is_part(&self, doc: usize, term: &str) -> bool {
        matches!(self.postings(term), Some(Postings::Listed { .. })) && self.probe(doc, term, Field::Part)
    }

    /// Incident `doc`'s length relative to the mean (BM25's `dl / avgdl`).
    pub fn relative_length(&self, doc: usize) -> f32 {
        let mean = self.mean_length.max(1.0);
        self.meta.lengths.get(doc).map_or(1.0, |&l| f32::from(l) / mean)
    }

    /// True when `term` is in the title of incident `doc`.
    pub fn in_title(&self, doc: usize, term: &str) -> bool {
        self.probe(doc, term, Field::Title)
    }
}

/// The terms of `a` and `b`, both sorted and distinct, in one sorted and distinct
/// list.
fn merge_terms<'a>(a: &[&'a KeyedTerm], b: &'a [KeyedTerm]) -> Vec<&'a KeyedTerm> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].term.cmp(&b[j].term) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(&b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend(&b[j..]);
    out
}

impl Part {
    /// The bitset of the common term at vocabulary position `id`.
    pub fn common(&self, id: u32) -> Option<&Bitset> {
        self.common
            .binary_search_by_key(&id, |(p, _)| *p)
            .ok()
            .map(|i| &self.common[i].1)
    }

    /// The incidents of the listed term at vocabulary position `id`, as a set of
    /// `n` incidents.
    pub fn listed(&self, id: u32, n: usize) -> Option<Bitset> {
        let i = self.lists.binary_search_by_key(&id, |(p, _)| *p).ok()?;
        let mut set = Bitset::empty(n);
        // Checked when the part was added, so this cannot fail.
        crate::vocab::decode_list(&self.lists[i].1, n, |d| set.insert(d)).ok()?;
        Some(set)
    }
}
