//! How close a record's sentences come to the text it was written from: every
//! sentence of the record against every sentence of its sources, by the Dice
//! coefficient of their character bigrams. A record is written in its own words, so
//! no sentence of it should be a source sentence with a few words swapped; a Dice of
//! 0.6 or more is that. The seed-page test and `incident-library overlap` both use it.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::corpus::Incident;

/// The Dice at and above which a record sentence counts as a reworded source sentence.
pub const THRESHOLD: f64 = 0.6;

/// The sentences of a text: split after `.`, `!`, `?` and at line ends, list
/// markers and headings dropped; sentences of fewer than 12 letters (a time, a
/// name) are left out, since any two such lines look alike.
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches(['-', '*', '•']).trim();
        if line.starts_with('#') || line.starts_with("+++") {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let mut start = 0;
        for i in 0..chars.len() {
            let end = matches!(chars[i], '.' | '!' | '?' | '。') && chars.get(i + 1).is_none_or(|c| c.is_whitespace());
            if end || i + 1 == chars.len() {
                let s: String = chars[start..=i].iter().collect();
                if s.chars().filter(|c| !c.is_whitespace()).count() >= 12 {
                    out.push(s.trim().to_string());
                }
                start = i + 1;
            }
        }
    }
    out
}

/// Character bigrams of a sentence with their counts, whitespace removed and
/// letters lower-cased (spacing and case are not what makes a sentence one's own).
pub type Bigrams = HashMap<(char, char), usize>;

/// The bigrams of `s`.
pub fn bigrams(s: &str) -> Bigrams {
    let chars: Vec<char> = s
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    let mut m = HashMap::new();
    for w in chars.windows(2) {
        *m.entry((w[0], w[1])).or_insert(0) += 1;
    }
    m
}

/// The Dice coefficient of two bigram multisets: 1 for the same sentence, 0 for
/// sentences that share no pair of neighbouring letters.
pub fn dice(a: &Bigrams, b: &Bigrams) -> f64 {
    let total: usize = a.values().sum::<usize>() + b.values().sum::<usize>();
    let shared: usize = a.iter().map(|(k, n)| (*n).min(b.get(k).copied().unwrap_or(0))).sum();
    if total == 0 {
        0.0
    } else {
        2.0 * shared as f64 / total as f64
    }
}

/// Sentences with their bigrams, computed once, to compare many sentences against.
pub struct Sentences(Vec<(String, Bigrams)>);

impl Sentences {
    /// The sentences of every text in `texts`.
    pub fn of<'a>(texts: impl IntoIterator<Item = &'a str>) -> Sentences {
        Sentences(
            texts
                .into_iter()
                .flat_map(sentences)
                .map(|s| {
                    let b = bigrams(&s);
                    (s, b)
                })
                .collect(),
        )
    }

    /// How many sentences there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there is no sentence.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The sentence closest to `s`, with its Dice.
    pub fn closest(&self, s: &str) -> Option<(f64, &str)> {
        let b = bigrams(s);
        self.0
            .iter()
            .map(|(t, tb)| (dice(&b, tb), t.as_str()))
            .max_by(|x, y| x.0.total_cmp(&y.0))
    }
}

/// The prose of a record that is compared: title, impact, affected users, checks
/// and every section.
pub fn record_texts(inc: &Incident) -> Vec<&str> {
    let mut texts: Vec<&str> = vec![inc.title.as_str()];
    texts.extend(inc.impact.as_deref());
    texts.extend(inc.affected_users.as_deref());
    texts.extend(inc.checks.iter().map(String::as_str));
    texts.extend(inc.sections.iter().map(|s| s.markdown.as_str()));
    texts
}

/// One record sentence and the source sentence closest to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The Dice of the two.
    pub dice: f64,
    /// The record's sentence.
    pub ours: String,
    /// The closest source sentence.
    pub theirs: String,
    /// The source file it is in.
    pub file: PathBuf,
}

/// A record compared with its saved sources.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The record's id.
    pub id: String,
    /// The saved source files read.
    pub files: Vec<PathBuf>,
    /// Every record sentence with its closest source sentence, closest first.
    pub pairs: Vec<Pair>,
}

