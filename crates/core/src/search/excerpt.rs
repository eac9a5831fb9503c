//! Query-dependent excerpts: for a hit, the sentence of each section where its
//! matched terms occur, with the occurrences marked.
//!
//! The search gives each hit the index terms it matched ([`crate::search::Hit`]'s
//! `terms`); a record's section texts come from its passages file
//! (`passages/<id>.json`, written by the build) or from the record itself.
//! [`excerpts`] finds the terms in the text the way the index derived them:
//! terms are stems, so `재시도` is found in `재시도가` and `재시도를`, and inside a
//! compound (`네트워크장애` holds `장애`). Latin terms are found only as whole
//! Latin words or parts (`dns` in `DNS의`, not in `dnssec`), and a one-syllable
//! Hangul term only as a word of its own, with at most a particle after it.
//!
//! Offsets are in characters (Unicode scalar values) of the excerpt's text. The
//! text is plain text, never HTML.

use serde::Serialize;

use crate::text::{particles, within};

/// An excerpt longer than this many characters is cut to a window around its
/// first mark.
pub const MAX_CHARS: usize = 160;

/// A sentence shorter than this many characters takes the next one with it, so
/// that an excerpt reads as more than a fragment.
const SHORT: usize = 50;

/// Characters kept before the first mark when an excerpt is cut.
const LEAD: usize = 40;

/// The place in one section where a hit's terms occur.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Excerpt {
    /// The section's name (`원인`).
    pub section: String,
    /// Its anchor on the incident page (`s-cause`); empty for a section not in
    /// [`crate::sections::SECTIONS`].
    pub anchor: String,
    /// The sentence or two, cut with `…` when long. Plain text.
    pub text: String,
    /// Marked ranges of `text`, `[start, end)` in characters, in order and not
    /// overlapping.
    pub marks: Vec<[u32; 2]>,
    /// How many distinct terms of the hit the excerpt holds.
    pub found: usize,
}

impl Excerpt {
    /// The text with each mark between `open` and `close`: `marked("[", "]")` gives
    /// `…[재시도]가 폭증해…`.
    pub fn marked(&self, open: &str, close: &str) -> String {
        let chars: Vec<char> = self.text.chars().collect();
        let mut out = String::new();
        let mut at = 0;
        for &[s, t] in &self.marks {
            let (s, t) = (s as usize, t as usize);
            out.extend(&chars[at..s]);
            out.push_str(open);
            out.extend(&chars[s..t]);
            out.push_str(close);
            at = t;
        }
        out.extend(&chars[at..]);
        out
    }
}

/// For each section of `sections` (name and plain text, in any order) where one of
/// `terms` occurs, the sentence that holds the most distinct terms (the first such
/// on a tie), with every occurrence marked: at most one excerpt per section, in the
/// reading order of [`crate::sections`] (other names after them, as given).
pub fn excerpts<S: AsRef<str>>(sections: &[(S, S)], terms: &[S]) -> Vec<Excerpt> {
    let terms: Vec<String> = terms
        .iter()
        .map(|t| t.as_ref().to_ascii_lowercase())
        .filter(|t| !t.is_empty())
        .collect();
    if terms.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<(usize, Excerpt)> = Vec::new();
    for (i, (name, text)) in sections.iter().enumerate() {
        let name = name.as_ref();
        let order = crate::sections::position(name).unwrap_or(crate::sections::SECTIONS.len() + i);
        if let Some(e) = best_in(name, text.as_ref(), &terms) {
            out.push((order, e));
        }
    }
    crate::stable_sort::sort_by(&mut out, |a, b| a.0.cmp(&b.0));
    out.into_iter().map(|(_, e)| e).collect()
}

/// The excerpt of `excerpts` that holds the most distinct terms, the earliest in
/// reading order on a tie.
pub fn best(excerpts: &[Excerpt]) -> Option<&Excerpt> {
    excerpts.iter().rev().max_by_key(|e| e.found)
}

/// A sentence's number in its section, how many terms it holds, and their marks.
type Candidate = (usize, usize, Vec<(usize, usize)>);

/// The best sentence of one section, as an excerpt.
fn best_in(name: &str, text: &str, terms: &[String]) -> Option<Excerpt> {
    let sentences = sentences(text);
    let mut best: Option<Candidate> = None;
    for (i, &(start, end)) in sentences.iter().enumerate() {
        let (found, marks) = marks_in(within(text, start..end), terms);
        if found > best.as_ref().map_or(0, |b| b.1) {
            best = Some((i, found, marks));
        }
    }
    let (i, found, mut marks) = best?;
    let (start, mut end) = sentences[i];
    // A short sentence takes the next one along (with its own marks).
    if within(text, start..end).chars().count() < SHORT {
        if let Some(&(next_start, next_end)) = sentences.get(i + 1) {
            let (_, more) = marks_in(within(text, next_start..next_end), terms);
            marks.extend(
                more.into_iter()
                    .map(|(s, e)| (s + next_start - start, e + next_start - start)),
            );
            end = next_end;
        }
    }
    let (text, marks) = window(within(text, start..end), &marks);
    Some(Excerpt {
        section: name.to_string(),
        anchor: crate::sections::anchor(name).unwrap_or("").to_string(),
        text,
        marks,
        found,
    })
}

