//! The shipped corpus: size, coverage of the required fact sheets, own words, and a
//! taxonomy in which every classification value is used.
//!
//! Tests that read `../shared` (the fact sheets and seed pages the records were
//! written from) skip themselves when it is absent.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use incident_build::corpus::{self, Corpus};
use incident_build::overlap;

fn corpus() -> Corpus {
    corpus::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data"))
        .unwrap_or_else(|d| panic!("{} problems, e.g. {}", d.len(), d[0]))
}

fn shared() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    dir.join("sources/postmortems").is_dir().then_some(dir)
}

/// Fact sheets that must each have a record (uuid prefixes of their files).
const REQUIRED_SHEETS: [&str; 35] = [
    "fde04641", "a0e252d3", "a54b2ace", "27a23dcd", "fccb0ca5", "b79bbd0b", "f70ce67c", "20834b0c", "938b8012",
    "36858814", "9deb5a9a", "24be1eec", "8d520e9f", "adc3b69d", "6bc6cd0c", "a50e7b06", "465ab32f", "d6fb9bc9",
    "ac43196d", "5b73c1c1", "5cbc4e4d", "5bce5ed8", "5a99836e", "80919009", "4da4ac8a", "e242d62d", "96e1c327",
    "91f1928a", "e9248be4", "0d052dd0", "1f3d306d", "4f96113f", "217ee689", "852f277c", "65c669af",
];

#[test]
fn at_least_175_records() {
    let c = corpus();
    assert!(c.incidents.len() >= 175, "{} records", c.incidents.len());
}

/// The `url:` of a fact sheet's front matter.
fn sheet_url(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("url:"))
        .map(|u| u.trim().trim_matches(['"', '\'']).to_string())
}

#[test]
fn every_required_fact_sheet_has_a_record() {
    let Some(shared) = shared() else {
        eprintln!("skipped: ../shared is absent");
        return;
    };
    let cited: HashSet<String> = corpus()
        .incidents
        .iter()
        .flat_map(|i| i.sources.iter().cloned())
        .collect();
    let mut missing = Vec::new();
    for entry in fs::read_dir(shared.join("sources/postmortems")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if let Some(prefix) = REQUIRED_SHEETS.iter().find(|p| name.starts_with(*p)) {
            let url = sheet_url(&fs::read_to_string(&path).unwrap()).unwrap_or_default();
            if !cited.contains(&url) {
                missing.push(format!("{prefix} ({url})"));
            }
        }
    }
    assert!(missing.is_empty(), "fact sheets without a record: {missing:?}");
}

/// Every `n`-character run of `text`, whitespace folded.
fn runs(text: &str, n: usize) -> Vec<String> {
    let folded: Vec<char> = text.split_whitespace().collect::<Vec<_>>().join(" ").chars().collect();
    (0..folded.len().saturating_sub(n))
        .map(|i| folded[i..i + n].iter().collect())
        .collect()
}

/// True for a run that is a list of names, not prose: no Hangul, and either a
/// list (two commas or more) or words that all start with a capital or a digit
/// but for short joining words ("Linux Software Repository for Microsoft"). The
/// regions hit, the services affected and the product names are facts a record
/// must carry as the source spells them.
fn is_names(run: &str) -> bool {
    let hangul = run.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
    if hangul {
        return false;
    }
    let joining = ["for", "of", "and", "the", "on", "in", "to", "&"];
    let words: Vec<&str> = run
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let inner = &words[1.min(words.len())..words.len().saturating_sub(1)];
    run.matches(',').count() >= 2
        || inner
            .iter()
            .all(|w| joining.contains(w) || w.chars().next().is_some_and(|c| c.is_uppercase() || c.is_ascii_digit()))
}

