//! Facet selections and disjunctive facet counting over [`Bitset`]s.
//!
//! Each facet value owns a bitset over incident numbers. A selection is OR within a
//! facet and AND across facets; the count shown next to a value ignores its own
//! facet's selection, so that choosing a second value of the same facet shows how
//! many incidents it would add.

use crate::bitset::Bitset;

/// One facet of the classification. [`FACETS`] is the one list of them: the corpus
/// reader, the taxonomy, the index, the site, the API and the MCP server derive
/// theirs from it, and the browser reads it from the index (`library.facets()`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FacetDef {
    /// Key in URLs, filters, the taxonomy file and the API (`cause`).
    pub key: &'static str,
    /// The record field that holds its values (`causes`; `org` holds one slug).
    pub field: &'static str,
    /// Korean label.
    pub ko: &'static str,
    /// English label.
    pub en: &'static str,
    /// Weight of a value two incidents share when related incidents are computed
    /// (0: not compared).
    pub related: f64,
    /// True when a hit in a result list shows its values (as tags under its title).
    pub on_hits: bool,
}

/// The position of facet `key` in [`FACETS`].
pub fn position(key: &str) -> Option<usize> {
    FACETS.iter().position(|f| f.key == key)
}

/// The keys of [`FACETS`], and whether hits show each ([`FacetDef::on_hits`]), as
/// constants made at compile time: the browser's module reads these, and so
/// leaves the rest of the table (labels, field names, weights) out.
const KEYS_ON_HITS: [(&str, bool); FACETS.len()] = {
    let mut out = [("", false); FACETS.len()];
    let mut i = 0;
    while i < FACETS.len() {
        out[i] = (FACETS[i].key, FACETS[i].on_hits);
        i += 1;
    }
    out
};

/// True when a hit in a result list shows the values of facet `key`.
pub fn on_hits(key: &str) -> bool {
    KEYS_ON_HITS.iter().any(|&(k, shown)| shown && k == key)
}

/// The facets, in the order they are stored and shown (organisation last).
pub const FACETS: [FacetDef; 5] = [
    FacetDef {
        key: "cause",
        field: "causes",
        ko: "원인",
        en: "Cause",
        related: 3.0,
        on_hits: true,
    },
    FacetDef {
        key: "component",
        field: "components",
        ko: "구성 요소",
        en: "Component",
        related: 2.0,
        on_hits: true,
    },
    FacetDef {
        key: "symptom",
        field: "symptoms",
        ko: "증상",
        en: "Symptom",
        related: 1.0,
        on_hits: true,
    },
    FacetDef {
        key: "factor",
        field: "factors",
        ko: "기여 요인",
        en: "Contributing factor",
        related: 1.0,
        on_hits: false,
    },
    FacetDef {
        key: "org",
        field: "org",
        ko: "조직",
        en: "Organisation",
        related: 0.0,
        on_hits: false,
    },
];

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
