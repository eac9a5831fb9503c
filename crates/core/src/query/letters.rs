//! Latin letters spelled out in Hangul, as people type an acronym they say aloud:
//! `디엔에스` → `dns`, `에이더블유에스` → `aws`, `씨디엔` → `cdn`. The records write
//! acronyms in Latin letters; a word made only of letter names reads as them.

/// How each Latin letter is written in Hangul, in the spellings people use, as
/// `<letter><name>` separated by spaces: some letters have two (`씨`/`시`, `지`/`쥐`,
/// `더블유`/`더블류`). `지` is also how some say Z; it reads as G first, the more
/// common letter in acronyms. One string rather than a table of pairs: the browser
/// module carries it, and a string costs it a third of the bytes.
const NAMES: &str = "h에이치 h에치 w더블유 w더블류 a에이 b비 c씨 c시 d디 e이 f에프 g지 g쥐 i아이 j제이 k케이 l엘 m엠 n엔 o오 p피 q큐 r알 s에스 t티 u유 v브이 x엑스 y와이 z제트 z젯 z지";

/// Letters an acronym has at least: one letter name alone is a Korean word more
/// often (`이`, `비`, `유`).
const MIN_LETTERS: usize = 2;
/// Letters an acronym has at most (`에이치티티피에스` is five); longer runs of
/// letter names are Korean words.
const MAX_LETTERS: usize = 6;
/// The acronym `word` spells, when it is made only of [`MIN_LETTERS`] to
/// [`MAX_LETTERS`] letter names, read from the left, each name as the first entry
/// of [`NAMES`] that fits (`에이치` is H before `에이` is A). Bytes, not `str`
/// patterns, and no backtracking: the browser module carries this code.
pub(super) fn spelled(word: &str) -> Option<String> {
    let mut rest = word.as_bytes();
    let mut letters = String::new();
    'name: while !rest.is_empty() {
        if letters.len() == MAX_LETTERS {
            return None;
        }
        for entry in NAMES.as_bytes().split(|&b| b == b' ') {
            if let Some(after) = rest.strip_prefix(&entry[1..]) {
                letters.push(char::from(entry[0]));
                rest = after;
                continue 'name;
            }
        }
        return None;
    }
    (letters.len() >= MIN_LETTERS).then_some(letters)
}

#[cfg(test)]
mod tests {
    use super::spelled;

    #[test]
    fn a_word_of_letter_names_reads_as_its_letters() {
        for (word, acronym) in [
            ("디엔에스", "dns"),
            ("에이더블유에스", "aws"),
            ("에이피아이", "api"),
            ("에스큐엘", "sql"),
            ("에이치티티피에스", "https"),
            ("브이피엔", "vpn"),
            ("씨디엔", "cdn"),
            ("시디엔", "cdn"),
            ("아이피", "ip"),
            ("에치에이", "ha"),
            // G and Z share 지: it reads as G.
            ("지씨", "gc"),
        ] {
            assert_eq!(spelled(word).as_deref(), Some(acronym), "{word}");
        }
    }

    #[test]
    fn other_words_read_as_nothing() {
        for word in [
            "장애",
            "이",
            "비",
            "에스컬레이션",
            "디엔에스가",
            "에이더블유에스에이더블유에스에이",
            "",
        ] {
            assert_eq!(spelled(word), None, "{word}");
        }
    }
}
