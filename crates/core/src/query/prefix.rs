//! Search as you type and 초성: the vocabulary terms that a word cut off while
//! typing may become (`잿` → `재시도`), and those whose initial consonants were typed
//! (`ㅈㅅㄷ` → `재시도`).

use super::lexicon::lexicon;
use super::{add, best, Alternative, Derivation, EXPANSIONS, PREFIX_WEIGHT};
use crate::index::Index;
use crate::text::{hangul, within};

/// Most vocabulary blocks that the completions of one word may read. A word whose
/// possible completions fill more (거 in a library of thousands of records: twenty
/// blocks, about 2,700 terms) is too short to say what is being typed, as a lone
/// consonant is: its most frequent completions are noise, and a phone would fetch
/// every block of them, in waves of six requests, before the first page.
pub(super) const COMPLETION_BLOCKS: usize = 4;

/// Vocabulary terms that `word` is a typing state of, most frequent first. Only
/// the vocabulary ranges that the word's last character can still grow into are
/// read (`ranges` below); none when they fill more than [`COMPLETION_BLOCKS`].
pub fn completions(word: &str, index: &Index, limit: usize) -> Vec<(String, u64)> {
    completions_within(word, index, limit, COMPLETION_BLOCKS)
}

/// [`completions`], reading at most `max_blocks` vocabulary blocks.
pub(super) fn completions_within(word: &str, index: &Index, limit: usize, max_blocks: usize) -> Vec<(String, u64)> {
    if let Some(found) = index.remembered_completions(word, limit) {
        return found;
    }
    let ranges = ranges(word);
    // The ranges are in order: a block two of them share is counted once.
    let (mut blocks, mut last) = (0, None);
    for (lo, hi) in &ranges {
        for b in index.vocab_range_blocks(lo, hi) {
            blocks += usize::from(last != Some(b));
            last = Some(b);
        }
    }
    if blocks > max_blocks {
        return Vec::new();
    }
    let keys = hangul::keys(word);
    // The word's keys fit in a term's first characters: as many as the word has,
    // and one more for a final consonant that moves on (잿 in 재시도). Only those
    // are keyed, not the whole term (a range holds thousands in a large library).
    let chars = word.chars().count() + 1;
    let mut found = Vec::new();
    let mut loaded = true;
    for (lo, hi) in ranges {
        let Some(range) = index.loaded_vocab_range(&lo, &hi) else {
            loaded = false;
            continue;
        };
        for (t, postings) in range {
            let head = t.char_indices().nth(chars).map_or(t, |(at, _)| within(t, ..at));
            if t != word && hangul::keys_start_with(head, &keys) {
                found.push((t.to_string(), postings.df()));
            }
        }
    }
    if !loaded {
        return Vec::new();
    }
    let found = best(found, limit);
    index.remember_completions(word, limit, &found);
    found
}

/// The vocabulary ranges `[lo, hi)` (in order, apart) that hold every term `word`
/// may be a typing state of: the term starts with the word's characters before
/// the last, then a character whose keys the last one's keys start (잿 → 잿…), or
/// one whose keys start the last one's (됨 → 되), followed by a character that
/// starts with the keys left over (되 + ㅁ: 되면). For a word ending in a syllable
/// with a final consonant this reads a few narrow ranges instead of the whole
/// block of syllables with its initial and vowel (되..됳 holds thousands of
/// terms in a large library).
fn ranges(word: &str) -> Vec<(String, String)> {
    let Some((at, last)) = word.char_indices().last() else {
        return Vec::new();
    };
    let stem = within(word, ..at);
    let after = |c: char| char::from_u32(c as u32 + 1).unwrap_or(c);
    // `stem` followed by `chars`.
    let then = |chars: &[char]| {
        let mut s = stem.to_string();
        s.extend(chars);
        s
    };
    let Some((first, end)) = hangul::syllable_block(last) else {
        return vec![(word.to_string(), then(&[last, '\u{10FFFF}']))];
    };
    let whole = vec![(then(&[first]), then(&[after(end)]))];
    let Some(syllable) = hangul::Syllable::of(last) else {
        return whole; // a lone initial consonant: every syllable it starts
    };
    if syllable.tail == 0 {
        return whole; // every final may still come
    }
    let typed = hangul::keys(within(word, at..));
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |lo: String, hi: String| match out.last_mut() {
        Some(prev) if prev.1 == lo => prev.1 = hi,
        _ => out.push((lo, hi)),
    };
    for c in (first as u32..=end as u32).filter_map(char::from_u32) {
        let keys = hangul::keys(c.encode_utf8(&mut [0; 4]));
        if keys.starts_with(&typed) {
            push(then(&[c]), then(&[after(c)]));
        } else if typed.starts_with(&keys) {
            // The keys left over begin the next character: a syllable with that
            // initial, or a compatibility jamo (a rare term, but it can be).
            let left = typed[keys.len()];
            push(then(&[c, '\u{3131}']), then(&[c, '\u{318F}']));
            if let Some((lead_first, lead_end)) = hangul::syllable_block(left) {
                push(then(&[c, lead_first]), then(&[c, after(lead_end)]));
            }
        }
    }
    out
}

pub(super) fn expand_prefix(word: &str, index: &Index, alts: &mut Vec<Alternative>) {
    // One lone consonant (ㅈ of 삭ㅈ, cut off while typing) begins a fourteenth of
    // the vocabulary: its most frequent terms say nothing of what is being typed,
    // and a browser would fetch every block they are in.
    let mut chars = word.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if hangul::syllable_block(c).is_some() && hangul::Syllable::of(c).is_none() {
            return;
        }
    }
    for (term, _) in completions(word, index, EXPANSIONS) {
        add(alts, index, vec![term], PREFIX_WEIGHT, Derivation::Prefix);
    }
}

pub(super) fn expand_initials(word: &str, index: &Index, prefix: bool, alts: &mut Vec<Alternative>) {
    let wanted: Vec<char> = word.chars().collect();
    // Terms are filed under their first two initials (crate::near).
    let keys: Vec<String> = crate::near::initials_key(&wanted).into_iter().collect();
    let found = index
        .near_terms(&keys)
        .into_iter()
        .filter(|k| {
            k.initials.as_ref().is_some_and(|ini| {
                if prefix {
                    ini.starts_with(&wanted)
                } else {
                    *ini == wanted
                }
            })
        })
        .map(|k| (k.term.clone(), k.df))
        .collect();
    for (term, _) in best(found, EXPANSIONS) {
        add(alts, index, vec![term], PREFIX_WEIGHT, Derivation::Initials);
    }
    // The initials of a lexicon form (ㅋㄹㅇㄷㅍㄹㅇ for 클라우드플레어).
    for k in index.keyed_lexicon() {
        if k.initials
            .as_ref()
            .is_some_and(|ini| *ini == wanted || prefix && ini.starts_with(&wanted))
        {
            lexicon(&k.term, index, PREFIX_WEIGHT, Derivation::Initials, alts);
        }
    }
}
