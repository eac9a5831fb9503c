//! Spacing left out, as people type on a phone: a query word that runs several
//! words together is read as the words it holds.
//!
//! * [`script_pieces`] cuts a word where Hangul meets a Latin run (`DNS레코드가` →
//!   `DNS` `레코드가`, `멀티AZ` → `멀티` `AZ`) and after a number's counter
//!   (`43초네트워크` → `43초` `네트워크`). Mixed Latin and digit tokens stay whole
//!   (`k8s`, `S3`, `us-east-1`, `IL-0001`, `5xx`), and so does a year (`2017년`).
//! * [`space`] spaces a Hangul or Latin word that the vocabulary does not know over
//!   the terms it does (`카카오톡장애` → `카카오톡` `장애`, `쪽에서깃헙` → `쪽에서`
//!   `깃헙`, `awsebs` → `aws` `ebs`): the cheapest cover of the word by vocabulary
//!   terms, lexicon forms, words with their particle or ending, and particles, where
//!   a long known piece costs least and a stretch that nothing knows costs most.
//!
//! Each piece is then read as if it had been typed with a space before it, so it
//! gets every reading a spaced word gets (particles, the lexicon, typos).

use crate::index::Index;
use crate::text::hangul;
use crate::text::{particles, within};

use super::verb_noun::verb_noun;

/// Counters that a number carries (`2017년`, `43초`, `3시간`): the piece after a
/// number ends after its counter. Longest first.
const COUNTERS: [&str; 21] = [
    "시간",
    "개월",
    "주년",
    "퍼센트",
    "년",
    "월",
    "일",
    "시",
    "분",
    "초",
    "개",
    "대",
    "건",
    "명",
    "번",
    "차",
    "주",
    "만",
    "억",
    "배",
    "층",
];

/// The longest piece [`space`] considers, in characters: longer runs are left to
/// the partial reading (a Hangul term is rarely longer; a Latin one, such as a
/// host name, may be).
const LONGEST_PIECE: usize = 10;
const LONGEST_LATIN_PIECE: usize = 24;

/// Hangul words [`space`] reads, in syllables, at least: two words typed together
/// hold four or more (`광케이블`), while a shorter unknown word is most often one
/// word the library lacks or a conjugation (`비면서` is not `비면` + `서`). A word of
/// three is spaced only into terms the vocabulary or the lexicon holds as they are
/// (`람다셀` → `람다` `셀`).
const SHORTEST_GLUED: usize = 3;
const SHORTEST_FREELY_GLUED: usize = 4;

/// Latin pieces are words from this many letters on, known or not: a shorter known
/// piece is in most words (`fa` of `cloudfare`), a shorter unknown one is a
/// fragment (`er` of `customer` read as `custom` + `er`).
const SHORTEST_LATIN_PIECE: usize = 3;

/// The class of a character for [`script_pieces`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Hangul syllables.
    Hangul,
    /// Hangul letters alone: 초성 typed for a word (`ㅇㅊ`).
    Jamo,
    /// Latin letters, digits and joiners.
    Other,
}

fn class(c: char) -> Class {
    if hangul::is_hangul_syllable(c) {
        Class::Hangul
    } else if hangul::is_hangul(c) {
        Class::Jamo
    } else {
        Class::Other
    }
}

/// The words run together in `word` by script: a cut where a Hangul run meets a
/// run with a Latin letter, and after the counter of a number followed by more
/// Hangul. One piece when there is no such place.
pub fn script_pieces(word: &str) -> Vec<&str> {
    // Runs of one class, as byte ranges.
    let mut runs: Vec<(usize, usize, Class)> = Vec::new();
    for (at, c) in word.char_indices() {
        let k = class(c);
        match runs.last_mut() {
            Some(last) if last.2 == k => last.1 = at + c.len_utf8(),
            _ => runs.push((at, at + c.len_utf8(), k)),
        }
    }
    let mut cuts: Vec<usize> = Vec::new();
    for pair in runs.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let latin = |r: (usize, usize, Class)| within(word, r.0..r.1).bytes().any(|b| b.is_ascii_alphabetic());
        let digits = |r: (usize, usize, Class)| within(word, r.0..r.1).bytes().filter(u8::is_ascii_digit).count();
        // A run of digits whose next run starts with a counter (`6` of `6월`).
        let counted =
            |r: (usize, usize, Class)| digits(r) > 0 && COUNTERS.iter().any(|c| within(word, r.1..).starts_with(c));
        match (a.2, b.2) {
            (Class::Jamo, Class::Hangul) | (Class::Hangul, Class::Jamo) => cuts.push(b.0),
            (Class::Hangul, Class::Other) if latin(b) => cuts.push(b.0),
            // A number after a word (`깃허브2018년`, `2월29일`, `헤로쿠6월`); a single
            // digit with no counter stays with the word it names (`버전2`).
            (Class::Hangul, Class::Other) if digits(b) >= 2 || counted(b) => cuts.push(b.0),
            (Class::Other, Class::Hangul) if latin(a) => cuts.push(b.0),
            (Class::Other, Class::Hangul) if within(word, a.0..a.1).bytes().any(|b| b.is_ascii_digit()) => {
                // A number: its counter stays with it, the rest is another word.
                let hangul = within(word, b.0..b.1);
                let counter = COUNTERS.iter().find(|c| hangul.starts_with(*c)).map_or(0, |c| c.len());
                if counter < hangul.len() {
                    cuts.push(b.0 + counter);
                }
            }
            _ => {}
        }
    }
    let mut pieces = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for cut in cuts {
        if cut > start {
            pieces.push(within(word, start..cut));
            start = cut;
        }
    }
    pieces.push(within(word, start..));
    pieces
}

