//! A fixed-size set of incident numbers, the unit of facet filtering and of the
//! exact postings of very common terms.

use serde::{Deserialize, Serialize};

/// A fixed-size set of incident numbers. Stored as `ceil(n / 8)` bytes, bit `i % 8`
/// of byte `i / 8` for incident `i` (a postcard `u64` would take up to ten bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(from = "Vec<u8>", into = "Vec<u8>")]
pub struct Bitset {
    words: Vec<u64>,
    /// Bytes the set is stored in: `ceil(n / 8)`.
    bytes: usize,
}

impl From<Vec<u8>> for Bitset {
    fn from(bytes: Vec<u8>) -> Bitset {
        let words = bytes
            .chunks(8)
            .map(|c| c.iter().rev().fold(0u64, |w, &b| (w << 8) | b as u64))
            .collect();
        Bitset {
            words,
            bytes: bytes.len(),
        }
    }
}

impl From<Bitset> for Vec<u8> {
    fn from(set: Bitset) -> Vec<u8> {
        set.words.iter().flat_map(|w| w.to_le_bytes()).take(set.bytes).collect()
    }
}

impl Bitset {
    /// An empty set for `n` incidents.
    pub fn empty(n: usize) -> Bitset {
        Bitset {
            words: vec![0; n.div_ceil(64)],
            bytes: n.div_ceil(8),
        }
    }

    /// The set of all `n` incidents.
    pub fn full(n: usize) -> Bitset {
        let mut b = Bitset::empty(n);
        for i in 0..n {
            b.insert(i);
        }
        b
    }

    /// Removes every incident.
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// Adds incident `i`.
    pub fn insert(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    /// True when incident `i` is in the set.
    pub fn contains(&self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Intersects in place.
    pub fn and_with(&mut self, other: &Bitset) {
        for (a, b) in self
            .words
            .iter_mut()
            .zip(other.words.iter().chain(std::iter::repeat(&0)))
        {
            *a &= b;
        }
    }

    /// Unites in place.
    pub fn or_with(&mut self, other: &Bitset) {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
            self.bytes = other.bytes;
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// Number of incidents in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// True when every incident in the set is below `n`: a look at the words past
    /// `n`, not a walk over the members (the loader checks every facet value's set,
    /// thousands of members each in a large library).
    pub fn below(&self, n: usize) -> bool {
        let whole = n / 64;
        let partial = self.words.get(whole).map_or(0, |&w| w >> (n % 64));
        partial == 0 && self.words.iter().skip(whole + 1).all(|&w| w == 0)
    }

    /// Number of incidents in both sets.
    pub fn intersection_len(&self, other: &Bitset) -> usize {
        self.words
            .iter()
            .zip(&other.words)
            .map(|(a, b)| (a & b).count_ones() as usize)
            .sum()
    }

    /// The incident numbers in the set, ascending.
    pub fn iter(&self) -> Ones<'_> {
        Ones {
            words: &self.words,
            next: 0,
            word: 0,
            base: 0,
        }
    }
}

/// The incident numbers of a [`Bitset`], ascending: one step a set bit, not one a
/// bit. One plain loop rather than adapters over the words, since the browser
/// module is built for size and does not inline adapters (this is the search's
/// innermost loop).
pub struct Ones<'a> {
    words: &'a [u64],
    /// The next word to read.
    next: usize,
    /// What is left of the word being read.
    word: u64,
    /// The incident number of its lowest bit.
    base: usize,
}

impl Iterator for Ones<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            let &w = self.words.get(self.next)?;
            self.word = w;
            self.base = self.next * 64;
            self.next += 1;
        }
        let bit = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(self.base + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_agrees_with_the_members() {
        for size in [0, 1, 63, 64, 65, 130, 200] {
            for member in [
                None,
                Some(0),
                Some(62),
                Some(63),
                Some(64),
                Some(127),
                Some(129),
                Some(199),
            ] {
                let mut set = Bitset::empty(size);
                if let Some(m) = member.filter(|&m| m < size) {
                    set.insert(m);
                }
                for n in [0, 1, 63, 64, 65, 128, 129, 130, 200, 300] {
                    assert_eq!(
                        set.below(n),
                        set.iter().all(|d| d < n),
                        "size {size}, member {member:?}, n {n}"
                    );
                }
            }
        }
    }
}
