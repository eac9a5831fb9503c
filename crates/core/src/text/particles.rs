//! The particle and ending rule table: turns an eojeol (a space-delimited Korean
//! word) into its bare form by removing one trailing particle (조사) or predicate
//! ending (어미).
//!
//! The indexer applies [`bare`] to every eojeol of a record and the query analyzer
//! applies it to every query word, in the browser as natively, so `재시도를`,
//! `재시도가` and `재시도는` all meet the indexed `재시도`. The table is deliberately
//! small and conservative: it removes the longest listed suffix, and only when
//! enough of the word is left that the rest is unlikely to be part of the stem.
//!
//! ```
//! use incident_core::text::particles::bare;
//! assert_eq!(bare("재시도를").as_deref(), Some("재시도"));
//! assert_eq!(bare("삭제했다").as_deref(), Some("삭제"));
//! assert_eq!(bare("재시작되는").as_deref(), Some("재시작"));
//! assert_eq!(bare("비웠다").as_deref(), Some("비우"));
//! assert_eq!(bare("dns가").as_deref(), Some("dns"));
//! assert_eq!(bare("평가"), None); // 가 is part of the noun: one syllable would remain
//! ```

use crate::text::hangul::{tail, Syllable};
use crate::text::{script, Script};

/// Particles that follow nouns, and endings that follow predicate stems or the
/// verb-forming 하다/되다/시키다. Any order; [`bare`] tries the longest match first.
pub const SUFFIXES: &[&str] = &[
    // 하다 / 되다 / 시키다 after a noun: 삭제했다, 재시작되는, 중단시켰다
    "했습니다",
    "했으므로",
    "했지만",
    "했는데",
    "했으나",
    "했으며",
    "했다가",
    "했다고",
    "했다는",
    "했던",
    "했고",
    "했다",
    "했을",
    "했음",
    "합니다",
    "하였다",
    "하였고",
    "하면서",
    "하는데",
    "하지만",
    "하므로",
    "하도록",
    "하려고",
    "하려는",
    "하거나",
    "하기",
    "하게",
    "하고",
    "하는",
    "하며",
    "하면",
    "하여",
    "하지",
    "한다",
    "해서",
    "해도",
    "해야",
    "할",
    "한",
    "함",
    "해",
    "하다",
    "되었습니다",
    "됐습니다",
    "되었다",
    "되었고",
    "되었던",
    "되면서",
    "되는데",
    "되지만",
    "되도록",
    "되므로",
    "되거나",
    "되어서",
    "됐는데",
    "됐지만",
    "됐으며",
    "됐다가",
    "됐던",
    "됐고",
    "됐다",
    "됐을",
    "된다",
    "되기",
    "되게",
    "되고",
    "되는",
    "되며",
    "되면",
    "되어",
    "되지",
    "돼서",
    "돼도",
    "된",
    "될",
    "됨",
    "돼",
    "되다",
    "시켰다",
    "시켰고",
    "시키는",
    "시키고",
    "시키며",
    "시킨",
    "시킬",
    "시켜",
    // the copula after a noun: 원인이었다, 변경이다
    "이었습니다",
    "이었다",
    "이었고",
    "이었던",
    "이라는",
    "이라고",
    "이므로",
    "이지만",
    "이며",
    "이고",
    "이다",
    "였다",
    "였고",
    "였던",
    "입니다",
    "인",
    "라는",
    // endings after a predicate stem: 비우는, 늘었다, 걸렸고
    "었습니다",
    "았습니다",
    "었는데",
    "았는데",
    "었지만",
    "았지만",
    "었으며",
    "았으며",
    "었던",
    "았던",
    "었고",
    "았고",
    "었다",
    "았다",
    "습니다",
    "는다",
    "는데",
    "지만",
    "으며",
    "으면",
    "으나",
    "어서",
    "아서",
    "도록",
    "거나",
    "려고",
    "다가",
    "던",
    "는",
    "다",
    "고",
    "며",
    "면",
    // particles after a noun: 재시도를, 리전에서는, 캐시까지
    "에서부터",
    "으로부터",
    "에서는",
    "에서도",
    "에서의",
    "에게서",
    "으로는",
    "으로도",
    "으로의",
    "으로서",
    "으로써",
    "까지는",
    "까지도",
    "부터는",
    "에서",
    "에게",
    "에는",
    "에도",
    "에의",
    "으로",
    "로는",
    "로도",
    "로서",
    "로써",
    "로의",
    "까지",
    "부터",
    "보다",
    "처럼",
    "만큼",
    "마다",
    "조차",
    "밖에",
    "이나",
    "이나마",
    "이랑",
    "과는",
    "와는",
    "과도",
    "와도",
    "과의",
    "와의",
    "만의",
    "만을",
    "만이",
    "만은",
    "은",
    "이",
    "가",
    "을",
    "를",
    "의",
    "에",
    "로",
    "와",
    "과",
    "도",
    "만",
    "나",
];