/// The sentences of `text` as byte ranges, trimmed: split after `.`, `!`, `?` or
/// `。` followed by white space, and at line breaks.
fn sentences(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let ends = c == '\n' || (matches!(c, '.' | '!' | '?' | '。') && next.is_none_or(char::is_whitespace));
        if ends {
            push_trimmed(text, start, i + c.len_utf8(), &mut out);
            start = i + c.len_utf8();
        }
    }
    push_trimmed(text, start, text.len(), &mut out);
    out
}

fn push_trimmed(text: &str, start: usize, end: usize, out: &mut Vec<(usize, usize)>) {
    let piece = within(text, start..end);
    let lead = piece.len() - piece.trim_start().len();
    let trimmed = piece.trim();
    if !trimmed.is_empty() {
        out.push((start + lead, start + lead + trimmed.len()));
    }
}

/// How many distinct `terms` occur in `sentence`, and where (byte ranges, sorted,
/// overlaps merged).
fn marks_in(sentence: &str, terms: &[String]) -> (usize, Vec<(usize, usize)>) {
    // ASCII folding keeps byte offsets: the index's terms are lower-cased, and the
    // text's Latin is ASCII but for rare names.
    let folded = sentence.to_ascii_lowercase();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut found = 0;
    for term in terms {
        let before = ranges.len();
        // A plain scan: sentences are short, and `str::find`'s searcher would add
        // kilobytes to the browser module.
        let t = term.as_bytes();
        for s in 0..folded.len().saturating_sub(t.len() - 1) {
            if folded.is_char_boundary(s) && folded.as_bytes()[s..].starts_with(t) && occurs(&folded, s, s + t.len()) {
                ranges.push((s, s + t.len()));
            }
        }
        if ranges.len() > before {
            found += 1;
        }
    }
    crate::stable_sort::sort_by(&mut ranges, |a, b| a.cmp(b));
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (s, e) in ranges {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    (found, merged)
}

/// True when the term at `text[s..e]` is an occurrence the index would have
/// derived: a Latin or digit term bounded by non-alphanumerics; a term of one
/// Hangul syllable standing as its word's start with at most a particle after it;
/// a longer Hangul term anywhere.
fn occurs(text: &str, s: usize, e: usize) -> bool {
    let term = within(text, s..e);
    let before = within(text, ..s).chars().next_back();
    let after = within(text, e..).chars().next();
    if term.chars().all(|c| c.is_ascii_alphanumeric()) {
        return !before.is_some_and(|c| c.is_ascii_alphanumeric()) && !after.is_some_and(|c| c.is_ascii_alphanumeric());
    }
    if term.chars().count() > 1 {
        return true;
    }
    if before.is_some_and(crate::text::is_alphanumeric) {
        return false;
    }
    let rest: &str = within(text, e..)
        .split(|c: char| !crate::text::is_alphanumeric(c))
        .next()
        .unwrap_or("");
    rest.is_empty() || particles::is_suffix_only(rest)
}

/// `sentence` with its marks (byte ranges) as an excerpt's text and character
/// ranges: cut to [`MAX_CHARS`] around the first mark when longer, with `…` where
/// text was left out.
fn window(sentence: &str, marks: &[(usize, usize)]) -> (String, Vec<[u32; 2]>) {
    let offsets: Vec<usize> = sentence.char_indices().map(|(i, _)| i).collect();
    let chars = offsets.len();
    let char_of = |byte: usize| offsets.partition_point(|&o| o < byte);
    let byte = |c: usize| if c >= chars { sentence.len() } else { offsets[c] };
    let (mut from, mut to) = (0, chars);
    if chars > MAX_CHARS {
        let first = marks.first().map_or(0, |m| char_of(m.0));
        from = first.saturating_sub(LEAD);
        to = (from + MAX_CHARS).min(chars);
        from = to.saturating_sub(MAX_CHARS);
        // Start and end at word boundaries, unless that loses too much.
        if from > 0 {
            if let Some(space) = within(sentence, byte(from)..byte(first)).find(' ') {
                from = char_of(byte(from) + space + 1);
            }
        }
        if to < chars {
            if let Some(space) = within(sentence, byte(from)..byte(to)).rfind(' ') {
                let at = char_of(byte(from) + space);
                if at > first {
                    to = at;
                }
            }
        }
    }
    let mut text = String::new();
    if from > 0 {
        text.push('…');
    }
    // Two sentences of a list come from two lines: one line here.
    text.extend(
        within(sentence, byte(from)..byte(to))
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c }),
    );
    if to < chars {
        text.push('…');
    }
    let shift = usize::from(from > 0);
    let marks = marks
        .iter()
        .map(|&(s, e)| (char_of(s), char_of(e)))
        .filter(|&(s, e)| e > from && s < to)
        .map(|(s, e)| [(s.max(from) - from + shift) as u32, (e.min(to) - from + shift) as u32])
        .collect();
    (text, marks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(sections: &[(&str, &str)], terms: &[&str]) -> Vec<String> {
        excerpts(sections, terms)
            .iter()
            .map(|e| format!("{} · {}", e.section, e.marked("[", "]")))
            .collect()
    }

    #[test]
    fn stems_are_marked_inside_their_eojeols() {
        let got = run(
            &[(
                "원인",
                "설정이 바뀌었다. 클라이언트의 재시도가 폭증해 부하가 커졌다. 복구했다.",
            )],
            &["재시도", "폭증"],
        );
        assert_eq!(
            got,
            ["원인 · 클라이언트의 [재시도]가 [폭증]해 부하가 커졌다. 복구했다."]
        );
        let got = run(&[("증상", "재시도가 몰렸다.\n서버가 멈췄다.")], &["재시도"]);
        assert_eq!(got, ["증상 · [재시도]가 몰렸다. 서버가 멈췄다."]);
    }

    #[test]
    fn the_sentence_with_most_distinct_terms_wins() {
        let text = "재시도가 있었다 그리고 더 많은 글자가 이어져서 오십 자를 넘기는 문장이 되도록 길게 썼다. \
                    재시도와 타임아웃이 겹쳐 장애가 길어졌고 이 문장도 오십 자를 넘기도록 충분히 길게 쓴다.";
        let got = run(&[("원인", text)], &["재시도", "타임아웃"]);
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("원인 · [재시도]와 [타임아웃]이"), "{got:?}");
    }

    #[test]
    fn latin_terms_need_word_boundaries_and_ignore_case() {
        let got = run(
            &[("요약", "DNSSEC 검증이 아니라 DNS 응답이 늦었다. GitHub의 API가 멈췄다.")],
            &["dns", "github"],
        );
        assert_eq!(
            got,
            ["요약 · DNSSEC 검증이 아니라 [DNS] 응답이 늦었다. [GitHub]의 API가 멈췄다."]
        );
    }

    #[test]
    fn one_syllable_terms_stand_alone() {
        let got = run(&[("원인", "키가 만료됐다. 열쇠가 아니라 키보드다.")], &["키"]);
        assert_eq!(got, ["원인 · [키]가 만료됐다. 열쇠가 아니라 키보드다."]);
        assert!(run(&[("원인", "키보드가 고장났다.")], &["키"]).is_empty());
    }

    #[test]
    fn sections_come_in_reading_order_one_each() {
        let got = run(
            &[
                ("교훈", "재시도에 상한을 둔다."),
                ("요약", "재시도가 몰렸다."),
                ("원인", "상관없는 문장이다."),
            ],
            &["재시도"],
        );
        assert_eq!(got.len(), 2);
        assert!(got[0].starts_with("요약 · "));
        assert!(got[1].starts_with("교훈 · "));
        let e = excerpts(&[("원인", "재시도")], &["재시도"]);
        assert_eq!(e[0].anchor, "s-cause");
    }

    #[test]
    fn long_sentences_are_cut_around_the_first_mark() {
        let filler = "가나다라 ".repeat(40);
        let text = format!("{filler}재시도가 폭증했다 {filler}");
        let e = &excerpts(&[("원인", text.as_str())], &["재시도"])[0];
        assert!(e.text.starts_with('…') && e.text.ends_with('…'), "{}", e.text);
        assert!(e.text.chars().count() <= MAX_CHARS + 2);
        let chars: Vec<char> = e.text.chars().collect();
        let [s, t] = e.marks[0];
        assert_eq!(chars[s as usize..t as usize].iter().collect::<String>(), "재시도");
    }

    #[test]
    fn nothing_without_terms_or_matches() {
        assert!(run(&[("요약", "재시도가 몰렸다.")], &[]).is_empty());
        assert!(run(&[("요약", "재시도가 몰렸다.")], &["인증서"]).is_empty());
        let best_of = excerpts(
            &[("요약", "재시도."), ("원인", "재시도와 타임아웃.")],
            &["재시도", "타임아웃"],
        );
        assert_eq!(best(&best_of).unwrap().section, "원인");
    }
}
