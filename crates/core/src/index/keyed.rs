//! Terms as the 초성 and typo lookups compare them (with their keyboard keys and
//! initials), and the lexicon's typed forms and meanings.

use super::{Index, KeyedTerm};

impl KeyedTerm {
    /// `term` with its keys and initials.
    pub fn of(term: &str, df: u64) -> KeyedTerm {
        let keys = crate::text::hangul::keys(term);
        KeyedTerm {
            term: term.to_string(),
            df,
            chars: term.chars().count(),
            signature: crate::text::hangul::signature(&keys),
            keys,
            initials: crate::text::hangul::initials(term),
        }
    }
}

impl Index {
    /// The meanings (each a list of terms that must all match) of the lexicon
    /// entries that have `key` (a form of [`crate::query::lexicon_keys`]) among their
    /// typed forms. A meaning whose terms are in blocks not loaded yet is left out
    /// (and the blocks noted missing).
    pub fn lexicon_means(&self, key: &str) -> Vec<Vec<String>> {
        let keys = self.lexicon_keys();
        let start = keys.partition_point(|(k, _)| k.as_str() < key);
        let mut out = Vec::new();
        for &(_, e) in keys[start..].iter().take_while(|(k, _)| k == key) {
            for positions in &self.meta.lexicon[e as usize].means {
                // Every term is looked up, so that all missing blocks are noted at once.
                let terms: Vec<Option<&str>> = positions.iter().map(|&t| self.term_at(t)).collect();
                if terms.iter().all(Option::is_some) {
                    out.push(terms.into_iter().flatten().map(str::to_string).collect());
                }
            }
        }
        out
    }

    /// The lexicon's typed forms with their keys and initials (`df` is unused, 0).
    pub fn keyed_lexicon(&self) -> &[KeyedTerm] {
        self.keyed_lexicon.get_or_init(|| {
            // `lexicon_keys` is sorted, so a repeated form follows its first.
            let keys = self.lexicon_keys();
            keys.iter()
                .enumerate()
                .filter(|&(i, (k, _))| i == 0 || keys[i - 1].0 != *k)
                .map(|(_, (k, _))| KeyedTerm::of(k, 0))
                .collect()
        })
    }
}
