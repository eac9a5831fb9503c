//! Spacing within one word: a Hangul word written without its spaces, split over
//! the vocabulary (`재시도증폭` → `재시도` + `증폭`).

use crate::index::Index;

/// Splits a Hangul word into the fewest vocabulary terms of at least two
/// syllables each (`재시도증폭` → `재시도` + `증폭`), when it splits at all.
pub fn segment(word: &str, index: &Index) -> Option<Vec<String>> {
    let chars: Vec<char> = word.chars().collect();
    let n = chars.len();
    // The pieces at either end are asked for at once, not only once a split has
    // reached them: a browser fetches the blocks a search notes missing round by
    // round, and a split of two pieces, the common one, would cost a round for
    // each. (A middle piece waits for a split to reach it.)
    for k in 2..n.saturating_sub(1) {
        let _ = index.df(&chars[..k].iter().collect::<String>());
        let _ = index.df(&chars[n - k..].iter().collect::<String>());
    }
    // best[i]: fewest pieces covering chars[..i], with the piece boundaries.
    let mut best: Vec<Option<(usize, usize)>> = vec![None; n + 1];
    best[0] = Some((0, 0));
    for end in 2..=n {
        for start in 0..=end - 2 {
            let Some((count, _)) = best[start] else { continue };
            if start == 0 && end == n {
                continue; // the whole word is not a split
            }
            let piece: String = chars[start..end].iter().collect();
            if index.df(&piece).is_some() && best[end].is_none_or(|(c, _)| count + 1 < c) {
                best[end] = Some((count + 1, start));
            }
        }
    }
    let (count, _) = best[n]?;
    if count < 2 {
        return None;
    }
    let mut pieces = Vec::new();
    let mut end = n;
    while end > 0 {
        let (_, start) = best[end]?;
        pieces.push(chars[start..end].iter().collect());
        end = start;
    }
    pieces.reverse();
    Some(pieces)
}
