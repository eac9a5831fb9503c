//! Hangul arithmetic, in one place: syllables split into lead, vowel and tail, and
//! Hangul at the level of keystrokes: what search-as-you-type, 초성 search, typo
//! tolerance and 한/영 slips need. Shared by the browser and the native search; no
//! tables beyond the jamo themselves.
//!
//! A word is compared as the sequence of keys a 2-set (두벌식) keyboard types for
//! it: `재시도` is ㅈㅐㅅㅣㄷㅗ, `잿` is ㅈㅐㅅ, `싣` is ㅅㅣㄷ. Compound vowels and
//! finals are split into their keys (ㅘ → ㅗㅏ, ㄳ → ㄱㅅ), so every state of typing
//! a word is a prefix of the word's sequence.

/// First precomposed Hangul syllable (가).
const SYLLABLE_BASE: u32 = 0xAC00;
/// Last precomposed Hangul syllable (힣).
const SYLLABLE_LAST: u32 = 0xD7A3;

/// True for a precomposed Hangul syllable (가..힣).
pub fn is_hangul_syllable(c: char) -> bool {
    (SYLLABLE_BASE..=SYLLABLE_LAST).contains(&(c as u32))
}

/// True for any Hangul letter: syllables and compatibility jamo (ㄱ..ㆎ).
pub fn is_hangul(c: char) -> bool {
    is_hangul_syllable(c) || ('\u{3131}'..='\u{318E}').contains(&c) || ('\u{1100}'..='\u{11FF}').contains(&c)
}

/// A Hangul syllable split into its lead (0..19), vowel (0..21) and tail (0..28, 0 =
/// none) indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Syllable {
    /// Initial consonant index.
    pub lead: u32,
    /// Vowel index.
    pub vowel: u32,
    /// Final consonant index; 0 when the syllable has none.
    pub tail: u32,
}

impl Syllable {
    /// Splits `c`, or `None` when it is not a precomposed syllable.
    pub fn of(c: char) -> Option<Syllable> {
        if !is_hangul_syllable(c) {
            return None;
        }
        let s = c as u32 - SYLLABLE_BASE;
        Some(Syllable {
            lead: s / (21 * 28),
            vowel: (s % (21 * 28)) / 28,
            tail: s % 28,
        })
    }

    /// Joins the parts back into a syllable.
    pub fn to_char(self) -> char {
        char::from_u32(SYLLABLE_BASE + (self.lead * 21 + self.vowel) * 28 + self.tail).unwrap_or('\u{FFFD}')
    }
}

/// Tail index of ㄴ, ㄹ, ㅁ and ㅆ, the finals that endings fuse into a stem.
pub mod tail {
    /// ㄴ (된, 한, 걸린)
    pub const NIEUN: u32 = 4;
    /// ㄹ (될, 할)
    pub const RIEUL: u32 = 8;
    /// ㅁ (됨, 함)
    pub const MIEUM: u32 = 16;
    /// ㅆ (했, 됐, 웠)
    pub const SSANGSIOS: u32 = 20;
}

