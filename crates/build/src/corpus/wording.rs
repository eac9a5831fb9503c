//! Two checks on how a record is worded, run on its whole text:
//!
//! - **Particles that follow how a name is read.** A Latin name takes the particle
//!   that its spoken Korean form calls for: GitHub, said 깃헙, takes 이/은; AWS,
//!   said 에이더블유에스, takes 가/는. `data/GLOSSARY.md` lists the names with the
//!   reading that decides ([`readings`]); a name not listed is not checked.
//! - **A record speaks of the incident, not of its source.** Sentences that frame a
//!   fact as what a source said ("출처는 … 적었다", "보고서에 따르면") are reported.

use std::path::Path;

use super::diagnostic::{diag, line_of, Diagnostic, Problem};

/// One row of the glossary's reading table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The name as records write it ("GitHub").
    pub name: String,
    /// Its Korean reading ("깃허브").
    pub reading: String,
}

/// How the last syllable of a reading ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    Vowel,
    Rieul,
    Consonant,
}

impl Reading {
    fn ending(&self) -> Option<Ending> {
        let last = self.reading.chars().last()? as u32;
        if !(0xAC00..=0xD7A3).contains(&last) {
            return None;
        }
        Some(match (last - 0xAC00) % 28 {
            0 => Ending::Vowel,
            8 => Ending::Rieul,
            _ => Ending::Consonant,
        })
    }
}

/// The heading of the glossary section that holds the reading table.
pub const READINGS_HEADING: &str = "## 이름의 읽기";

/// The rows of the reading table in `glossary` (the section under
/// [`READINGS_HEADING`]: `| name | reading |`), with the line of each problem row.
pub fn readings(glossary: &str) -> (Vec<Reading>, Vec<(usize, String)>) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    let mut inside = false;
    for (i, line) in glossary.lines().enumerate() {
        if line.starts_with("## ") {
            inside = line.trim() == READINGS_HEADING;
            continue;
        }
        let line = line.trim();
        if !inside || !line.starts_with('|') || line.starts_with("| ---") || line.starts_with("|---") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() != 2 || cells[0] == "이름" {
            if cells.first() != Some(&"이름") {
                bad.push((
                    i + 1,
                    "a row of the reading table has two cells: | name | reading |".into(),
                ));
            }
            continue;
        }
        let r = Reading {
            name: cells[0].to_string(),
            reading: cells[1].to_string(),
        };
        if r.name.is_empty() || r.ending().is_none() {
            bad.push((
                i + 1,
                format!("{:?}: the reading must end in a Hangul syllable", r.name),
            ));
            continue;
        }
        out.push(r);
    }
    // Longer names first, so that "GitHub Actions" is tried before "GitHub".
    out.sort_by(|a, b| b.name.len().cmp(&a.name.len()).then(a.name.cmp(&b.name)));
    (out, bad)
}

/// The particle pairs: the form after a final consonant, the form after a vowel.
const PAIRS: [(&str, &str); 5] = [("이", "가"), ("은", "는"), ("을", "를"), ("과", "와"), ("으로", "로")];

/// The particle that fits `ending` where `found` was written, if `found` is the
/// wrong one of its pair.
fn fitting(found: &str, ending: Ending) -> Option<&'static str> {
    for (after_consonant, after_vowel) in PAIRS {
        if found != after_consonant && found != after_vowel {
            continue;
        }
        let right = match (ending, after_consonant) {
            (Ending::Consonant, _) => after_consonant,
            (Ending::Rieul, "으로") => after_vowel,
            (Ending::Rieul, _) => after_consonant,
            (Ending::Vowel, _) => after_vowel,
        };
        return (found != right).then_some(right);
    }
    None
}

fn is_hangul(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c) || ('\u{3131}'..='\u{318E}').contains(&c)
}

/// Each misplaced particle after a listed name in `text`: (byte offset, name,
/// particle written, particle that fits).
pub fn misplaced_particles<'a>(text: &str, names: &'a [Reading]) -> Vec<(usize, &'a str, String, &'static str)> {
    let mut out = Vec::new();
    let mut taken_until = 0;
    for (at, _) in text.char_indices() {
        if at < taken_until {
            continue;
        }
        // A name starts a word: nothing alphanumeric or joined (".", "-", "_") before it.
        if text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_' | '/' | '@'))
        {
            continue;
        }
        let Some(r) = names.iter().find(|r| text[at..].starts_with(&r.name)) else {
            continue;
        };
        let after_name = at + r.name.len();
        taken_until = after_name;
        let rest = &text[after_name..];
        // The name ends there (not "GitHubber", "AWS-managed", "KT&G").
        if rest
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '&' | '+' | '/'))
            && !rest.starts_with(". ")
        {
            continue;
        }
        let spaced = rest.strip_prefix(' ').unwrap_or(rest);
        let particle: String = spaced.chars().take_while(|&c| is_hangul(c)).collect();
        // Only a particle standing alone: "GitHub 가 " is one, "GitHub 가입" is a word.
        if let Some(fit) = r.ending().and_then(|ending| fitting(&particle, ending)) {
            out.push((at, r.name.as_str(), particle, fit));
        }
    }
    out
}

/// Framings of a fact as what a source said. Each is checked on the text with
/// spaces removed; a pattern that starts with `^` must open a sentence.
const SOURCE_TALK: [&str; 11] = [
    "^출처는",
    "보고서는",
    "사후분석은",
    "^출처가",
    "^출처들은",
    "출처에따르면",
    "한출처는",
    "다른출처는",
    "출처를따라",
    "보고서에따르면",
    "사후분석에따르면",
];