/// What a stretch of a glued word is to the vocabulary.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Piece {
    /// A term, a lexicon form, or a word with its particle or ending.
    Known,
    /// A particle or ending alone (`에서`, `가`): it belongs to the piece before.
    Particle,
    /// Nothing the index knows.
    Unknown,
}

/// What `piece` is to `index`. A word with a particle counts when the particle is
/// whole syllables (`레코드가`, `쪽에서`); predicate endings that change the stem's
/// last syllable (`끊겼다` → `끊기`) count from three syllables, since a short
/// stretch read that way is most often a piece of another word (`이블` is not `이브`).
fn piece(piece: &str, index: &Index) -> Piece {
    let known = |t: &str| index.df(t).is_some() || !index.lexicon_means(t).is_empty();
    if hangul_word(piece) && particles::is_suffix_only(piece) {
        return Piece::Particle;
    }
    if known(piece) {
        return Piece::Known;
    }
    let bare = particles::bare(piece);
    let whole_particle = bare.as_deref().is_some_and(|b| {
        piece
            .strip_prefix(b)
            .is_some_and(|rest| particles::is_suffix_only(rest) && known(b))
    });
    let long = piece.chars().count() >= 3;
    if whole_particle
        || long
            && (particles::stems(bare.as_deref().unwrap_or(piece))
                .iter()
                .any(|s| index.df(s).is_some())
                || verb_noun(piece).is_some_and(|n| index.df(&n).is_some()))
    {
        Piece::Known
    } else {
        Piece::Unknown
    }
}

/// What a stretch of a Latin token is to `index`: a known term of three characters
/// or more (`fa` and `re` of `cloudfare` are in most words), or a known number or
/// joiner-separated token.
fn latin_piece(piece: &str, index: &Index) -> Piece {
    let short = piece.len() < SHORTEST_LATIN_PIECE && piece.bytes().any(|b| b.is_ascii_lowercase());
    let joined = piece.contains(['-', '.', '/', '_', '+', '#']);
    let known = |t: &str| index.df(t).is_some() || !index.lexicon_means(t).is_empty();
    // A joined token the records write in parts (`front-end` → `front`, `end`).
    let parts_known = || {
        let parts = crate::text::latin_parts(piece);
        !parts.is_empty() && parts.iter().all(|p| index.df(p).is_some())
    };
    if piece.starts_with(['-', '.', '/', '_', '+', '#']) || piece.ends_with(['-', '.', '/', '_', '+', '#']) {
        return Piece::Unknown;
    }
    if !short && (known(piece) || joined && parts_known()) {
        Piece::Known
    } else {
        Piece::Unknown
    }
}

fn hangul_word(word: &str) -> bool {
    word.chars().all(hangul::is_hangul_syllable)
}

/// A Latin token: lower-case letters, digits and joiners, with a letter
/// (`kinesisus-east-1`, `firefoxadd-ons`).
fn latin_word(word: &str) -> bool {
    word.bytes().any(|b| b.is_ascii_lowercase())
        && word
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-._/+#".contains(&b))
}

/// The cost of a piece of `len` characters: long known pieces are cheapest, a
/// single known syllable costs more (most are also parts of longer words), a
/// stretch nothing knows costs most, the more so the longer it is. In tenths.
fn cost(kind: Piece, len: usize) -> u32 {
    match kind {
        Piece::Known if len >= 2 => 10,
        Piece::Known => 15,
        Piece::Particle => 2,
        Piece::Unknown => 10 + 6 * len as u32,
    }
}

/// A spacing of a glued word: its words, each with the particles that follow it.
#[derive(Debug, Clone, PartialEq)]
pub struct Spacing {
    /// The words, in order.
    pub words: Vec<String>,
    /// True when every word is one the index knows (no stretch was left unknown).
    pub known: bool,
    /// The share of the word's characters in words the index knows.
    pub coverage: f32,
}