/// The 19 initial consonants, as compatibility jamo.
const LEADS: [char; 19] = [
    'ㄱ', 'ㄲ', 'ㄴ', 'ㄷ', 'ㄸ', 'ㄹ', 'ㅁ', 'ㅂ', 'ㅃ', 'ㅅ', 'ㅆ', 'ㅇ', 'ㅈ', 'ㅉ', 'ㅊ', 'ㅋ', 'ㅌ', 'ㅍ', 'ㅎ',
];
/// The 21 vowels, as compatibility jamo.
const VOWELS: [char; 21] = [
    'ㅏ', 'ㅐ', 'ㅑ', 'ㅒ', 'ㅓ', 'ㅔ', 'ㅕ', 'ㅖ', 'ㅗ', 'ㅘ', 'ㅙ', 'ㅚ', 'ㅛ', 'ㅜ', 'ㅝ', 'ㅞ', 'ㅟ', 'ㅠ', 'ㅡ',
    'ㅢ', 'ㅣ',
];
/// The 27 finals (index 1..=27), as compatibility jamo; index 0 is "none".
const TAILS: [char; 28] = [
    '\0', 'ㄱ', 'ㄲ', 'ㄳ', 'ㄴ', 'ㄵ', 'ㄶ', 'ㄷ', 'ㄹ', 'ㄺ', 'ㄻ', 'ㄼ', 'ㄽ', 'ㄾ', 'ㄿ', 'ㅀ', 'ㅁ', 'ㅂ', 'ㅄ',
    'ㅅ', 'ㅆ', 'ㅇ', 'ㅈ', 'ㅊ', 'ㅋ', 'ㅌ', 'ㅍ', 'ㅎ',
];
/// Compound vowels and the two keys that type them.
const VOWEL_PAIRS: [(char, char, char); 7] = [
    ('ㅘ', 'ㅗ', 'ㅏ'),
    ('ㅙ', 'ㅗ', 'ㅐ'),
    ('ㅚ', 'ㅗ', 'ㅣ'),
    ('ㅝ', 'ㅜ', 'ㅓ'),
    ('ㅞ', 'ㅜ', 'ㅔ'),
    ('ㅟ', 'ㅜ', 'ㅣ'),
    ('ㅢ', 'ㅡ', 'ㅣ'),
];
/// Compound finals and the two keys that type them.
const TAIL_PAIRS: [(char, char, char); 11] = [
    ('ㄳ', 'ㄱ', 'ㅅ'),
    ('ㄵ', 'ㄴ', 'ㅈ'),
    ('ㄶ', 'ㄴ', 'ㅎ'),
    ('ㄺ', 'ㄹ', 'ㄱ'),
    ('ㄻ', 'ㄹ', 'ㅁ'),
    ('ㄼ', 'ㄹ', 'ㅂ'),
    ('ㄽ', 'ㄹ', 'ㅅ'),
    ('ㄾ', 'ㄹ', 'ㅌ'),
    ('ㄿ', 'ㄹ', 'ㅍ'),
    ('ㅀ', 'ㄹ', 'ㅎ'),
    ('ㅄ', 'ㅂ', 'ㅅ'),
];

/// Maps a conjoining jamo (what NFKC makes of ㅈ) to its compatibility form;
/// other characters are returned as they are.
pub fn to_compatibility(c: char) -> char {
    let u = c as u32;
    match u {
        0x1100..=0x1112 => LEADS[(u - 0x1100) as usize],
        0x1161..=0x1175 => VOWELS[(u - 0x1161) as usize],
        0x11A8..=0x11C2 => TAILS[(u - 0x11A8 + 1) as usize],
        _ => c,
    }
}

/// The first and last syllable that typing `c` can still become: for a syllable,
/// every syllable with its initial and vowel (재 or 잿 → 재..잿's block, since the
/// final may still move on); for a lone initial consonant, every syllable it
/// starts (ㅈ → 자..짛). `None` for anything else.
pub fn syllable_block(c: char) -> Option<(char, char)> {
    let base = SYLLABLE_BASE;
    let (first, len) = match Syllable::of(c) {
        Some(s) => (base + (s.lead * 21 + s.vowel) * 28, 28),
        None => (base + LEADS.iter().position(|&l| l == c)? as u32 * 21 * 28, 21 * 28),
    };
    Some((char::from_u32(first)?, char::from_u32(first + len - 1)?))
}

/// True for a compatibility consonant (ㄱ..ㅎ).
pub fn is_consonant(c: char) -> bool {
    ('ㄱ'..='ㅎ').contains(&c)
}

/// True for a compatibility vowel (ㅏ..ㅣ).
pub fn is_vowel(c: char) -> bool {
    ('ㅏ'..='ㅣ').contains(&c)
}

/// Gives `key` the key of `c`, or the two keys of a compound vowel or final;
/// false as soon as `key` returns false.
fn split_keys(c: char, key: &mut impl FnMut(char) -> bool) -> bool {
    if let Some(&(_, a, b)) = VOWEL_PAIRS.iter().chain(TAIL_PAIRS.iter()).find(|p| p.0 == c) {
        key(a) && key(b)
    } else {
        key(c)
    }
}

/// Gives `key` the keys a 2-set keyboard types for `word`, in order, until it
/// returns false; false when it did.
fn each_key(word: &str, mut key: impl FnMut(char) -> bool) -> bool {
    for c in word.chars() {
        let more = match Syllable::of(c) {
            Some(s) => {
                key(LEADS[s.lead as usize])
                    && split_keys(VOWELS[s.vowel as usize], &mut key)
                    && (s.tail == 0 || split_keys(TAILS[s.tail as usize], &mut key))
            }
            None => split_keys(c, &mut key),
        };
        if !more {
            return false;
        }
    }
    true
}

/// The keys a 2-set keyboard types for `word`; other characters stand for themselves.
pub fn keys(word: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(word.len());
    each_key(word, |k| {
        out.push(k);
        true
    });
    out
}

