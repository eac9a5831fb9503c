//! Query analysis: turns what a person typed into words, and each word into the
//! vocabulary terms that may stand for it.
//!
//! Every step is lindera-free and runs in the browser exactly as natively. A word
//! is matched by any of its [`Alternative`]s; an alternative matches an incident
//! when all of its terms do. Alternatives come from:
//!
//! * the word itself, normalised (`OOMKilled` → `oomkilled`);
//! * its bare form by the shared particle table ([`crate::particles::bare`]):
//!   `재시도를` → `재시도`, `삭제했다` → `삭제`;
//! * for Latin and digit words that are not in the vocabulary whole, their parts
//!   (`http/5xx` → `http` + `5xx`).
//!
//! Only terms that exist in the vocabulary are kept, which also keeps filter false
//! positives away from words the corpus never uses.

use serde::Serialize;

use crate::particles;
use crate::text;

/// How an alternative was derived, for the UI's "how each word was understood".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Derivation {
    /// The word as typed (normalised).
    Exact,
    /// The word without its particle or ending.
    Bare,
    /// The word split into Latin and digit parts.
    Parts,
}

/// One way a query word may match.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Alternative {
    /// Terms that must all match.
    pub terms: Vec<String>,
    /// Multiplier on the score (1.0 for the exact word).
    pub weight: f32,
    /// Where it came from.
    pub derivation: Derivation,
}

/// A word of the query with its alternatives.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Word {
    /// The word as it appeared after normalisation.
    pub input: String,
    /// Alternatives, best first. Empty when nothing in the corpus matches the word.
    pub alternatives: Vec<Alternative>,
}

/// Splits `query` into words and finds their alternatives. `df` answers the
/// document frequency of a vocabulary term, or `None` when it is not there.
pub fn analyze(query: &str, df: impl Fn(&str) -> Option<u64>) -> Vec<Word> {
    let cased = text::nfkc(query);
    let mut words = Vec::new();
    for raw in text::words(&cased) {
        let input = text::lower(raw);
        if particles::is_suffix_only(&input) || words.iter().any(|w: &Word| w.input == input) {
            continue;
        }
        let mut alternatives = Vec::new();
        let add = |alternatives: &mut Vec<Alternative>, terms: Vec<String>, weight: f32, derivation: Derivation| {
            if !terms.is_empty()
                && terms.iter().all(|t| df(t).is_some())
                && !alternatives.iter().any(|a| a.terms == terms)
            {
                alternatives.push(Alternative {
                    terms,
                    weight,
                    derivation,
                });
            }
        };
        add(&mut alternatives, vec![input.clone()], 1.0, Derivation::Exact);
        let bare = particles::bare(&input);
        if let Some(b) = &bare {
            add(&mut alternatives, vec![b.clone()], 0.9, Derivation::Bare);
        }
        if alternatives.is_empty() {
            // A Latin token that the corpus only knows in parts: `HTTP/5XX`, `oom-killed`.
            let base = bare.as_deref().unwrap_or(&input);
            let cased_base = if base == input {
                raw.to_string()
            } else {
                base.to_string()
            };
            let parts = text::latin_parts(&cased_base);
            add(&mut alternatives, parts, 0.8, Derivation::Parts);
        }
        words.push(Word { input, alternatives });
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab(t: &str) -> Option<u64> {
        [
            "재시도",
            "캐시",
            "비우",
            "배포",
            "oomkilled",
            "oom",
            "killed",
            "http",
            "5xx",
            "us-east-1",
        ]
        .contains(&t)
        .then_some(1)
    }

    #[test]
    fn particles_and_endings_reach_the_bare_term() {
        let w = analyze("재시도를 캐시가 비우는", vocab);
        assert_eq!(w.len(), 3);
        assert_eq!(w[0].alternatives[0].terms, ["재시도"]);
        assert_eq!(w[0].alternatives[0].derivation, Derivation::Bare);
        assert_eq!(w[1].alternatives[0].terms, ["캐시"]);
        assert_eq!(w[2].alternatives[0].terms, ["비우"]);
    }

    #[test]
    fn latin_words() {
        let w = analyze("OOMKilled HTTP 5XX us-east-1 에서", vocab);
        assert_eq!(
            w.iter().map(|w| w.input.as_str()).collect::<Vec<_>>(),
            ["oomkilled", "http", "5xx", "us-east-1"]
        );
        assert!(w.iter().all(|w| !w.alternatives.is_empty()));
        let w = analyze("oom-killed", vocab);
        assert_eq!(w[0].alternatives[0].terms, ["oom", "killed"]);
    }

    #[test]
    fn unknown_words_have_no_alternative() {
        let w = analyze("없는말", vocab);
        assert!(w[0].alternatives.is_empty());
    }
}
