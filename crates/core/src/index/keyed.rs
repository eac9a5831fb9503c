//! The vocabulary and the lexicon as the query's lookups read them: every term with
//! its keyboard keys and initials (초성 and typo lookups), and the lexicon's typed
//! forms and meanings.

use super::{Index, KeyedTerm};

impl Index {
    /// Every vocabulary term with its keys and initials.
    pub fn keyed_terms(&self) -> &[KeyedTerm] {
        self.keyed.get_or_init(|| {
            self.vocab
                .iter()
                .map(|(term, postings)| {
                    let keys = crate::text::hangul::keys(term);
                    KeyedTerm {
                        term: term.to_string(),
                        df: postings.df(),
                        chars: term.chars().count(),
                        signature: crate::text::hangul::signature(&keys),
                        keys,
                        initials: crate::text::hangul::initials(term),
                    }
                })
                .collect()
        })
    }

    /// The meanings (each a list of terms that must all match) of the lexicon
    /// entries that have `key` (a form of [`crate::query::lexicon_keys`]) among their
    /// typed forms.
    pub fn lexicon_means<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a Vec<String>> + 'a {
        let start = self.lexicon_keys.partition_point(|(k, _)| k.as_str() < key);
        self.lexicon_keys[start..]
            .iter()
            .take_while(move |(k, _)| k == key)
            .flat_map(|&(_, e)| &self.lexicon_means[e as usize])
    }

    /// The lexicon's typed forms with their keys and initials (`df` is unused, 0).
    pub fn keyed_lexicon(&self) -> &[KeyedTerm] {
        self.keyed_lexicon.get_or_init(|| {
            // `lexicon_keys` is sorted, so a repeated form follows its first.
            self.lexicon_keys
                .iter()
                .enumerate()
                .filter(|&(i, (k, _))| i == 0 || self.lexicon_keys[i - 1].0 != *k)
                .map(|(_, (k, _))| {
                    let keys = crate::text::hangul::keys(k);
                    KeyedTerm {
                        term: k.clone(),
                        df: 0,
                        chars: k.chars().count(),
                        signature: crate::text::hangul::signature(&keys),
                        keys,
                        initials: crate::text::hangul::initials(k),
                    }
                })
                .collect()
        })
    }
}