/// True when [`keys`] of `word` start with `prefix`: when `prefix` is the keys of
/// what a 2-set keyboard shows at some point while typing `word` (`잿` and `재싣`
/// for `재시도`). Found without making the keys: the comparison stops at the first
/// key that differs (search as you type asks this of thousands of terms).
pub fn keys_start_with(word: &str, prefix: &[char]) -> bool {
    let (mut at, mut differs) = (0, false);
    each_key(word, |k| {
        if at == prefix.len() {
            return false;
        }
        differs = prefix[at] != k;
        at += 1;
        !differs
    });
    !differs && at == prefix.len()
}

/// The initial consonant of every syllable of `word`, or `None` when it has a
/// character that is not a Hangul syllable.
pub fn initials(word: &str) -> Option<Vec<char>> {
    word.chars()
        .map(|c| Syllable::of(c).map(|s| LEADS[s.lead as usize]))
        .collect()
}

/// True when `word` is made only of compatibility consonants (a 초성 query: ㅈㅅㄷ).
pub fn is_initials_query(word: &str) -> bool {
    word.chars().count() >= 2 && word.chars().all(is_consonant)
}

/// A 64-bit set of the keys in `keys` (each key sets bit `key % 64`). An edit
/// changes at most two of these bits, so two sequences whose signatures differ in
/// more than `2 * max` bits are more than `max` edits apart: a cheap test before
/// [`edit_distance`].
pub fn signature(keys: &[char]) -> u64 {
    keys.iter().fold(0, |s, &k| s | 1u64 << (k as u32 % 64))
}

/// Edit distance between two key sequences (insertions, deletions, substitutions
/// and swaps of neighbouring keys, each one edit: `iptalbes` is one from
/// `iptables`), or `None` when it exceeds `max`. Rows stop early once every cell is
/// past `max`, so the cost is about `max` times the length.
pub fn edit_distance(a: &[char], b: &[char], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    // Three rows: two back (for swaps), one back, and the current one.
    let w = b.len() + 1;
    let mut rows = vec![0usize; 3 * w];
    for (j, cell) in rows[w..2 * w].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        let (older, rest) = rows.split_at_mut(w);
        let (prev, cur) = rest.split_at_mut(w);
        cur[0] = i;
        let mut row_min = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(older[j - 2] + 1);
            }
            cur[j] = d;
            row_min = row_min.min(d);
        }
        if row_min > max {
            return None;
        }
        // Rotate: older <- prev, prev <- cur; the new cur is overwritten next round.
        rows.rotate_left(w);
    }
    let last = rows[w + b.len()];
    (last <= max).then_some(last)
}

/// The jamo a 2-set keyboard key types (`w` → ㅈ, `W` → ㅉ).
fn jamo_of_key(c: char) -> Option<char> {
    const LOWER: &str = "ㅁㅠㅊㅇㄷㄹㅎㅗㅑㅓㅏㅣㅡㅜㅐㅔㅂㄱㄴㅅㅕㅍㅈㅌㅛㅋ";
    let shifted = match c {
        'Q' => Some('ㅃ'),
        'W' => Some('ㅉ'),
        'E' => Some('ㄸ'),
        'R' => Some('ㄲ'),
        'T' => Some('ㅆ'),
        'O' => Some('ㅒ'),
        'P' => Some('ㅖ'),
        _ => None,
    };
    shifted.or_else(|| {
        let l = c.to_ascii_lowercase();
        l.is_ascii_lowercase()
            .then(|| LOWER.chars().nth((l as u8 - b'a') as usize))
            .flatten()
    })
}

/// Reads Latin letters as 2-set keyboard keys and composes the Hangul they would
/// have typed with the input method on (`wotleh` → `재시도`). `None` when a
/// character is not a letter key.
pub fn from_keyboard(latin: &str) -> Option<String> {
    let jamo: Option<Vec<char>> = latin.chars().map(jamo_of_key).collect();
    Some(compose(&jamo?))
}

fn lead_index(c: char) -> Option<u32> {
    LEADS.iter().position(|&l| l == c).map(|i| i as u32)
}

fn vowel_index(c: char) -> Option<u32> {
    VOWELS.iter().position(|&v| v == c).map(|i| i as u32)
}

fn tail_index(c: char) -> Option<u32> {
    TAILS.iter().position(|&t| t == c && c != '\0').map(|i| i as u32)
}

