//! What a first search costs, read as the browser reads it (the same core and the
//! same files): `meta.bin`, then every file the search names in `missing` and
//! `likely`, round by round, until none is missing; plus the wasm module and the
//! search page's JS. Prints each query's files by round, or with `--summary` only
//! the figures over all queries (gzip bytes, each file compressed on its own: p50,
//! p95, max). Exits 1 when a query's first search is over [`BUDGET`] (or
//! `--budget BYTES`).
//!
//! cargo run --release --example first_search -- dist [--summary] [--budget B] <query>… | --file queries.toml…

/// Most gzip bytes a first search may cost, the wasm module and the JS included:
/// `scripts/test.sh` fails over it.
const BUDGET: usize = 150_000;

use std::io::Write;

use incident_core::search::CONNECTIONS;

fn gz(bytes: &[u8]) -> usize {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).unwrap();
    e.finish().unwrap().len()
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let dist = std::path::PathBuf::from(args.remove(0));
    let summary = args.first().is_some_and(|a| a == "--summary");
    if summary {
        args.remove(0);
    }
    let mut budget = BUDGET;
    if args.first().is_some_and(|a| a == "--budget") {
        budget = args[1].parse::<usize>().expect("--budget takes a number of bytes");
        args.drain(..2);
    }
    let shell = shell_bytes(&dist);
    let queries = queries_of(args);
    let searches: Vec<FirstSearch> = queries.iter().map(|q| first_search(&dist, shell, q, summary)).collect();
    let spare: Vec<usize> = searches.iter().map(|s| s.spare).collect();
    println!(
        "files fetched and not needed: {} in all, in {} of {} queries, at most {}",
        spare.iter().sum::<usize>(),
        spare.iter().filter(|&&n| n > 0).count(),
        spare.len(),
        spare.iter().max().copied().unwrap_or_default()
    );
    let rounds: Vec<usize> = searches.iter().map(|s| s.rounds).collect();
    let waves: Vec<usize> = searches.iter().map(|s| s.waves).collect();
    let mut sizes: Vec<(usize, String)> = searches.into_iter().map(|s| (s.bytes, s.query)).collect();
    sizes.sort_unstable();
    let at = |p: f64| sizes[((sizes.len() - 1) as f64 * p).round() as usize].0;
    let (largest, worst) = sizes.last().cloned().unwrap_or_default();
    println!(
        "first search, gzip (wasm + JS {shell} B, then meta.bin and the files the query needs), {} queries: p50 {} B, p95 {} B, max {largest} B ({worst:?})",
        sizes.len(),
        at(0.5),
        at(0.95),
    );
    println!(
        "rounds of index files after meta.bin, to the page's titles: {}",
        spread(rounds, "rounds")
    );
    println!(
        "waves of requests on {CONNECTIONS} connections after meta.bin (a round of n files takes n / {CONNECTIONS} rounded up): {}",
        spread(waves, "waves")
    );
    if largest > budget {
        eprintln!("first search: {largest} bytes gzip for {worst:?}, OVER the budget of {budget}");
        std::process::exit(1);
    }
    println!("first search: every query within the budget of {budget} bytes gzip");
}

/// p50, p95 and max of `counts`, and how many queries have each.
fn spread(mut counts: Vec<usize>, what: &str) -> String {
    counts.sort_unstable();
    let at = |p: f64| counts[((counts.len() - 1) as f64 * p).round() as usize];
    let mut by = std::collections::BTreeMap::new();
    for c in &counts {
        *by.entry(*c).or_insert(0) += 1;
    }
    let by: Vec<String> = by.iter().map(|(c, n)| format!("{c}: {n}")).collect();
    format!(
        "p50 {}, p95 {}, max {} (queries by {what}: {})",
        at(0.5),
        at(0.95),
        counts.last().copied().unwrap_or_default(),
        by.join(", ")
    )
}

/// What a first search costs: its gzip bytes, its rounds of index files after
/// `meta.bin` and their waves of requests, and the files it fetched in vain.
struct FirstSearch {
    query: String,
    bytes: usize,
    rounds: usize,
    waves: usize,
    spare: usize,
}

