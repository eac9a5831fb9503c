//! Facet bitsets and disjunctive facet counting.
//!
//! Each facet value owns a bitset over incident numbers. A selection is OR within a
//! facet and AND across facets; the count shown next to a value ignores its own
//! facet's selection, so that choosing a second value of the same facet shows how
//! many incidents it would add.

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

    /// Number of incidents in both sets.
    pub fn intersection_len(&self, other: &Bitset) -> usize {
        self.words
            .iter()
            .zip(&other.words)
            .map(|(a, b)| (a & b).count_ones() as usize)
            .sum()
    }

    /// The incident numbers in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(wi, &w)| (0..64).filter(move |b| w & (1 << b) != 0).map(move |b| wi * 64 + b))
    }
}

/// The selection of one facet: which of its values are chosen (by position).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Chosen value positions per facet, in facet order.
    pub chosen: Vec<Vec<usize>>,
}

/// Counts per facet value, and the set of incidents that pass every facet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    /// Incidents among the candidates that pass every facet's selection.
    pub matching: Bitset,
    /// `counts[f][v]`: incidents that would match if facet `f`'s own selection were
    /// ignored and value `v` were its only choice.
    pub counts: Vec<Vec<usize>>,
}

/// Applies `selection` to `candidates` and counts disjunctively. `facets[f][v]` is
/// the bitset of value `v` of facet `f`.
pub fn count(facets: &[Vec<&Bitset>], candidates: &Bitset, selection: &Selection) -> Counts {
    // The mask of one facet: OR of its chosen values, or everything when none is chosen.
    let masks: Vec<Option<Bitset>> = facets
        .iter()
        .enumerate()
        .map(|(f, values)| {
            let chosen = selection.chosen.get(f).filter(|c| !c.is_empty())?;
            let mut m = Bitset::empty(0);
            for &v in chosen {
                if let Some(bits) = values.get(v) {
                    m.or_with(bits);
                }
            }
            Some(m)
        })
        .collect();
    let base_except = |skip: usize| {
        let mut b = candidates.clone();
        for (g, mask) in masks.iter().enumerate() {
            if g != skip {
                if let Some(m) = mask {
                    b.and_with(m);
                }
            }
        }
        b
    };
    let counts = facets
        .iter()
        .enumerate()
        .map(|(f, values)| {
            let base = base_except(f);
            values.iter().map(|bits| base.intersection_len(bits)).collect()
        })
        .collect();
    Counts {
        matching: base_except(usize::MAX),
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(n: usize, items: &[usize]) -> Bitset {
        let mut b = Bitset::empty(n);
        for &i in items {
            b.insert(i);
        }
        b
    }

    #[test]
    fn bitset_basics() {
        let b = set(130, &[0, 64, 129]);
        assert_eq!(b.len(), 3);
        assert!(b.contains(129) && !b.contains(1));
        assert_eq!(b.iter().collect::<Vec<_>>(), [0, 64, 129]);
        assert_eq!(Bitset::full(70).len(), 70);
    }

    #[test]
    fn disjunctive_counts() {
        // 6 incidents; facet 0 (cause): a={0,1,2}, b={3,4}; facet 1 (org): x={0,3}, y={1,2,4,5}
        let n = 6;
        let (a, b, x, y) = (
            set(n, &[0, 1, 2]),
            set(n, &[3, 4]),
            set(n, &[0, 3]),
            set(n, &[1, 2, 4, 5]),
        );
        let facets = vec![vec![&a, &b], vec![&x, &y]];
        let all = Bitset::full(n);

        let none = count(
            &facets,
            &all,
            &Selection {
                chosen: vec![vec![], vec![]],
            },
        );
        assert_eq!(none.counts, vec![vec![3, 2], vec![2, 4]]);
        assert_eq!(none.matching.len(), 6);

        // cause=a: facet 0 counts ignore their own selection; facet 1 counts within a.
        let sel = count(
            &facets,
            &all,
            &Selection {
                chosen: vec![vec![0], vec![]],
            },
        );
        assert_eq!(sel.counts, vec![vec![3, 2], vec![1, 2]]);
        assert_eq!(sel.matching.iter().collect::<Vec<_>>(), [0, 1, 2]);

        // cause=a OR b, org=y: OR within, AND across.
        let sel = count(
            &facets,
            &all,
            &Selection {
                chosen: vec![vec![0, 1], vec![1]],
            },
        );
        assert_eq!(sel.matching.iter().collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(sel.counts, vec![vec![2, 1], vec![2, 3]]);

        // Candidates from a query restrict everything.
        let sel = count(
            &facets,
            &set(n, &[0, 3, 5]),
            &Selection {
                chosen: vec![vec![], vec![0]],
            },
        );
        assert_eq!(sel.matching.iter().collect::<Vec<_>>(), [0, 3]);
        assert_eq!(sel.counts, vec![vec![1, 1], vec![2, 1]]);
    }
}