/// The bare form of `word` (already normalised), or `None` when no rule applies.
///
/// A Latin or digit word with a Hangul particle (`dns가`, `us-east-1에서`) loses the
/// Hangul part. A Hangul word loses its longest listed suffix when at least two
/// syllables remain (one for suffixes of two or more syllables); a fused past-tense
/// final syllable is then restored to its stem.
pub fn bare(word: &str) -> Option<String> {
    let first_hangul = word.char_indices().find(|&(_, c)| script(c) == Script::Hangul);
    match first_hangul {
        None => None,
        Some((0, _)) => strip_hangul(word),
        Some((at, _)) => {
            let (head, rest) = word.split_at_checked(at)?;
            let rest_is_suffix = is_suffix_only(rest)
                || rest.chars().all(|c| script(c) == Script::Hangul)
                    && strip_hangul(rest).is_none()
                    && rest.chars().count() <= 2;
            (rest_is_suffix && head.chars().all(|c| script(c) != Script::Hangul))
                .then(|| head.trim_end_matches(|c: char| !super::is_alphanumeric(c)).to_string())
        }
    }
}

/// The [`SUFFIXES`] whose last character is `last`, in table order. Each word of
/// a record is tried against the table, and most suffixes fail on their last
/// character: grouping by it leaves a few to compare instead of two hundred.
fn suffixes_ending_in(last: char) -> &'static [&'static str] {
    /// The suffixes sorted by last character (stably: each group keeps the table's
    /// order), beside their last characters.
    static BY_LAST: std::sync::OnceLock<(Vec<char>, Vec<&'static str>)> = std::sync::OnceLock::new();
    let (lasts, suffixes) = BY_LAST.get_or_init(|| {
        let mut table: Vec<(char, &str)> = SUFFIXES
            .iter()
            .filter_map(|&s| Some((s.chars().next_back()?, s)))
            .collect();
        // The crate's one stable sort: another would add its own copy to the
        // browser module.
        crate::stable_sort::sort_by(&mut table, |a, b| a.0.cmp(&b.0));
        (
            table.iter().map(|&(c, _)| c).collect(),
            table.iter().map(|&(_, s)| s).collect(),
        )
    });
    let start = lasts.partition_point(|&c| c < last);
    let end = lasts.partition_point(|&c| c <= last);
    &suffixes[start..end]
}

fn strip_hangul(word: &str) -> Option<String> {
    let len = word.chars().count();
    let mut best: Option<&str> = None;
    let last = word.chars().next_back()?;
    for &suffix in suffixes_ending_in(last) {
        if !word.ends_with(suffix) || best.is_some_and(|b| b.len() >= suffix.len()) {
            continue;
        }
        let slen = suffix.chars().count();
        let min_rest = if slen == 1 { 2 } else { 1 };
        if len >= slen + min_rest {
            best = Some(suffix);
        }
    }
    let rest = crate::text::within(word, ..word.len() - best?.len());
    Some(restore_fused(rest))
}

/// Stems a predicate form may come from, for the query: the word without a final
/// ㄴ, ㄹ or ㅁ on its last syllable (들어간 → 들어가, 멈춤 → 멈추, 끊김 → 끊기), and with
/// a fused 어/아 undone (떨어져 → 떨어지, 비워 → 비우). The query keeps only those the
/// vocabulary has, so wrong guesses cost nothing.
pub fn stems(word: &str) -> Vec<String> {
    let mut out = stem_forms(word);
    // A connective ending on a passive or plain stem: 비워지자 → 비워지 → 비워 → 비우.
    let chars: Vec<char> = word.chars().collect();
    if chars.len() >= 2 && CONNECTIVES.contains(&chars[chars.len() - 1]) {
        let head: String = chars[..chars.len() - 1].iter().collect();
        out.push(head.clone());
        let mut inner = stem_forms(&head);
        if head.ends_with('지') && head.chars().count() >= 3 {
            let without: String = head.chars().take(head.chars().count() - 1).collect();
            inner.extend(stem_forms(&without));
            inner.push(without);
        }
        out.extend(inner);
    }
    out.dedup();
    out
}

/// Connective endings that [`stems`] removes from a predicate: 비워지자, 멈추고.
const CONNECTIVES: [char; 7] = ['자', '고', '며', '면', '서', '니', '게'];

fn stem_forms(word: &str) -> Vec<String> {
    let mut chars: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    let Some(last) = chars.pop() else { return out };
    let Some(s) = Syllable::of(last) else { return out };
    if chars.is_empty() {
        return out;
    }
    let head: String = chars.iter().collect();
    if matches!(s.tail, tail::NIEUN | tail::RIEUL | tail::MIEUM) {
        out.push(format!("{head}{}", Syllable { tail: 0, ..s }.to_char()));
    }
    if s.tail == 0 {
        if let Some(v) = unfused_vowel(s.vowel) {
            out.push(format!("{head}{}", Syllable { vowel: v, ..s }.to_char()));
        }
    }
    out
}

/// True when `word` is nothing but a particle or ending, as when a particle is
/// written apart from a Latin word (`us-central1 에서`): such a word carries no
/// content and is neither indexed nor searched.
pub fn is_suffix_only(word: &str) -> bool {
    word.len() <= LONGEST_SUFFIX && SUFFIXES.contains(&word)
}

/// The byte length of the longest of [`SUFFIXES`]: a longer word is none of them.
const LONGEST_SUFFIX: usize = {
    let mut longest = 0;
    let mut i = 0;
    while i < SUFFIXES.len() {
        if SUFFIXES[i].len() > longest {
            longest = SUFFIXES[i].len();
        }
        i += 1;
    }
    longest
};

/// Undoes a past tense fused into the last syllable of a stem, by its vowel:
/// ㅝ → ㅜ (비웠 → 비우, 멈췄 → 멈추), ㅘ → ㅗ (봤 → 보), ㅕ → ㅣ (끊겼 → 끊기),
/// ㅙ → ㅚ (됐 → 되), 했 → 하; any other ㅆ final is dropped (찼 → 차).
fn restore_fused(rest: &str) -> String {
    let mut chars: Vec<char> = rest.chars().collect();
    if let Some(s) = chars.last().and_then(|&c| Syllable::of(c)) {
        if s.tail == tail::SSANGSIOS && chars.len() >= 2 {
            let vowel = match s.vowel {
                vowel::AE if s.lead == lead::HIEUH => vowel::A,
                v => unfused_vowel(v).unwrap_or(v),
            };
            chars.pop();
            chars.push(
                Syllable {
                    lead: s.lead,
                    vowel,
                    tail: 0,
                }
                .to_char(),
            );
        }
    }
    chars.into_iter().collect()
}

/// The stem vowel an ending's 어/아 fused with: ㅕ → ㅣ (지+어), ㅝ → ㅜ (우+어),
/// ㅘ → ㅗ (오+아), ㅙ → ㅚ (되+어).
fn unfused_vowel(v: u32) -> Option<u32> {
    match v {
        vowel::YEO => Some(vowel::I),
        vowel::WEO => Some(vowel::U),
        vowel::WA => Some(vowel::O),
        vowel::WAE => Some(vowel::OE),
        _ => None,
    }
}

/// Vowel indices used by [`restore_fused`].
mod stopwords;

pub use stopwords::{is_query_stopword, is_stopword, QUERY_STOPWORDS, STOPWORDS};

mod vowel {
    pub const A: u32 = 0;
    pub const AE: u32 = 1;
    pub const YEO: u32 = 6;
    pub const O: u32 = 8;
    pub const WA: u32 = 9;
    pub const WAE: u32 = 10;
    pub const OE: u32 = 11;
    pub const U: u32 = 13;
    pub const WEO: u32 = 14;
    pub const I: u32 = 20;
}

/// Lead consonant indices used by [`restore_fused`].
mod lead {
    pub const HIEUH: u32 = 18;
}

#[cfg(test)]
mod tests;