/// Adverbs of negation that people type against the verb (`안쓰던`, `못함`).
const NEGATIONS: [&str; 2] = ["안", "못"];

/// True when `spacing` is a negation and the verb it was typed against.
pub fn is_negation(spacing: &Spacing) -> bool {
    spacing.known && spacing.words.len() == 2 && NEGATIONS.contains(&spacing.words[0].as_str())
}

/// `word` as a negation typed against a verb the index knows (`안쓰던` → `안`
/// `쓰던`).
pub fn negated(word: &str, index: &Index) -> Option<Spacing> {
    let neg = NEGATIONS.iter().find(|n| word.starts_with(*n))?;
    let rest = within(word, neg.len()..);
    (rest.chars().count() >= 2 && piece(rest, index) == Piece::Known).then(|| Spacing {
        words: vec![neg.to_string(), rest.to_string()],
        known: true,
        coverage: 1.0,
    })
}

/// 초성 typed for several words together (`ㅅㅍㄹㅂㄹㅇ` → `ㅅㅍㄹ` `ㅂㄹㅇ`): pieces of
/// two initials or more that each name a term or a lexicon form.
fn initials(word: &str, index: &Index) -> Option<Spacing> {
    let named = |p: &str, len: usize| {
        let mut alts = Vec::new();
        if len >= 2 {
            super::prefix::expand_initials(p, index, false, &mut alts);
        }
        if alts.is_empty() {
            Piece::Unknown
        } else {
            Piece::Known
        }
    };
    cover(word, &named, LONGEST_PIECE, usize::MAX).filter(|s| s.known)
}

/// The cheapest spacing of `word` (lower-cased, all Hangul or a Latin token; 초성
/// and a leading negation are read first) into two or more words, when it has one
/// with at least one known word of two characters or more. Lookups of blocks not
/// loaded yet are noted missing, as for every reading: the next round reads the
/// word again with them.
pub fn space(word: &str, index: &Index) -> Option<Spacing> {
    if hangul::is_initials_query(word) {
        return initials(word, index);
    }
    if let Some(s) = negated(word, index) {
        return Some(s);
    }
    let hangul = hangul_word(word);
    let n = word.chars().count();
    let spacing = if hangul {
        if n < SHORTEST_GLUED {
            return None;
        }
        cover(word, &|p: &str, _| piece(p, index), LONGEST_PIECE, 2)?
    } else {
        if !latin_word(word) || n < 2 * SHORTEST_LATIN_PIECE {
            return None;
        }
        cover(
            word,
            &|p: &str, _| latin_piece(p, index),
            LONGEST_LATIN_PIECE,
            SHORTEST_LATIN_PIECE,
        )?
    };
    if hangul && n < SHORTEST_FREELY_GLUED {
        let as_is = |w: &String| index.df(w).is_some() || !index.lexicon_means(w).is_empty();
        if !spacing.words.iter().all(as_is) {
            return None;
        }
    }
    Some(spacing)
}

/// The cheapest cover of `word` by pieces of at most `longest` characters, as
/// `classify` sees them (given the piece and its length in characters): a particle
/// only after a word, an unknown stretch never next to another nor shorter than
/// `fragment`. Costs are in tenths ([`cost`]).
fn cover(word: &str, classify: &dyn Fn(&str, usize) -> Piece, longest: usize, fragment: usize) -> Option<Spacing> {
    // Byte offsets of the characters, so that pieces are slices of `word`.
    let at: Vec<usize> = word.char_indices().map(|(i, _)| i).chain([word.len()]).collect();
    let n = at.len() - 1;
    if n > super::MAX_WORD_CHARS {
        return None;
    }
    let best = cheapest(word, &at, classify, longest, fragment);
    let pieces = pieces_of(&best, n)?;
    spacing_of(word, &at, &pieces)
}

/// Not reached: a state no cover ends in.
const UNREACHED: (u32, usize, usize) = (u32::MAX, 0, 0);

/// The dynamic programme of [`cover`]: `best[i * 3 + k]` is the cheapest cover of
/// the first `i` characters (at byte offsets `at`) whose last piece is of kind
/// `k`, as (cost, start of that piece, kind of the piece before it).
fn cheapest(
    word: &str,
    at: &[usize],
    classify: &dyn Fn(&str, usize) -> Piece,
    longest: usize,
    fragment: usize,
) -> Vec<(u32, usize, usize)> {
    let n = at.len() - 1;
    let mut best = vec![UNREACHED; (n + 1) * 3];
    for start in 0..n {
        for len in 1..=longest.min(n - start) {
            let end = start + len;
            if start == 0 && end == n {
                continue; // the whole word is not a spacing
            }
            let kind = classify(within(word, at[start]..at[end]), len);
            if kind == Piece::Unknown && len < fragment {
                continue;
            }
            let k = kind as usize;
            for before in 0..3 {
                let from = if start == 0 {
                    if before > 0 {
                        break;
                    }
                    0
                } else {
                    best[start * 3 + before].0
                };
                let allowed = match kind {
                    Piece::Particle => start > 0 && before != Piece::Unknown as usize,
                    Piece::Unknown => start == 0 || before != Piece::Unknown as usize,
                    Piece::Known => true,
                };
                if from == u32::MAX || !allowed {
                    continue;
                }
                let total = from + cost(kind, len);
                if total < best[end * 3 + k].0 {
                    best[end * 3 + k] = (total, start, before);
                }
            }
        }
    }
    best
}

