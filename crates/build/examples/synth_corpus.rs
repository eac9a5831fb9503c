//! Writes a synthetic corpus of `count` records made from the shipped ones, for the
//! scale benchmark (`scripts/bench-scale.sh`): record `i` is shipped record
//! `i mod 192` under id `IL-{10001 + i}`, its sources made unique (`?copy=i`), its
//! related ids dropped, and, past the first copy of each, about 15 % of its Hangul
//! words replaced by random mecab-ko-dic nouns (their particles kept), so that the
//! vocabulary grows with the corpus as real text does rather than repeating (the
//! first copies keep every shipped word, which the lexicon names). The taxonomy, lexicon, user
//! dictionary and general sources are copied; no ids have moved. Deterministic for
//! a given seed.
//!
//! cargo run --release -p incident-build --example synth_corpus -- data out/data 9000 [nouns.csv] [seed]

use std::fs;
use std::path::Path;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn is_hangul(c: char) -> bool {
    ('가'..='힣').contains(&c)
}

/// Replaces about 15 % of the Hangul words of `text`: the word's first one to
/// three syllables (its stem, roughly) by a noun, the rest (a particle) kept.
fn vary(text: &str, nouns: &[String], rng: &mut Rng) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String, rng: &mut Rng| {
        if !word.is_empty() && !nouns.is_empty() && rng.below(100) < 15 {
            let chars: Vec<char> = word.chars().collect();
            let stem = chars.len().clamp(1, 3).min(chars.len().saturating_sub(1).max(1));
            out.push_str(&nouns[rng.below(nouns.len())]);
            out.extend(&chars[stem..]);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if is_hangul(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out, rng);
            out.push(c);
        }
    }
    flush(&mut word, &mut out, rng);
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: synth_corpus <data> <out> <count> [nouns.csv] [seed]");
        std::process::exit(2);
    }
    let (data, out) = (Path::new(&args[0]), Path::new(&args[1]));
    let count: usize = args[2].parse().expect("count is a number");
    let home = std::env::var("HOME").unwrap_or_default();
    let nouns_csv = args
        .get(3)
        .cloned()
        .unwrap_or_else(|| format!("{home}/.cache/incident-library/src/mecab-ko-dic/NNG.csv"));
    let seed: u64 = args.get(4).map_or(15, |s| s.parse().expect("seed is a number"));
    let nouns = nouns_of(&nouns_csv);
    let shipped = shipped_records(data);
    let _ = fs::remove_dir_all(out);
    fs::create_dir_all(out.join("incidents")).unwrap();
    for file in [
        "taxonomy.toml",
        "lexicon.toml",
        "general-sources.toml",
        "dictionary.csv",
    ] {
        if data.join(file).is_file() {
            fs::copy(data.join(file), out.join(file)).unwrap();
        }
    }
    let general = fs::read_to_string(data.join("general-sources.toml")).unwrap_or_default();
    let mut rng = Rng(seed);
    let none: Vec<String> = Vec::new();
    for i in 0..count {
        let nouns = if i < shipped.len() { &none } else { &nouns };
        let (_, text) = &shipped[i % shipped.len()];
        let id = format!("IL-{}", 10001 + i);
        let record = synthetic_record(text, &id, i, nouns, &general, &mut rng);
        fs::write(out.join("incidents").join(format!("{id}.md")), record).unwrap();
    }
    println!("{count} records in {}", out.display());
}

/// The dictionary's common nouns of two to four Hangul syllables.
fn nouns_of(nouns_csv: &str) -> Vec<String> {
    fs::read_to_string(nouns_csv)
        .unwrap_or_else(|e| panic!("{nouns_csv}: {e} (run scripts/setup-ko-dic.sh)"))
        .lines()
        .filter_map(|l| l.split(',').next())
        .filter(|w| (2..=4).contains(&w.chars().count()) && w.chars().all(is_hangul))
        .map(str::to_string)
        .collect()
}

/// The shipped records, as (file name, text), by file name.
fn shipped_records(data: &Path) -> Vec<(String, String)> {
    let mut shipped: Vec<(String, String)> = fs::read_dir(data.join("incidents"))
        .expect("the corpus folder has incidents/")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    shipped.sort();
    shipped
}

/// Record `id` (the `i`th) made from the shipped record `text`: its title and body
/// varied with `nouns`, its sources made its own, its related ids dropped.
fn synthetic_record(text: &str, id: &str, i: usize, nouns: &[String], general: &str, rng: &mut Rng) -> String {
    let (front, body) = text
        .strip_prefix("+++\n")
        .and_then(|t| t.split_once("\n+++\n"))
        .expect("a record starts with +++ front matter");
    let mut lines = Vec::new();
    let mut in_sources = false;
    for line in front.lines() {
        if line.starts_with("sources = ") {
            in_sources = true;
        }
        let line = if line.starts_with("id = ") {
            format!("id = \"{id}\"")
        } else if line.starts_with("related = ") {
            "related = []".to_string()
        } else if line.starts_with("title = ") {
            vary(line, nouns, rng)
        } else if in_sources {
            // Each source once across the corpus, as `check` asks; the pages
            // several records may cite stay as they are.
            let mut l = line.to_string();
            for url in line.split('"').skip(1).step_by(2) {
                if !general.contains(url) {
                    let (base, fragment) = url
                        .split_once('#')
                        .map_or((url, String::new()), |(b, f)| (b, format!("#{f}")));
                    let join = if base.contains('?') { '&' } else { '?' };
                    l = l.replace(&format!("\"{url}\""), &format!("\"{base}{join}copy={i}{fragment}\""));
                }
            }
            l
        } else {
            line.to_string()
        };
        if in_sources && line.contains(']') {
            in_sources = false;
        }
        lines.push(line);
    }
    // Headings stay: they name the sections.
    let body: Vec<String> = body
        .lines()
        .map(|l| {
            if l.starts_with('#') {
                l.to_string()
            } else {
                vary(l, nouns, rng)
            }
        })
        .collect();
    let record = format!("+++\n{}\n+++\n{}\n", lines.join("\n"), body.join("\n"));
    record
}
