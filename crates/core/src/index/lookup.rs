//! Term lookups: whether an incident has a term, how strongly it speaks of it, and
//! where (title, only as a part), through the vocabulary, the common-term bitsets and
//! the chunk filters.

use super::{Index, Prepared, CHUNK_SIZE};
use crate::vocab::Postings;

impl Index {
    /// Document frequency of `term`, if it is in the vocabulary.
    pub fn df(&self, term: &str) -> Option<u64> {
        self.vocab.get(term).map(Postings::df)
    }

    /// Looks `term` up once for many incidents: where its incidents are and its
    /// filter keys, so that scoring every incident hashes and searches nothing.
    pub fn prepare(&self, term: &str) -> Option<Prepared> {
        use crate::hash::{term_key, Field};
        let postings = self.vocab.get(term)?;
        Some(Prepared {
            postings,
            keys: [
                term_key(term, Field::Any),
                term_key(term, Field::Often),
                term_key(term, Field::Part),
                term_key(term, Field::Title),
            ],
        })
    }

    fn probe_key(&self, doc: usize, key: u64) -> bool {
        self.filters
            .get(doc / CHUNK_SIZE)
            .is_some_and(|f| f.contains(crate::hash::doc_key(key, doc)))
    }

    /// What [`Index::has_term`], [`Index::level`], [`Index::is_part`] and
    /// [`Index::in_title`] say of a prepared term in incident `doc`: `None` when the
    /// incident lacks it, else (level, part only, in the title).
    pub fn term_in(&self, doc: usize, p: &Prepared) -> Option<(u8, bool, bool)> {
        let present = match p.postings {
            Postings::Single(d) => d as usize == doc,
            Postings::Common { id, .. } => self.meta.common.get(id as usize).is_some_and(|b| b.contains(doc)),
            Postings::Filtered(_) => self.probe_key(doc, p.keys[0]),
        };
        if !present {
            return None;
        }
        let filtered = matches!(p.postings, Postings::Filtered(_));
        let level = match p.postings {
            Postings::Single(_) => 1,
            _ => u8::from(self.probe_key(doc, p.keys[1])),
        };
        Some((
            level,
            filtered && self.probe_key(doc, p.keys[2]),
            self.probe_key(doc, p.keys[3]),
        ))
    }

    /// True when incident `doc` has `term`: exactly for common terms (their
    /// bitset), else through the incident's filter.
    pub fn has_term(&self, doc: usize, term: &str) -> bool {
        match self.vocab.get(term) {
            None => false,
            Some(Postings::Single(d)) => d as usize == doc,
            Some(Postings::Common { id, .. }) => self.meta.common.get(id as usize).is_some_and(|b| b.contains(doc)),
            Some(Postings::Filtered(_)) => self.probe(doc, term, crate::hash::Field::Any),
        }
    }

    /// How strongly incident `doc` speaks of `term`, which it has: 1 when it is one
    /// of the terms the record uses most (`incident_build::indexer::often_terms`) or the
    /// record is the only one with it, else 0.
    pub fn level(&self, doc: usize, term: &str) -> u8 {
        match self.vocab.get(term) {
            None => 0,
            Some(Postings::Single(_)) => 1,
            Some(_) => u8::from(self.probe(doc, term, crate::hash::Field::Often)),
        }
    }

    /// True when the filter of incident `doc`'s chunk holds `term` in `field` for it.
    fn probe(&self, doc: usize, term: &str, field: crate::hash::Field) -> bool {
        self.filters
            .get(doc / CHUNK_SIZE)
            .is_some_and(|f| f.contains(crate::hash::doc_key(crate::hash::term_key(term, field), doc)))
    }

    /// True when incident `doc` has `term` only as a part of longer units.
    pub fn is_part(&self, doc: usize, term: &str) -> bool {
        matches!(self.vocab.get(term), Some(Postings::Filtered(_))) && self.probe(doc, term, crate::hash::Field::Part)
    }

    /// Incident `doc`'s length relative to the mean (BM25's `dl / avgdl`).
    pub fn relative_length(&self, doc: usize) -> f32 {
        let mean = self.mean_length.max(1.0);
        self.meta.lengths.get(doc).map_or(1.0, |&l| f32::from(l) / mean)
    }

    /// True when `term` is in the title of incident `doc`.
    pub fn in_title(&self, doc: usize, term: &str) -> bool {
        self.probe(doc, term, crate::hash::Field::Title)
    }
}