fn combine(pairs: &[(char, char, char)], a: char, b: char) -> Option<char> {
    pairs.iter().find(|p| p.1 == a && p.2 == b).map(|p| p.0)
}

/// Composes a sequence of jamo keys into syllables, as a 2-set input method does.
pub fn compose(keys: &[char]) -> String {
    #[derive(Default)]
    struct Cur {
        lead: Option<char>,
        vowel: Option<char>,
        tail: Option<char>,
    }
    fn flush(cur: &mut Cur, out: &mut String) {
        match (cur.lead, cur.vowel) {
            (Some(l), Some(v)) => {
                let (Some(li), Some(vi)) = (lead_index(l), vowel_index(v)) else {
                    return;
                };
                let ti = cur.tail.and_then(tail_index).unwrap_or(0);
                out.push(
                    Syllable {
                        lead: li,
                        vowel: vi,
                        tail: ti,
                    }
                    .to_char(),
                );
            }
            (Some(l), None) => out.push(l),
            (None, Some(v)) => out.push(v),
            (None, None) => {}
        }
        *cur = Cur::default();
    }
    let mut out = String::new();
    let mut cur = Cur::default();
    for &k in keys {
        if is_consonant(k) {
            match (cur.lead, cur.vowel, cur.tail) {
                (None, None, _) => cur.lead = Some(k),
                (Some(_), None, _) | (None, Some(_), _) => {
                    flush(&mut cur, &mut out);
                    cur.lead = Some(k);
                }
                (Some(_), Some(_), None) if tail_index(k).is_some() => cur.tail = Some(k),
                (Some(_), Some(_), Some(t)) if combine(&TAIL_PAIRS, t, k).is_some() => {
                    cur.tail = combine(&TAIL_PAIRS, t, k)
                }
                _ => {
                    flush(&mut cur, &mut out);
                    cur.lead = Some(k);
                }
            }
        } else if is_vowel(k) {
            match (cur.lead, cur.vowel, cur.tail) {
                (Some(_), None, _) => cur.vowel = Some(k),
                (_, Some(v), None) if combine(&VOWEL_PAIRS, v, k).is_some() => cur.vowel = combine(&VOWEL_PAIRS, v, k),
                (Some(_), Some(_), Some(t)) => {
                    // The final moves to the new syllable (재시 from ㅈㅐㅅ + ㅣ); a
                    // compound final leaves its first half behind.
                    let (keep, moved) = match TAIL_PAIRS.iter().find(|p| p.0 == t) {
                        Some(&(_, a, b)) => (Some(a), b),
                        None => (None, t),
                    };
                    cur.tail = keep;
                    flush(&mut cur, &mut out);
                    cur.lead = Some(moved);
                    cur.vowel = Some(k);
                }
                _ => {
                    flush(&mut cur, &mut out);
                    cur.vowel = Some(k);
                }
            }
        } else {
            flush(&mut cur, &mut out);
            out.push(k);
        }
    }
    flush(&mut cur, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syllables_round_trip() {
        for c in ['가', '힣', '했', '재', '웠'] {
            assert_eq!(Syllable::of(c).unwrap().to_char(), c);
        }
        let s = Syllable::of('했').unwrap();
        assert_eq!(s.tail, tail::SSANGSIOS);
        assert_eq!(Syllable::of('a'), None);
    }

    fn k(s: &str) -> String {
        keys(s).into_iter().collect()
    }

    #[test]
    fn keys_split_syllables_compounds_and_finals() {
        assert_eq!(k("재시도"), "ㅈㅐㅅㅣㄷㅗ");
        assert_eq!(k("잿"), "ㅈㅐㅅ");
        assert_eq!(k("과부하"), "ㄱㅗㅏㅂㅜㅎㅏ");
        assert_eq!(k("닭"), "ㄷㅏㄹㄱ");
        assert_eq!(k("dns"), "dns");
    }

    #[test]
    fn every_typing_state_of_a_word_is_a_prefix() {
        for state in ["ㅈ", "재", "잿", "재시", "재싣", "재시도"] {
            assert!(keys_start_with("재시도", &keys(state)), "{state}");
        }
        assert!(!keys_start_with("재시도", &keys("재사")));
    }

    #[test]
    fn keys_start_with_agrees_with_the_keys_made_whole() {
        let words = [
            "재시도",
            "잿",
            "과부하",
            "닭",
            "닭갈비",
            "dns",
            "",
            "됨",
            "되면",
            "됬",
            "웨ㅂ",
            "ㄳ",
        ];
        for word in words {
            for prefix in words {
                let prefix = keys(prefix);
                assert_eq!(
                    keys_start_with(word, &prefix),
                    keys(word).starts_with(&prefix),
                    "{word} / {prefix:?}"
                );
            }
        }
    }

    #[test]
    #[cfg(feature = "unicode")]
    fn conjoining_jamo_map_back() {
        use unicode_normalization::UnicodeNormalization;
        let nfkc: String = "ㅈㅅㄷ ㅏ ㄳ".nfkc().collect();
        assert_ne!(nfkc, "ㅈㅅㄷ ㅏ ㄳ");
        assert_eq!(nfkc.chars().map(to_compatibility).collect::<String>(), "ㅈㅅㄷ ㅏ ㄳ");
    }

    #[test]
    fn initials_of_words() {
        assert_eq!(initials("재시도").unwrap(), ['ㅈ', 'ㅅ', 'ㄷ']);
        assert!(initials("dns").is_none());
        assert!(is_initials_query("ㅈㅅㄷ"));
        assert!(!is_initials_query("ㅈ"));
        assert!(!is_initials_query("재ㅅ"));
    }

    #[test]
    fn one_jamo_edit() {
        assert_eq!(edit_distance(&keys("재시두"), &keys("재시도"), 1), Some(1));
        assert_eq!(edit_distance(&keys("재시도"), &keys("재시도"), 1), Some(0));
        assert_eq!(edit_distance(&keys("제시두"), &keys("재시도"), 1), None);
    }

    #[test]
    fn keyboard_slips_compose_to_hangul() {
        assert_eq!(from_keyboard("wotleh").as_deref(), Some("재시도"));
        assert_eq!(from_keyboard("cjfl").as_deref(), Some("처리"));
        assert_eq!(from_keyboard("rhkqngk").as_deref(), Some("과부하"));
        assert_eq!(from_keyboard("ekfr").as_deref(), Some("닭"));
        assert_eq!(from_keyboard("ekfrl").as_deref(), Some("달기"));
        assert_eq!(from_keyboard("ekfrdl").as_deref(), Some("닭이"));
        assert_eq!(from_keyboard("dks").as_deref(), Some("안"));
        assert_eq!(from_keyboard("us-east").as_deref(), None);
    }

    use proptest::prelude::*;

    /// Words of Hangul syllables (any of the 11,172).
    fn syllables() -> impl Strategy<Value = String> {
        proptest::collection::vec(0xAC00u32..=0xD7A3, 1..8)
            .prop_map(|cs| cs.into_iter().filter_map(char::from_u32).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Typing a word's keys composes the word again, as the input method does.
        #[test]
        fn composing_a_words_keys_gives_the_word(word in syllables()) {
            prop_assert_eq!(compose(&keys(&word)), word);
        }

        /// Every start of a word's keys is a start of its keys, as a search as you
        /// type asks; a key sequence one key longer than the word's is not.
        #[test]
        fn every_start_of_the_keys_is_found(word in syllables(), cut in 0usize..40) {
            let k = keys(&word);
            let cut = cut.min(k.len());
            prop_assert!(keys_start_with(&word, &k[..cut]));
            let mut longer = k.clone();
            longer.push('ㄱ');
            prop_assert!(!keys_start_with(&word, &longer));
        }

        /// The edit distance is zero to itself, the same both ways, never over its
        /// bound, and the signature test never rules out a pair within it.
        #[test]
        fn edit_distance_is_a_bounded_metric(a in syllables(), b in syllables(), max in 0usize..4) {
            let (ka, kb) = (keys(&a), keys(&b));
            prop_assert_eq!(edit_distance(&ka, &ka, max), Some(0));
            let d = edit_distance(&ka, &kb, max);
            prop_assert_eq!(d, edit_distance(&kb, &ka, max));
            if let Some(d) = d {
                prop_assert!(d <= max);
                prop_assert!((signature(&ka) ^ signature(&kb)).count_ones() as usize <= 2 * d);
            }
        }

        /// A word's initials are consonants, one a syllable; any Latin text read as
        /// keyboard keys gives Hangul or nothing, never a panic.
        #[test]
        fn initials_and_keyboard_reading(word in syllables(), latin in "[a-zA-Z ]{0,16}") {
            let initials = initials(&word).unwrap();
            prop_assert_eq!(initials.len(), word.chars().count());
            prop_assert!(initials.iter().all(|&c| is_consonant(c)));
            let _ = from_keyboard(&latin);
        }
    }
}
