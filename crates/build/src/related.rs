//! Related incidents: those a record lists, else the most similar records by
//! shared facet values (weighted) and shared terms (the Dice coefficient of their
//! term sets). The pages and the API show the same ones.

use std::collections::{BTreeSet, HashMap};

use crate::corpus::Corpus;

/// Number of related incidents shown when a record lists none.
const RELATED_COMPUTED: usize = 3;

/// The facets compared, with the weight of a shared value: the first four of
/// [`FACETS`](incident_core::facets::FACETS), each with its `related` weight (the
/// organisation, last, is not compared).
const COMPARED: usize = 4;

/// Weight of the [`dice`] coefficient of the term sets, against the facet weights.
const TERMS_WEIGHT: f64 = 4.0;

/// The incidents shown as related to one incident.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// Incident numbers (positions in [`Corpus::incidents`]), most related first
    /// when computed, in the record's order when listed.
    pub incidents: Vec<usize>,
    /// True when computed by similarity, false when the record lists them.
    pub computed: bool,
}

/// Related incidents of every incident, by incident number: those a record lists,
/// else the most similar by shared facet values (weighted) and shared terms.
/// `terms[e]` are the terms of incident `e`.
///
/// Every pair is compared, so this is the part of the build that grows fastest with
/// the corpus. Each comparison is made of a few machine words: the terms in many
/// records and the facet values are bitsets per incident (shared = popcount of the
/// AND), and the shares of the rarer terms are counted once per incident through
/// their incident lists. The incidents are shared among the cores. The scores are
/// the same as comparing the sets one by one ([`score`]).
pub fn related_all(corpus: &Corpus, terms: &[BTreeSet<String>]) -> Vec<Related> {
    let table = Table::new(corpus, terms);
    let n = corpus.incidents.len();
    let positions: HashMap<&str, usize> = corpus
        .incidents
        .iter()
        .enumerate()
        .map(|(d, i)| (i.id.as_str(), d))
        .collect();
    let threads = crate::threads();
    let share = n.div_ceil(threads).max(1);
    let (table, positions) = (&table, &positions);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .step_by(share)
            .map(|start| {
                scope.spawn(move || {
                    let mut counts = vec![0u32; n];
                    (start..(start + share).min(n))
                        .map(|d| {
                            let incident = &corpus.incidents[d];
                            if incident.related.is_empty() {
                                table.most_related(d, &mut counts)
                            } else {
                                Related {
                                    incidents: incident
                                        .related
                                        .iter()
                                        .filter_map(|id| positions.get(id.as_str()).copied())
                                        .collect(),
                                    computed: false,
                                }
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

/// A term in more than one incident in this many is kept in the per-incident
/// bitsets; rarer terms are counted through their incident lists.
const DENSE_EVERY: usize = 32;

/// What the comparison reads, made once: per incident, its term count, the bitset of
/// its dense terms, its rare terms, and the bitset of its values of each compared
/// facet; and each rare term's incidents.
struct Table {
    n: usize,
    lens: Vec<usize>,
    dense_words: usize,
    dense: Vec<u64>,
    /// Dense terms of each incident (the bits set in its part of `dense`).
    dense_lens: Vec<u32>,
    rare: Vec<Vec<u32>>,
    postings: Vec<Vec<u32>>,
    facet_words: [usize; COMPARED],
    facets: [Vec<u64>; COMPARED],
}

#[inline(always)]
fn popcount_and(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum()
}

impl Table {
    fn new(corpus: &Corpus, terms: &[BTreeSet<String>]) -> Table {
        let n = corpus.incidents.len();
        let mut df: HashMap<&str, usize> = HashMap::new();
        for set in terms {
            for t in set {
                *df.entry(t.as_str()).or_default() += 1;
            }
        }
        let mut dense_terms: Vec<&str> = df
            .iter()
            .filter(|&(_, &c)| c * DENSE_EVERY > n)
            .map(|(&t, _)| t)
            .collect();
        dense_terms.sort_unstable();
        let dense_id: HashMap<&str, usize> = dense_terms.iter().enumerate().map(|(i, &t)| (t, i)).collect();
        let mut rare_terms: Vec<&str> = df.keys().copied().filter(|t| !dense_id.contains_key(t)).collect();
        rare_terms.sort_unstable();
        let rare_id: HashMap<&str, u32> = rare_terms.iter().enumerate().map(|(i, &t)| (t, i as u32)).collect();
        let dense_words = dense_terms.len().div_ceil(64);
        let mut dense = vec![0u64; n * dense_words];
        let mut rare = vec![Vec::new(); n];
        let mut postings = vec![Vec::new(); rare_terms.len()];
        for (d, set) in terms.iter().enumerate() {
            for t in set {
                if let Some(&i) = dense_id.get(t.as_str()) {
                    dense[d * dense_words + i / 64] |= 1 << (i % 64);
                } else {
                    let r = rare_id[t.as_str()];
                    rare[d].push(r);
                    postings[r as usize].push(d as u32);
                }
            }
        }
        let slugs: Vec<HashMap<&str, usize>> = corpus.taxonomy.facets[..COMPARED]
            .iter()
            .map(|values| {
                values
                    .iter()
                    .enumerate()
                    .map(|(v, value)| (value.slug.as_str(), v))
                    .collect()
            })
            .collect();
        let facet_words: [usize; COMPARED] = std::array::from_fn(|f| slugs[f].len().div_ceil(64).max(1));
        let facets: [Vec<u64>; COMPARED] = std::array::from_fn(|f| {
            let mut bits = vec![0u64; n * facet_words[f]];
            for (d, incident) in corpus.incidents.iter().enumerate() {
                for slug in &incident.facets[f] {
                    if let Some(&v) = slugs[f].get(slug.as_str()) {
                        bits[d * facet_words[f] + v / 64] |= 1 << (v % 64);
                    }
                }
            }
            bits
        });
        Table {
            n,
            lens: terms.iter().map(BTreeSet::len).collect(),
            dense_lens: (0..n)
                .map(|d| {
                    dense[d * dense_words..(d + 1) * dense_words]
                        .iter()
                        .map(|w| w.count_ones())
                        .sum()
                })
                .collect(),
            dense_words,
            dense,
            rare,
            postings,
            facet_words,
            facets,
        }
    }

    #[inline(always)]
    fn dense_of(&self, d: usize) -> &[u64] {
        &self.dense[d * self.dense_words..(d + 1) * self.dense_words]
    }

    #[inline(always)]
    fn facet_of(&self, f: usize, d: usize) -> &[u64] {
        &self.facets[f][d * self.facet_words[f]..(d + 1) * self.facet_words[f]]
    }

    /// The [`RELATED_COMPUTED`] incidents most related to `d`. `counts` is a
    /// zeroed scratch vector of one counter per incident, left zeroed.
    fn most_related(&self, d: usize, counts: &mut [u32]) -> Related {
        // The comparison is bit counting: with the processor's popcount instruction
        // (not in the baseline x86-64 target) it runs several times faster.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the feature the function is compiled for.
            return unsafe { self.most_related_popcnt(d, counts) };
        }
        self.most_related_with(d, counts)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn most_related_popcnt(&self, d: usize, counts: &mut [u32]) -> Related {
        self.most_related_with(d, counts)
    }

    /// [`Table::most_related`], inlined into each caller so that it is compiled
    /// with the caller's target features.
    #[inline(always)]
    fn most_related_with(&self, d: usize, counts: &mut [u32]) -> Related {
        for &t in &self.rare[d] {
            for &e in &self.postings[t as usize] {
                counts[e as usize] += 1;
            }
        }
        let mut best: Vec<(f64, usize)> = Vec::with_capacity(RELATED_COMPUTED + 1);
        for e in (0..self.n).filter(|&e| e != d) {
            let facets: [u32; COMPARED] =
                std::array::from_fn(|f| popcount_and(self.facet_of(f, d), self.facet_of(f, e)));
            if best.len() == RELATED_COMPUTED {
                // The score grows with the shared terms, and the two incidents share at
                // most the fewer of their dense terms: when even that cannot beat the
                // last of the best, the long AND is skipped. The result is the same.
                let most = counts[e] + self.dense_lens[d].min(self.dense_lens[e]);
                if score(facets, most as usize, self.lens[d], self.lens[e]) <= best[best.len() - 1].0 {
                    continue;
                }
            }
            let shared = counts[e] + popcount_and(self.dense_of(d), self.dense_of(e));
            let s = score(facets, shared as usize, self.lens[d], self.lens[e]);
            // In incident order, so an equal score keeps the lower incident first.
            if s > 0.0 && (best.len() < RELATED_COMPUTED || s > best[best.len() - 1].0) {
                let at = best.iter().position(|&(b, _)| s > b).unwrap_or(best.len());
                best.insert(at, (s, e));
                best.truncate(RELATED_COMPUTED);
            }
        }
        for &t in &self.rare[d] {
            for &e in &self.postings[t as usize] {
                counts[e as usize] = 0;
            }
        }
        Related {
            incidents: best.into_iter().map(|(_, e)| e).collect(),
            computed: true,
        }
    }
}

/// The similarity of two incidents: their shared values of each compared facet,
/// each with its facet's weight, plus [`TERMS_WEIGHT`] times the Dice coefficient of
/// their term sets (twice the shared terms over the sum of their sizes; 0 when both
/// are empty).
fn score(shared_values: [u32; COMPARED], shared_terms: usize, a: usize, b: usize) -> f64 {
    let facets: f64 = incident_core::facets::FACETS[..COMPARED]
        .iter()
        .zip(shared_values)
        .map(|(f, count)| f.related * count as f64)
        .sum();
    let dice = if a + b == 0 {
        0.0
    } else {
        shared_terms as f64 / (a + b) as f64 * 2.0
    };
    facets + TERMS_WEIGHT * dice
}
