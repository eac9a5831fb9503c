//! The noun inside a verb made with 하다, 되다 or 시키다 (`재시작했더니` → `재시작`).

/// The noun of a 하다, 되다 or 시키다 verb (`재시작했더니` → `재시작`): the word before
/// the first syllable that begins such an ending, when at least two characters stand
/// before it.
pub fn verb_noun(word: &str) -> Option<String> {
    const STARTS: [char; 15] = [
        '하', '했', '해', '한', '할', '함', '합', '되', '됐', '돼', '된', '될', '됨', '됩', '시',
    ];
    let chars: Vec<char> = word.chars().collect();
    let at = (2..chars.len()).find(|&i| STARTS.contains(&chars[i]))?;
    if chars[at] == '시' && chars.get(at + 1).is_none_or(|&c| !matches!(c, '키' | '켜' | '켰')) {
        return None;
    }
    Some(chars[..at].iter().collect())
}