/// `text` without the double-quoted spans that hold no Hangul.
fn without_quoted_latin(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("\\\"").or_else(|| rest.find('"')) {
        let (quote, skip) = if rest[start..].starts_with("\\\"") {
            ("\\\"", 2)
        } else {
            ("\"", 1)
        };
        match rest[start + skip..].find(quote) {
            Some(len) => {
                let inside = &rest[start + skip..start + skip + len];
                out.push_str(&rest[..start]);
                if inside.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)) {
                    out.push_str(&rest[start..start + skip + len + skip]);
                }
                rest = &rest[start + skip + len + skip..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn names_and_quoted_messages_are_not_prose() {
    assert!(is_names(" Central US, East US, East US 2, North Central US, South Cen"));
    assert!(is_names(" Linux Software Repository for Microsoft"));
    assert!(!is_names("the system is down at the moment and users were asked to"));
    assert!(!is_names("Ohio 와 Michigan, Pennsylvania, New York"));
    assert_eq!(
        without_quoted_latin("화면은 \"The system is down.\" 였다"),
        "화면은  였다"
    );
    assert_eq!(
        without_quoted_latin("이름은 \"장애 안내\" 였다"),
        "이름은 \"장애 안내\" 였다"
    );
}

#[test]
fn records_are_written_in_our_own_words() {
    let Some(shared) = shared() else {
        eprintln!("skipped: ../shared is absent");
        return;
    };
    let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let seeds: Vec<String> = fs::read_dir(shared.join("seeds"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| fold(&fs::read_to_string(p).unwrap()))
        .collect();
    let sheets: Vec<String> = fs::read_dir(shared.join("sources/postmortems"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| fold(&fs::read_to_string(p).unwrap()))
        .collect();
    // Index the sources by their 40-character runs once.
    let seed_runs: HashSet<String> = seeds.iter().flat_map(|s| runs(s, 40)).collect();
    let sheet_runs: HashSet<String> = sheets.iter().flat_map(|s| runs(s, 60)).collect();
    let mut copied = Vec::new();
    for inc in corpus().incidents {
        // Source URLs and quoted messages ("The system is down …", an error text
        // readers search for) are cited on purpose.
        let text = fs::read_to_string(&inc.path).unwrap();
        let text: String = text
            .split_whitespace()
            .filter(|w| !w.contains("://"))
            .collect::<Vec<_>>()
            .join(" ");
        let text = without_quoted_latin(&text);
        if let Some(r) = runs(&text, 40)
            .into_iter()
            .find(|r| seed_runs.contains(r) && !is_names(r))
        {
            copied.push(format!("{} shares 40 characters with a seed page: {r:?}", inc.id));
        }
        if let Some(r) = runs(&text, 60)
            .into_iter()
            .find(|r| sheet_runs.contains(r) && !is_names(r))
        {
            copied.push(format!("{} shares 60 characters with a fact sheet: {r:?}", inc.id));
        }
    }
    assert!(copied.is_empty(), "{copied:#?}");
}

/// No sentence of a record is a seed sentence with a few words swapped: every
/// record sentence against every seed sentence, by character-bigram Dice, below 0.6.
#[test]
fn no_record_sentence_rewords_a_seed_sentence() {
    let Some(shared) = shared() else {
        eprintln!("skipped: ../shared is absent");
        return;
    };
    let mut seed_texts = Vec::new();
    for e in fs::read_dir(shared.join("seeds")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|e| e == "txt") {
            seed_texts.push(fs::read_to_string(&p).unwrap());
        }
    }
    let seed = overlap::Sentences::of(seed_texts.iter().map(String::as_str));
    assert!(seed.len() > 100, "the seed pages hold {} sentences", seed.len());
    let mut close = Vec::new();
    for inc in corpus().incidents {
        for s in overlap::record_texts(&inc).into_iter().flat_map(overlap::sentences) {
            if let Some((score, theirs)) = seed.closest(&s) {
                if score >= overlap::THRESHOLD {
                    close.push(format!("{} ({score:.2}):\n  ours: {s}\n  seed: {theirs}", inc.id));
                }
            }
        }
    }
    assert!(
        close.is_empty(),
        "{} sentences reword a seed sentence:\n{}",
        close.len(),
        close.join("\n")
    );
}

/// One forbidden variant of the glossary: the word, the term to use, and longer
/// words that contain it and are fine.
struct Variant {
    word: String,
    use_instead: String,
    except: Vec<String>,
}

/// The checked variants of `data/GLOSSARY.md`: the third column of its table,
/// without the variants that carry a condition in parentheses (people judge those).
fn glossary_variants() -> Vec<Variant> {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/GLOSSARY.md")).unwrap();
    // The terms table; the reading table after it is `check`'s (corpus::wording).
    let text = text.split(corpus::wording::READINGS_HEADING).next().unwrap_or_default();
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| ---") && !l.starts_with("| 쓰는 말"))
    {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 4, "a glossary row has four cells: {line}");
        let except: Vec<String> = cells[3]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        for word in cells[2]
            .split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty() && !w.contains('('))
        {
            out.push(Variant {
                word: word.to_string(),
                use_instead: cells[0].to_string(),
                except: except.clone(),
            });
        }
    }
    out
}

/// Where `v` occurs in `text` as a forbidden use: a Latin word as a whole word
/// outside parentheses (an English gloss after the Korean term is fine), a Hangul
/// word anywhere but inside one of its exceptions.
fn forbidden_at(text: &str, v: &Variant) -> Option<usize> {
    let latin = v.word.is_ascii();
    let hay = if latin { text.to_lowercase() } else { text.to_string() };
    let needle = if latin { v.word.to_lowercase() } else { v.word.clone() };
    let mut from = 0;
    while let Some(i) = hay[from..].find(&needle).map(|i| i + from) {
        from = i + needle.len();
        if latin {
            let before = hay[..i].chars().next_back();
            let after = hay[from..].chars().next();
            let word_edge = |c: Option<char>| c.is_none_or(|c| !c.is_ascii_alphanumeric() && c != '-' && c != '_');
            let depth = hay[..i].matches('(').count() as isize - hay[..i].matches(')').count() as isize;
            if word_edge(before) && word_edge(after) && depth <= 0 {
                return Some(i);
            }
        } else if !v.except.iter().any(|e| {
            let e_at = e.find(&needle).unwrap_or(0);
            i >= e_at && hay.get(i - e_at..).is_some_and(|h| h.starts_with(e.as_str()))
        }) {
            return Some(i);
        }
    }
    None
}

#[test]
fn the_glossary_check_sees_a_variant_and_passes_its_exceptions() {
    let vs = glossary_variants();
    let find = |w: &str| {
        vs.iter()
            .find(|v| v.word == w)
            .unwrap_or_else(|| panic!("{w} is not a checked variant"))
    };
    assert!(forbidden_at("새벽에 유지보수 작업을 했다.", find("유지보수")).is_some());
    assert!(forbidden_at("파일을 다운로드했다.", find("다운")).is_none());
    assert!(forbidden_at("서버가 다운됐다.", find("다운")).is_some());
    assert!(forbidden_at("presence 서버가 끊겼다.", find("presence")).is_some());
    assert!(forbidden_at("접속 상태 서비스(presence)가 끊겼다.", find("presence")).is_none());
    assert!(forbidden_at("the-presence-api 를 불렀다.", find("presence")).is_none());
    assert!(
        !vs.iter().any(|v| v.word.contains('(')),
        "conditioned variants are left to people"
    );
}

/// Records use the glossary's terms: none of its forbidden variants appears in a
/// title, impact, check or section.
#[test]
fn records_use_the_glossary_terms() {
    let variants = glossary_variants();
    assert!(variants.len() >= 20, "{} checked variants", variants.len());
    let mut found = Vec::new();
    for inc in corpus().incidents {
        let mut texts: Vec<(String, String)> = inc.sections.iter().map(|s| (s.name.clone(), s.text.clone())).collect();
        texts.push(("title".into(), inc.title.clone()));
        texts.extend(inc.impact.clone().map(|i| ("impact".to_string(), i)));
        texts.extend(inc.checks.iter().map(|c| ("checks".to_string(), c.clone())));
        for (field, text) in &texts {
            for v in &variants {
                if let Some(i) = forbidden_at(text, v) {
                    let around: String = text[i..].chars().take(24).collect();
                    found.push(format!(
                        "{} {field}: {:?} in {around:?}; use {:?}",
                        inc.id, v.word, v.use_instead
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} uses of forbidden variants:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn every_classification_value_is_used_at_least_twice() {
    let c = corpus();
    let mut rare = BTreeMap::new();
    for (f, &incident_core::index::FacetDef { key, .. }) in incident_core::index::FACETS.iter().enumerate() {
        if key == "org" {
            continue; // one value per organisation, however many incidents it has
        }
        for v in &c.taxonomy.facets[f] {
            let n = c
                .incidents
                .iter()
                .filter(|i| i.facet(key).contains(&v.slug.as_str()))
                .count();
            if n < 2 {
                rare.insert(format!("{key}/{}", v.slug), n);
            }
        }
    }
    assert!(rare.is_empty(), "values used by fewer than two incidents: {rare:?}");
    // Every organisation value is used by some record.
    let orgs: BTreeSet<&str> = c.incidents.iter().map(|i| i.org.as_str()).collect();
    let unused: Vec<&str> = c
        .taxonomy
        .values("org")
        .iter()
        .map(|v| v.slug.as_str())
        .filter(|s| !orgs.contains(s))
        .collect();
    assert!(unused.is_empty(), "organisations without a record: {unused:?}");
}

#[test]
fn every_value_has_labels_a_description_and_synonyms() {
    let c = corpus();
    for (f, &incident_core::index::FacetDef { key, .. }) in incident_core::index::FACETS.iter().enumerate() {
        for v in &c.taxonomy.facets[f] {
            assert!(!v.ko.is_empty() && !v.en.is_empty(), "{key}/{}", v.slug);
            assert!(
                v.description.chars().count() >= 20,
                "{key}/{}: description too short",
                v.slug
            );
            if key != "org" {
                assert!(!v.synonyms.is_empty(), "{key}/{}: no synonyms", v.slug);
            }
        }
    }
}
