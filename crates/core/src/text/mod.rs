//! Character-level text helpers shared by the indexer and the query analyzer:
//! normalisation, script classes and the splitting of Latin tokens. Hangul syllable
//! arithmetic lives in [`hangul`], Korean particles and endings in [`particles`].
//!
//! Nothing here knows about lindera, so the browser runs exactly this code.

pub mod hangul;
pub mod particles;

use hangul::is_hangul;

/// Normalises text the same way on both sides: NFKC (full-width Latin, compatibility
/// jamo and the like fold to their ordinary forms; Hangul syllables stay whole,
/// because NFKC composes rather than decomposes), then lower-cases Latin.
///
/// Native builds use `unicode-normalization`; the wasm module asks the browser's own
/// `String.prototype.normalize`, which implements the same Unicode algorithm, so the
/// module does not carry the tables.
pub fn normalize(text: &str) -> String {
    lower(&nfkc(text))
}

/// Lower-cases text. The wasm module asks the browser (`toLowerCase`), so it does
/// not carry Unicode case tables; both follow the Unicode default case mapping.
#[cfg(any(feature = "unicode", not(feature = "js")))]
pub fn lower(text: &str) -> String {
    text.to_lowercase()
}

/// Lower-cases text. The wasm module asks the browser (`toLowerCase`), so it does
/// not carry Unicode case tables; both follow the Unicode default case mapping.
#[cfg(all(not(feature = "unicode"), feature = "js"))]
pub fn lower(text: &str) -> String {
    // ASCII and Hangul syllables (which have no case) are most of what is typed,
    // and a call into the browser costs more than a search's scoring of a word.
    if text.chars().all(is_ascii_or_syllable) {
        return text.to_ascii_lowercase();
    }
    String::from(js_sys::JsString::from(text).to_lower_case())
}

/// True for ASCII and precomposed Hangul syllables: characters that NFKC and
/// lower-casing leave as they are (except ASCII capitals, which lower-case), and
/// that never compose with a neighbour of the same kind.
#[cfg(all(not(feature = "unicode"), feature = "js"))]
fn is_ascii_or_syllable(c: char) -> bool {
    c.is_ascii() || hangul::is_hangul_syllable(c)
}

/// True for a letter or a digit: Unicode's Alphabetic or Numeric, as
/// [`char::is_alphanumeric`] reads them. The wasm module asks the browser for what is
/// neither ASCII nor Hangul (`\p{Alphabetic}`, `\p{N}`), so that it does not carry
/// the tables of those properties, about 4 KB under gzip.
pub fn is_alphanumeric(c: char) -> bool {
    #[cfg(all(not(feature = "unicode"), feature = "js"))]
    {
        if c.is_ascii() {
            return c.is_ascii_alphanumeric();
        }
        // Every Hangul syllable and jamo is a letter (Lo), and is most of what is typed.
        if is_hangul(c) {
            return true;
        }
        thread_local! {
            static LETTER_OR_DIGIT: js_sys::RegExp = js_sys::RegExp::new(r"^[\p{Alphabetic}\p{N}]$", "u");
        }
        LETTER_OR_DIGIT.with(|re| re.test(c.encode_utf8(&mut [0; 4])))
    }
    #[cfg(any(feature = "unicode", not(feature = "js")))]
    c.is_alphanumeric()
}

/// NFKC only (no case folding); see [`normalize`].
#[cfg(feature = "unicode")]
pub fn nfkc(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.nfkc().collect()
}

/// NFKC only (no case folding); see [`normalize`].
#[cfg(all(not(feature = "unicode"), feature = "js"))]
pub fn nfkc(text: &str) -> String {
    // Text of only ASCII and Hangul syllables is in NFKC already: no call into the
    // browser for it.
    if text.chars().all(is_ascii_or_syllable) {
        return text.to_string();
    }
    String::from(js_sys::JsString::from(text).normalize("NFKC"))
}

/// NFKC only (no case folding); see [`normalize`].
#[cfg(all(not(feature = "unicode"), not(feature = "js")))]
pub fn nfkc(text: &str) -> String {
    // Without either back end only the folds that matter for search are applied:
    // full-width ASCII and the ideographic space.
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            _ => c,
        })
        .collect()
}

/// The script class of a character, for splitting mixed tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Script {
    /// Hangul syllables and jamo.
    Hangul,
    /// ASCII letters (after normalisation).
    Latin,
    /// ASCII digits.
    Digit,
    /// Anything else that can be part of a word (other letters, CJK ideographs).
    Other,
}