/// The pieces of the cheapest cover of all `n` characters, as (start, end, kind),
/// in order: the cheapest end state, then back through the table.
fn pieces_of(best: &[(u32, usize, usize)], n: usize) -> Option<Vec<(usize, usize, usize)>> {
    let mut k = (0..3).min_by_key(|&k| best[n * 3 + k].0)?;
    let mut pieces: Vec<(usize, usize, usize)> = Vec::new();
    let mut end = n;
    while end > 0 {
        let (total, start, before) = best[end * 3 + k];
        if total == u32::MAX {
            return None;
        }
        pieces.push((start, end, k));
        end = start;
        k = before;
    }
    pieces.reverse();
    Some(pieces)
}

/// The spacing the pieces make: a particle joins the word before it, as it would be
/// typed; a spacing has two words or more, one of them a known word of two
/// characters or more.
fn spacing_of(word: &str, at: &[usize], pieces: &[(usize, usize, usize)]) -> Option<Spacing> {
    let n = at.len() - 1;
    let mut words: Vec<(String, usize)> = Vec::new();
    let (mut known, mut known_chars, mut long_known) = (true, 0, false);
    for &(start, end, k) in pieces {
        let text = within(word, at[start]..at[end]);
        if k == Piece::Particle as usize {
            if let Some(last) = words.last_mut() {
                last.0.push_str(text);
                if last.1 == Piece::Known as usize {
                    known_chars += end - start;
                }
            }
            continue;
        }
        if k == Piece::Known as usize {
            known_chars += end - start;
            long_known |= end - start >= 2;
        } else {
            known = false;
        }
        words.push((text.to_string(), k));
    }
    (words.len() >= 2 && long_known).then(|| Spacing {
        known,
        coverage: known_chars as f32 / n as f32,
        words: words.into_iter().map(|(w, _)| w).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_cut_where_hangul_meets_latin_and_after_a_counter() {
        assert_eq!(script_pieces("dns레코드가"), ["dns", "레코드가"]);
        assert_eq!(script_pieces("2017년aws장애"), ["2017년", "aws", "장애"]);
        assert_eq!(script_pieces("멀티az"), ["멀티", "az"]);
        assert_eq!(script_pieces("github이"), ["github", "이"]);
        assert_eq!(script_pieces("43초네트워크"), ["43초", "네트워크"]);
        assert_eq!(script_pieces("2월29일윤년"), ["2월", "29일", "윤년"]);
        assert_eq!(script_pieces("깃허브2018년43초"), ["깃허브", "2018년", "43초"]);
        assert_eq!(script_pieces("헤로쿠6월"), ["헤로쿠", "6월"]);
        assert_eq!(script_pieces("ㅇㅊ때문에"), ["ㅇㅊ", "때문에"]);
        assert_eq!(script_pieces("3시간장애"), ["3시간", "장애"]);
        assert_eq!(script_pieces("il-0001장애"), ["il-0001", "장애"]);
        assert_eq!(script_pieces("5xx오류"), ["5xx", "오류"]);
        // Whole: mixed Latin and digits, a year, a word with a number after it.
        for whole in [
            "k8s",
            "s3",
            "us-east-1",
            "il-0001",
            "2017년",
            "버전2",
            "재시도증폭",
            "p99",
        ] {
            assert_eq!(script_pieces(whole), [whole], "{whole}");
        }
        assert_eq!(script_pieces("k8s업그레이드"), ["k8s", "업그레이드"]);
        assert_eq!(script_pieces("s3버킷이"), ["s3", "버킷이"]);
    }

    #[test]
    fn the_cost_prefers_long_known_pieces_and_short_unknown_stretches() {
        assert!(cost(Piece::Known, 3) < cost(Piece::Known, 1));
        assert!(cost(Piece::Known, 1) + cost(Piece::Known, 1) > cost(Piece::Unknown, 2));
        assert!(cost(Piece::Unknown, 1) > cost(Piece::Known, 2));
        assert!(cost(Piece::Particle, 2) < cost(Piece::Known, 2));
    }
}