/// What the search page loads besides the index, as the build's size report counts
/// it (the graph's script comes with the first graph shown).
fn shell_bytes(dist: &std::path::Path) -> usize {
    ["pkg/incident_library_bg.wasm", "app.js", "pkg/library.js"]
        .iter()
        .map(|f| gz(&std::fs::read(dist.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"))))
        .sum()
}

/// The queries: `--file` and the query sets' `q = "…"` lines, or the arguments.
fn queries_of(args: Vec<String>) -> Vec<String> {
    if args.first().is_none_or(|a| a != "--file") {
        return args;
    }
    args[1..]
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .filter_map(|l| {
                    l.trim()
                        .strip_prefix("q = ")
                        .map(|q| serde_json::from_str::<String>(q).unwrap())
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The gzip bytes, the rounds, their waves and the files fetched in vain (early
/// blocks and `likely` listings that a search fetching only its `missing` never
/// reads) of query `q`'s first search, read round by round as the browser reads
/// it; with `quiet` false, each round's files are printed.
fn first_search(dist: &std::path::Path, shell: usize, q: &str, quiet: bool) -> FirstSearch {
    let dir = dist.join("index");
    let read = |name: &str| std::fs::read(dir.join(name));
    let mut index = incident_core::index::Index::open(read).unwrap();
    let request = incident_core::search::Request {
        query: q.to_string(),
        prefix: true,
        ..Default::default()
    };
    let mut bytes = shell + gz(&read("meta.bin").unwrap());
    // What the loader asks for while the module loads (`open` with the query).
    let early = early_blocks(&index, q);
    for name in &early {
        let b = read(name).unwrap();
        bytes += gz(&b);
        index.add_file(name, &b).unwrap();
    }
    let near = early_near(&dist.join("index"), q, &early);
    for name in &near {
        let b = read(name).unwrap();
        bytes += gz(&b);
        index.add_file(name, &b).unwrap();
    }
    let mut early: Vec<String> = early.into_iter().chain(near).collect();
    let listings = early_listings(&index, q, &early);
    for name in &listings {
        let b = read(name).unwrap();
        bytes += gz(&b);
        index.add_file(name, &b).unwrap();
    }
    early.extend(listings);
    if !quiet {
        println!("  with meta.bin: {} files: {}", early.len(), early.join(" "));
    }
    let mut rounds = Vec::new();
    let mut fetched: Vec<String> = early.clone();
    loop {
        let r = incident_core::search::search(&index, &request).unwrap();
        if r.missing.is_empty() {
            break;
        }
        // The provisional page's listings, which the loader fetches beside them;
        // neither names a file already loaded.
        let round: Vec<String> = r.missing.into_iter().chain(r.likely).collect();
        fetched.extend(round.iter().cloned());
        for name in &round {
            let b = read(name).unwrap();
            bytes += gz(&b);
            index.add_file(name, &b).unwrap();
        }
        rounds.push(round);
    }
    if !quiet {
        println!("{q:?}: {bytes} B gzip with wasm + JS");
        for (i, r) in rounds.iter().enumerate() {
            println!("  round {}: {} files: {}", i + 1, r.len(), r.join(" "));
        }
    }
    // The files a search that fetched only what it named in `missing` reads.
    let mut plain = incident_core::index::Index::open(read).unwrap();
    let mut needed = std::collections::BTreeSet::new();
    loop {
        let r = incident_core::search::search(&plain, &request).unwrap();
        if r.missing.is_empty() {
            break;
        }
        for name in r.missing {
            plain.add_file(&name, &read(&name).unwrap()).unwrap();
            needed.insert(name);
        }
    }
    let spare = fetched.iter().filter(|f| !needed.contains(*f)).count();
    if !quiet && spare > 0 {
        println!("  fetched and not needed: {spare}");
    }
    FirstSearch {
        query: q.to_string(),
        bytes,
        rounds: rounds.len(),
        waves: rounds.iter().map(|r| r.len().div_ceil(CONNECTIONS)).sum(),
        spare,
    }
}

/// Most blocks `IncidentLibrary.open` asks for before the module has started
/// (`EARLY_BLOCKS` in `www/pkg/library.js`).
const EARLY_BLOCKS: usize = 20;
/// The longest word whose runs of syllables are looked up early
/// (`EARLY_RUN_SYLLABLES` there).
const EARLY_RUN_SYLLABLES: usize = 16;

/// The vocabulary blocks that `IncidentLibrary.open` given query `q` fetches beside
/// `meta.bin`, by the same rule (`wordBlocks`, then `readingBlocks`, in
/// `www/pkg/library.js`): the blocks of its first 12 words as typed, split at what is
/// not a letter or digit and where Hangul syllables meet Latin letters; then, while
/// fewer than [`EARLY_BLOCKS`] are asked for, those of the number that begins a
/// word with Hangul after it (`2월` → `2`), those of the meanings of the lexicon
/// entries whose typed forms, or a verb's stem (the form without its final 다), of
/// two characters or more begin a word or a word and the next one; those of the
/// runs of two syllables or more that begin a word of at most
/// [`EARLY_RUN_SYLLABLES`] Hangul syllables; those of the runs inside such a
/// word that [`inner_run`] keeps; and those of each word and the next read as one.
fn early_blocks(index: &incident_core::index::Index, q: &str) -> Vec<String> {
    let hangul = |c: char| ('가'..='힣').contains(&c);
    let words = words_of(q);
    let directory = &index.meta.vocab;
    let blocks: Vec<usize> = words.iter().filter_map(|w| directory.block_of(w)).collect();
    // The number that begins a word with Hangul after it.
    let mut more: Vec<usize> = words
        .iter()
        .filter_map(|w| {
            let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
            (!digits.is_empty() && w[digits.len()..].starts_with(hangul)).then(|| directory.block_of(&digits))?
        })
        .collect();
    for (i, word) in words.iter().enumerate() {
        let texts = [Some(word.clone()), words.get(i + 1).map(|next| format!("{word}{next}"))];
        for entry in &index.meta.lexicon {
            let begins = |k: &str| k.chars().count() >= 2 && texts.iter().flatten().any(|t| t.starts_with(k));
            let found = entry
                .say
                .iter()
                .any(|form| begins(form) || form.strip_suffix('다').is_some_and(begins));
            if found {
                more.extend(entry.means.iter().flatten().map(|&p| directory.block_at(p as usize)));
            }
        }
    }
    let runs: Vec<Vec<char>> = words
        .iter()
        .filter(|w| w.chars().all(hangul) && w.chars().count() <= EARLY_RUN_SYLLABLES)
        .map(|w| w.chars().collect())
        .collect();
    let run_blocks = |syllables: &[char], from: usize, to: usize| {
        directory.block_of(&syllables[from..to].iter().collect::<String>())
    };
    for syllables in &runs {
        more.extend((2..=syllables.len()).filter_map(|to| run_blocks(syllables, 0, to)));
    }
    for syllables in &runs {
        let n = syllables.len();
        for from in 1..n {
            for to in (from + 2..=n).filter(|&to| inner_run(n, from, to)) {
                more.extend(run_blocks(syllables, from, to));
            }
        }
    }
    more.extend(words.windows(2).filter_map(|pair| directory.block_of(&pair.concat())));
    let mut names: Vec<String> = Vec::new();
    for (b, limit) in blocks
        .into_iter()
        .map(|b| (b, usize::MAX))
        .chain(more.into_iter().map(|b| (b, EARLY_BLOCKS)))
    {
        let name = incident_core::format::vocab::Directory::file(b);
        if !names.contains(&name) {
            if names.len() >= limit {
                break;
            }
            names.push(name);
        }
    }
    names
}

/// Words of `q` as `wordsOf` in `www/pkg/library.js` splits them.
fn words_of(q: &str) -> Vec<String> {
    let hangul = |c: char| ('가'..='힣').contains(&c);
    let text = incident_core::text::normalize(q);
    let mut words: Vec<String> = vec![String::new()];
    let mut last = ' ';
    for c in text.chars() {
        if !c.is_alphanumeric() {
            words.push(String::new());
        } else {
            if (hangul(last) && c.is_ascii_lowercase()) || (last.is_ascii_lowercase() && hangul(c)) {
                words.push(String::new());
            }
            words.last_mut().unwrap().push(c);
        }
        last = c;
    }
    words.into_iter().filter(|w| !w.is_empty()).take(12).collect()
}

/// Most near-term buckets `open` asks for early (`EARLY_NEAR` in
/// `www/pkg/library.js`).
const EARLY_NEAR: usize = 3;

/// The near-term buckets that `IncidentLibrary.open` asks for once the early blocks
/// (`early`) are in, by the same rule (`guessNear` in `www/pkg/library.js`), while
/// fewer than [`EARLY_BLOCKS`] files (the blocks counted) and [`EARLY_NEAR`]
/// buckets are asked for: word by word, those of a word
/// without digits that its typo lookup would read, when its block came and does not
/// hold it, no loaded term of two syllables (three letters) or more begins it, no
/// lexicon form or verb stem of two characters or more begins it, and, for the
/// last word, no term of the loaded blocks it would complete to starts with it.
fn early_near(dir: &std::path::Path, q: &str, early: &[String]) -> Vec<String> {
    use incident_core::near::{bucket_of, file, typo_lookup_keys};
    let read = |name: &str| std::fs::read(dir.join(name));
    // The loader knows only the terms of the blocks that came.
    let mut probe = incident_core::index::Index::open(read).unwrap();
    for name in early {
        probe.add_file(name, &read(name).unwrap()).unwrap();
    }
    let loaded = |t: &str| in_early(&probe, early, t);
    let known = |t: &str| loaded(t) && probe.df(t).is_some();
    let words = words_of(q);
    let mut out: Vec<String> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let chars: Vec<char> = w.chars().collect();
        let hangul = chars.iter().any(|c| ('가'..='힣').contains(c));
        let keys = incident_core::text::hangul::keys(w);
        let max = incident_core::query::typo_budget(w);
        // A word with jamo is read as initials (NFKC makes ㅁ the conjoining ᄆ).
        let jamo = chars.iter().any(|&c| {
            use incident_core::text::hangul::{is_hangul, is_hangul_syllable};
            is_hangul(c) && !is_hangul_syllable(c)
        });
        if max == 0 || jamo || chars.iter().any(char::is_ascii_digit) || !loaded(w) || known(w) {
            continue;
        }
        let head = (if hangul { 2 } else { 3 }..chars.len()).any(|to| known(&chars[..to].iter().collect::<String>()));
        let begins = |k: &str| k.chars().count() >= 2 && w.starts_with(k);
        let lexicon = probe.meta.lexicon.iter().any(|e| {
            e.say
                .iter()
                .any(|f| begins(f) || f.strip_suffix('다').is_some_and(begins))
        });
        let completes = i + 1 == words.len()
            && probe
                .loaded_vocab_range(w, &format!("{w}\u{10FFFF}"))
                .filter(|_| loaded(&format!("{w}\u{10FFFF}")))
                .is_some_and(|range| range.iter().any(|(t, _)| t != w));
        if head || lexicon || completes {
            continue;
        }
        for key in typo_lookup_keys(&keys, max, probe.meta.near_band) {
            let name = file(bucket_of(&key, probe.meta.near_buckets));
            if early.len() + out.len() < EARLY_BLOCKS && out.len() < EARLY_NEAR && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// Whether the block that would hold term `t` is one of the `early` files: the
/// loader knows only the terms of the blocks that came.
fn in_early(index: &incident_core::index::Index, early: &[String], t: &str) -> bool {
    let block = index.meta.vocab.block_of(t);
    block.is_some_and(|b| early.contains(&incident_core::format::vocab::Directory::file(b)))
}

/// Most listing files `open` asks for early (`EARLY_LISTINGS` in
/// `www/pkg/library.js`).
const EARLY_LISTINGS: usize = 5;
/// Most words the early blocks cannot read in a query that gets early listings
/// (`EARLY_UNREAD_WORDS` there).
const EARLY_UNREAD_WORDS: usize = 2;

/// The listing files that `IncidentLibrary.open` asks for once `meta.bin` and the
/// early files (`early`, loaded into `index`) are in, by the same rule (`guessHits`
/// in `www/pkg/library.js`), while fewer than [`EARLY_BLOCKS`] files are asked
/// for: each word read as the longest of its starts (of two syllables, three
/// letters, or the whole word when shorter) that the early blocks hold, an incident
/// scored by the idf of each word it has, the [`EARLY_LISTINGS`] best (the first
/// by number when even); none when more than [`EARLY_UNREAD_WORDS`] words have no
/// such start.
fn early_listings(index: &incident_core::index::Index, q: &str, early: &[String]) -> Vec<String> {
    let loaded = |t: &str| in_early(index, early, t);
    let n = index.len();
    let mut score = vec![0f64; n];
    let mut unread = 0;
    for w in words_of(q) {
        let chars: Vec<char> = w.chars().collect();
        let shortest = (if chars.iter().any(|c| ('가'..='힣').contains(c)) {
            2
        } else {
            3
        })
        .min(chars.len());
        let term = (shortest..=chars.len())
            .rev()
            .map(|to| chars[..to].iter().collect::<String>())
            .find(|t| loaded(t) && index.df(t).is_some());
        let Some(prepared) = term.and_then(|t| index.prepare(&t)) else {
            unread += 1;
            if unread > EARLY_UNREAD_WORDS {
                return Vec::new();
            }
            continue;
        };
        let mut docs = incident_core::bitset::Bitset::empty(n);
        index.add_incidents(&prepared, &mut docs);
        let df = prepared.postings.df() as f64;
        let idf = (1.0 + (n as f64 - df + 0.5) / (df + 0.5)).ln();
        for d in docs.iter() {
            score[d] += idf;
        }
    }
    let mut likely: Vec<usize> = (0..n).filter(|&d| score[d] > 0.0).collect();
    likely.sort_by(|&a, &b| score[b].total_cmp(&score[a]));
    let mut names = Vec::new();
    for d in likely.into_iter().take(EARLY_LISTINGS) {
        if early.len() + names.len() >= EARLY_BLOCKS {
            break;
        }
        let name = index.listing_file(d);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Whether the run of syllables `from..to` (not at the start) of a word of `n`
/// syllables is looked up early (`innerRun` in `www/pkg/library.js`): one of two
/// syllables in a word of five or more, or the last two of a word of four; a
/// longer one in a word of six or more. In a shorter word the runs inside are
/// mostly pieces of its particle or ending, which the search seldom looks up: over
/// both query sets a quarter of the blocks of the middle runs of four-syllable
/// words were read, and a seventh of those of the last two of three-syllable ones,
/// against three fifths and more of the others.
fn inner_run(n: usize, from: usize, to: usize) -> bool {
    match to - from {
        2 => n >= 5 || (n == 4 && to == n),
        _ => n >= 6,
    }
}