/// Classifies `c`.
pub fn script(c: char) -> Script {
    if is_hangul(c) {
        Script::Hangul
    } else if c.is_ascii_alphabetic() {
        Script::Latin
    } else if c.is_ascii_digit() {
        Script::Digit
    } else {
        Script::Other
    }
}

/// True for characters that belong inside a word. Hyphen, dot, slash and underscore
/// are kept so that `us-east-1`, `node.js` and `p99` survive as one token; they are
/// trimmed from the ends by [`words`].
pub fn is_word_char(c: char) -> bool {
    is_alphanumeric(c) || matches!(c, '-' | '_' | '.' | '/' | '+' | '#')
}

/// Splits normalised text into words (eojeol): runs of word characters, with
/// joiners trimmed from both ends.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_word_char(c))
        .map(|w| w.trim_matches(|c: char| !is_alphanumeric(c)))
        .filter(|w| !w.is_empty())
}

/// The part of `text` in `range` (byte offsets), or "" when the range does not
/// fall on its characters. Offsets worked out from the text itself always do; a
/// bad one then costs no panic, whose message and its formatting (char's Debug
/// with its Unicode tables) weighed 4 KB under gzip in the browser module.
pub fn within<R: std::slice::SliceIndex<str, Output = str>>(text: &str, range: R) -> &str {
    text.get(range).unwrap_or_default()
}

/// The pieces of a Latin/digit token, split on hyphen-like joiners and on letter,
/// digit and case boundaries. The whole token is not included; single characters
/// and numbers of fewer than three digits are dropped, and duplicates removed, in
/// order of appearance.
///
/// `us-central1` → `us`, `central1`, `central`; `OOMKilled` (before lower-casing)
/// → `oom`, `killed`; `5XX` → `xx`.
pub fn latin_parts(token: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let whole = lower(token);
    let mut push = |s: &str| {
        let s = lower(s);
        // One character, or a number shorter than three digits, says nothing alone.
        let too_short = s.chars().count() < 2 || (s.bytes().all(|b| b.is_ascii_digit()) && s.len() < 3);
        if !too_short && s != whole && !out.contains(&s) {
            out.push(s);
        }
    };
    let pieces: Vec<&str> = token
        .split(['-', '_', '.', '/', '+', '#'])
        .filter(|p| !p.is_empty())
        .collect();
    for piece in &pieces {
        if pieces.len() > 1 {
            push(piece);
        }
        for sub in case_digit_split(piece) {
            push(sub);
        }
    }
    out
}

/// Splits on letter/digit boundaries and on lower→upper and UPPER→Upperlower case
/// changes (`OOMKilled` → `OOM`, `Killed`). Returns nothing when there is no boundary.
fn case_digit_split(piece: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = piece.char_indices().collect();
    let mut cuts = Vec::new();
    for i in 1..chars.len() {
        let (_, prev) = chars[i - 1];
        let (at, cur) = chars[i];
        let next = chars.get(i + 1).map(|&(_, c)| c);
        let boundary = (prev.is_ascii_digit() != cur.is_ascii_digit())
            || (prev.is_ascii_lowercase() && cur.is_ascii_uppercase())
            || (prev.is_ascii_uppercase() && cur.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()));
        if boundary {
            cuts.push(at);
        }
    }
    if cuts.is_empty() {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let mut start = 0;
    for cut in cuts {
        parts.push(within(piece, start..cut));
        start = cut;
    }
    parts.push(within(piece, start..));
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_folds_width_and_case_but_keeps_hangul() {
        assert_eq!(normalize("ＯＯＭＫｉｌｌｅｄ 재시도"), "oomkilled 재시도");
    }

    #[test]
    fn latin_parts_split_on_hyphen_digit_and_case() {
        assert_eq!(latin_parts("us-central1"), ["us", "central1", "central"]);
        assert_eq!(latin_parts("OOMKilled"), ["oom", "killed"]);
        assert_eq!(latin_parts("5XX"), ["xx"]);
        assert_eq!(latin_parts("HTTP/503"), ["http", "503"]);
        assert!(latin_parts("dns").is_empty());
    }

    #[test]
    fn words_trim_joiners() {
        let w: Vec<&str> = words("(us-east-1) 에서, node.js. 5XX!").collect();
        assert_eq!(w, ["us-east-1", "에서", "node.js", "5XX"]);
    }
}