/// Each sentence of `text` that frames a fact as what its source said: (byte
/// offset, the sentence).
pub fn source_talk(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for sentence in split_sentences(text) {
        let trimmed = sentence.trim_start_matches([' ', '-', '*', '\t']);
        let squashed: String = trimmed.chars().filter(|c| !c.is_whitespace()).collect();
        let hit = SOURCE_TALK.iter().any(|p| match p.strip_prefix('^') {
            Some(start) => squashed.starts_with(start),
            None => squashed.contains(p),
        });
        if hit {
            out.push((offset, sentence.trim().to_string()));
        }
        offset += sentence.len();
    }
    out
}

/// The sentences of `text`, each with its end: split after a `.` that ends a word
/// (not inside "v2.6") and at line ends.
fn split_sentences(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let bytes = rest.as_bytes();
        let end = (0..bytes.len())
            .find(|&i| {
                bytes[i] == b'\n' || (bytes[i] == b'.' && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace()))
            })
            .map_or(rest.len(), |i| i + 1);
        let (sentence, tail) = rest.split_at(end);
        rest = tail;
        Some(sentence)
    })
}

/// Runs both checks on the record at `path` with full text `text`. Lines with
/// `sources = ` and URLs are not prose and are skipped by the particle check.
pub(super) fn check(path: &Path, text: &str, names: &[Reading], diags: &mut Vec<Diagnostic>) {
    let body_start = text.match_indices("+++").nth(1).map_or(0, |(i, _)| i + 3);
    for (at, name, found, fit) in misplaced_particles(text, names) {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[line_start..];
        if line.starts_with("sources") || line.starts_with("tags") || line.starts_with("related") {
            continue;
        }
        let reading = names.iter().find(|r| r.name == name).map_or("", |r| r.reading.as_str());
        diags.push(diag(
            path,
            line_of(text, at, 1),
            None,
            Problem::Wording,
            format!("\"{name} {found}\": {name} is read {reading}, which takes {fit}"),
            Some(&format!(
                "write \"{name} {fit}\" (the particle follows how the name is read; data/GLOSSARY.md, {READINGS_HEADING})"
            )),
        ));
    }
    for (at, sentence) in source_talk(&text[body_start.min(text.len())..]) {
        diags.push(diag(
            path,
            line_of(text, body_start + at, 1),
            None,
            Problem::Wording,
            format!("a sentence speaks of the source, not of the incident: {sentence:?}"),
            Some("state the fact itself; the sources field already says where it comes from"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<Reading> {
        readings(
            "# 용어집\n\n## 이름의 읽기\n\n| 이름 | 읽기 |\n| --- | --- |\n| GitHub | 깃헙 |\n| GitLab | 깃랩 |\n| AWS | 에이더블유에스 |\n| Google | 구글 |\n| GitHub Actions | 깃헙 액션스 |\n\n## 다른 절\n\n| X | 엑스 |\n",
        )
        .0
    }

    #[test]
    fn the_reading_table_is_read_from_its_section_only() {
        let n = names();
        assert_eq!(n.len(), 5);
        assert_eq!(n[0].name, "GitHub Actions", "longest first");
        assert!(!n.iter().any(|r| r.name == "X"));
        let (_, bad) = readings("## 이름의 읽기\n| 이름 | 읽기 |\n| Foo | foo |\n| a | b | c |\n");
        assert_eq!(bad.len(), 2, "{bad:?}");
    }

    #[test]
    fn particles_follow_the_reading() {
        let n = names();
        let found = |t: &str| {
            misplaced_particles(t, &n)
                .into_iter()
                .map(|(_, name, f, fit)| format!("{name} {f}->{fit}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(found("GitHub 가 멈췄다."), ["GitHub 가->이"]);
        assert_eq!(found("GitHub는 멈췄다."), ["GitHub 는->은"]);
        assert_eq!(found("GitHub 이 멈췄고 GitHub 은 사과했다."), Vec::<String>::new());
        assert_eq!(found("AWS 은 복구했다. AWS 를 썼다."), ["AWS 은->는"]);
        assert_eq!(found("Google 과 AWS 와 GitLab 로"), ["GitLab 로->으로"]);
        assert_eq!(found("Google 로 옮겼다."), Vec::<String>::new(), "ㄹ takes 로");
        assert_eq!(found("Google 으로 옮겼다."), ["Google 으로->로"]);
        // Words, not particles; names inside other words; URLs.
        assert!(found("GitHub 가입자가 늘었다. AWS 이용자. GitHubber 는.").is_empty());
        assert!(found("github.com 는 https://GitHub.com/x 가").is_empty());
        assert!(found("MyGitHub 는").is_empty());
        // The longer name wins: "GitHub Actions 가" is checked as 액션스 (vowel).
        assert!(found("GitHub Actions 가 멈췄다.").is_empty());
        assert_eq!(found("GitHub Actions 이 멈췄다."), ["GitHub Actions 이->가"]);
    }

    #[test]
    fn talk_about_the_source_is_found_and_plain_facts_pass() {
        assert_eq!(source_talk("Chef 의 사후 분석은 요인을 여럿 들었다.").len(), 1);
        assert_eq!(source_talk("같은 보고서는 두 장애를 더 다룬다.").len(), 1);
        let t = "서버가 멈췄다. 출처는 원인을 배터리로 봤다.\n보고서에 따르면 40분 걸렸다. 트래픽 출처를 확인했다. 오염의 출처는 지상 소프트웨어였다. 출처는 결함이 v2.6 무렵부터 있었다고 봤다.";
        let s: Vec<String> = source_talk(t).into_iter().map(|(_, s)| s).collect();
        assert_eq!(
            s,
            [
                "출처는 원인을 배터리로 봤다.",
                "보고서에 따르면 40분 걸렸다.",
                "출처는 결함이 v2.6 무렵부터 있었다고 봤다."
            ]
        );
    }
}