impl Report {
    /// The highest Dice of any record sentence (0 with no sentence).
    pub fn max(&self) -> f64 {
        self.pairs.first().map_or(0.0, |p| p.dice)
    }
}

/// The saved source texts of record `id`: the files of `dir/<id>/` (any name, read
/// as UTF-8 with bad bytes replaced), sorted; none when the folder is absent.
pub fn source_files(dir: &Path, id: &str) -> std::io::Result<Vec<PathBuf>> {
    let folder = dir.join(id);
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    let mut files: Vec<PathBuf> = fs::read_dir(&folder)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<Vec<_>>>()?
        .into_iter()
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
}

/// Compares record `inc` with the files of `dir/<id>/`. `None` when it has none.
pub fn compare(inc: &Incident, dir: &Path) -> std::io::Result<Option<Report>> {
    let files = source_files(dir, &inc.id)?;
    if files.is_empty() {
        return Ok(None);
    }
    let mut theirs: Vec<(Sentences, &PathBuf)> = Vec::new();
    for f in &files {
        let text = String::from_utf8_lossy(&fs::read(f)?).into_owned();
        theirs.push((Sentences::of([text.as_str()]), f));
    }
    let mut pairs = Vec::new();
    for s in record_texts(inc).into_iter().flat_map(sentences) {
        let best = theirs
            .iter()
            .filter_map(|(sents, f)| sents.closest(&s).map(|(d, t)| (d, t, *f)))
            .max_by(|x, y| x.0.total_cmp(&y.0));
        if let Some((dice, t, f)) = best {
            pairs.push(Pair {
                dice,
                ours: s.clone(),
                theirs: t.to_string(),
                file: f.clone(),
            });
        }
    }
    pairs.sort_by(|a, b| b.dice.total_cmp(&a.dice));
    Ok(Some(Report {
        id: inc.id.clone(),
        files,
        pairs,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_finds_a_reworded_sentence_and_passes_a_rewritten_one() {
        let seed = bigrams("Microsoft 는 고객에게 지수 백오프를 쓰는 재시도 패턴을 검토하라고 권했다.");
        let swapped = bigrams("Microsoft 는 고객에게 지수 백오프를 적용한 재시도 패턴을 검토하라고 권고했다.");
        let ours = bigrams("재시도는 지수 백오프로 간격을 벌려야 한다는 것이 Microsoft 의 권고였다.");
        assert!(dice(&seed, &swapped) >= THRESHOLD, "{}", dice(&seed, &swapped));
        assert!(dice(&seed, &ours) < THRESHOLD, "{}", dice(&seed, &ours));
    }

    #[test]
    fn spacing_and_case_do_not_hide_a_copy() {
        let a = bigrams("카카오는 판교 데이터센터 화재로 서비스가 멈췄다.");
        let b = bigrams("카카오는판교 데이터 센터화재로 서비스가멈췄다.");
        assert!((dice(&a, &b) - 1.0).abs() < 1e-9);
        assert!((dice(&bigrams("AWS Lambda"), &bigrams("aws lambda")) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn sentences_split_at_stops_and_lines_and_drop_short_ones() {
        let s = sentences("## 요약\n\n- 첫째 문장은 충분히 길게 썼다. 둘째 문장도 충분히 길게 썼다.\n14:09 UTC\n");
        assert_eq!(
            s,
            vec!["첫째 문장은 충분히 길게 썼다.", "둘째 문장도 충분히 길게 썼다."]
        );
    }

    #[test]
    fn closest_picks_the_nearest_sentence() {
        let theirs =
            Sentences::of(["KT 의 유무선 인터넷이 오전 11시 20분부터 멈췄다. 전혀 다른 내용의 문장이 여기에 있다."]);
        let (d, t) = theirs
            .closest("KT 의 유무선 인터넷이 오전 11시 20분부터 끊겼다.")
            .unwrap();
        assert!(d > 0.8, "{d}");
        assert!(t.starts_with("KT"));
    }
}
