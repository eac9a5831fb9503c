//! `eval`: recall@10 and MRR on a relevance query set, for this engine, the
//! references and other engines' rankings, with targets that fail the run.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use incident_build::corpus;
use incident_build::error::{Error, Result};
use incident_build::eval;
use incident_build::open;

/// Arguments of `eval`.
#[derive(clap::Args)]
pub struct Args {
    /// The corpus folder.
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
    /// The built bundle to search.
    #[arg(long, default_value = "dist")]
    pub bundle: PathBuf,
    /// The query set.
    #[arg(long, default_value = "tests/relevance/queries.toml")]
    pub queries: PathBuf,
    /// Another engine's rankings as NAME=FILE.json ({query: [ids]}); repeatable.
    #[arg(long = "external", value_name = "NAME=FILE")]
    pub external: Vec<String>,
    /// Fail (exit 1) when this engine's recall@10 is lower.
    #[arg(long, default_value_t = 0.95)]
    pub min_recall: f64,
    /// Fail (exit 1) when this engine's MRR is lower.
    #[arg(long, default_value_t = 0.85)]
    pub min_mrr: f64,
    /// Fail (exit 1) when a smaller share of the `absent` queries (about things the
    /// library does not hold) gets no full match.
    #[arg(long, default_value_t = 0.9)]
    pub min_absent: f64,
    /// Fail (exit 1) when this engine is below the character-bigram BM25 reference
    /// on any kind, in recall@10 or MRR.
    #[arg(long)]
    pub beat_reference: bool,
    /// List the queries each engine misses.
    #[arg(long)]
    pub verbose: bool,
    /// Score the set as typed without spaces: every query with its spaces removed
    /// (against --min-recall and --min-mrr), and the first two and three words of
    /// every query with and without spaces (against --max-unspaced-zero).
    #[arg(long)]
    pub unspaced: bool,
    /// With --unspaced: fail (exit 1) when a larger share of the two- and three-word
    /// prefixes that find something when spaced find nothing when typed without spaces.
    #[arg(long, default_value_t = 0.01)]
    pub max_unspaced_zero: f64,
}

/// Runs `eval`.
pub fn run(args: &Args) -> ExitCode {
    match eval(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Scores every engine, prints the tables, and checks this engine against the
/// targets of `args`.
fn eval(args: &Args) -> Result<ExitCode> {
    let corpus = corpus::load(&args.data).map_err(|d| {
        Error::msg(format!(
            "{} problem(s) in the corpus; run `incident-library check`",
            d.len()
        ))
    })?;
    let index = open::load_index(&args.bundle)?;
    let queries = eval::load_queries(&args.queries, &corpus)?;
    if args.unspaced {
        return eval_unspaced(args, &corpus, &index, &queries);
    }
    let mut rows = vec![
        (
            "incident-library".to_string(),
            eval::score(&queries, &eval::engine_rankings(&index, &queries)),
        ),
        (
            "bigram BM25".to_string(),
            eval::score(&queries, &eval::bigram_rankings(&corpus, &queries)),
        ),
        (
            "whitespace baseline".to_string(),
            eval::score(&queries, &eval::baseline_rankings(&corpus, &queries)),
        ),
    ];
    for spec in &args.external {
        let (name, file) = spec
            .split_once('=')
            .ok_or_else(|| Error::msg(format!("--external {spec:?}: expected NAME=FILE")))?;
        rows.push((
            name.to_string(),
            eval::score(&queries, &eval::external_rankings(Path::new(file), &queries)?),
        ));
    }
    print_eval(&queries, &rows, args.verbose);
    let failures = shortfalls(&rows[0].1, &rows[1].1, args);
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("below target: {f}");
        }
        return Ok(ExitCode::FAILURE);
    }
    let ours = &rows[0].1;
    println!(
        "\nok: recall@10 {:.3} >= {}, MRR {:.3} >= {}",
        ours.recall, args.min_recall, ours.mrr, args.min_mrr
    );
    Ok(ExitCode::SUCCESS)
}

/// The set typed without spaces: the queries with their spaces removed, scored
/// against the targets, and the zero-hit answers of the two- and three-word prefixes.
fn eval_unspaced(
    args: &Args,
    corpus: &corpus::Corpus,
    index: &incident_core::index::Index,
    queries: &[eval::Query],
) -> Result<ExitCode> {
    let glued = eval::unspaced(queries);
    let rows = vec![
        (
            "incident-library".to_string(),
            eval::score(&glued, &eval::engine_rankings(index, &glued)),
        ),
        (
            "bigram BM25".to_string(),
            eval::score(&glued, &eval::bigram_rankings(corpus, &glued)),
        ),
    ];
    println!("typed without spaces:");
    print_eval(&glued, &rows, args.verbose);
    let mut failures = Vec::new();
    let ours = &rows[0].1;
    if ours.recall < args.min_recall || ours.mrr < args.min_mrr {
        failures.push(format!(
            "without spaces: recall@10 {:.3} (target {}), MRR {:.3} (target {})",
            ours.recall, args.min_recall, ours.mrr, args.min_mrr
        ));
    }
    let pairs = eval::prefixes(queries);
    let report = eval::zero_hit_report(index, &pairs);
    println!("\nthe first two and three words, without spaces, where the spaced form finds something:");
    println!("| glued | prefixes | zero hits without spaces |");
    println!("| --- | --- | --- |");
    let (mut found, mut zero) = (0, 0);
    for (kind, (n, zeros)) in &report {
        println!(
            "| {kind} | {n} | {} ({:.1} %) |",
            zeros.len(),
            100.0 * zeros.len() as f64 / (*n).max(1) as f64
        );
        found += n;
        zero += zeros.len();
    }
    let share = zero as f64 / found.max(1) as f64;
    println!("| all | {found} | {zero} ({:.1} %) |", 100.0 * share);
    if args.verbose {
        for (kind, (_, zeros)) in &report {
            for z in zeros {
                println!("  zero hits ({kind}): {z}");
            }
        }
    }
    if share > args.max_unspaced_zero {
        failures.push(format!(
            "{zero} of {found} prefixes find nothing without spaces ({:.1} %, target at most {:.1} %)",
            100.0 * share,
            100.0 * args.max_unspaced_zero
        ));
    }
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("below target: {f}");
        }
        return Ok(ExitCode::FAILURE);
    }
    println!(
        "\nok without spaces: recall@10 {:.3} >= {}, MRR {:.3} >= {}, zero hits {:.1} % <= {:.1} %",
        ours.recall,
        args.min_recall,
        ours.mrr,
        args.min_mrr,
        100.0 * share,
        100.0 * args.max_unspaced_zero
    );
    Ok(ExitCode::SUCCESS)
}

/// Where this engine's scores (`ours`) fall short of the targets; `reference` is the
/// character-bigram BM25 row that `--beat-reference` compares with, kind by kind.
fn shortfalls(ours: &eval::Scores, reference: &eval::Scores, targets: &Args) -> Vec<String> {
    let mut failures = Vec::new();
    if ours.recall < targets.min_recall || ours.mrr < targets.min_mrr {
        failures.push(format!(
            "recall@10 {:.3} (target {}), MRR {:.3} (target {})",
            ours.recall, targets.min_recall, ours.mrr, targets.min_mrr
        ));
    }
    let (asked, clean) = ours.absent;
    if asked > 0 && (clean as f64) < targets.min_absent * asked as f64 {
        failures.push(format!(
            "{clean} of {asked} queries about things the library does not hold got no full match (target {:.0} %)",
            targets.min_absent * 100.0
        ));
    }
    if targets.beat_reference {
        for (kind, &(_, r, m)) in &ours.by_kind {
            if kind == eval::ABSENT {
                continue;
            }
            let (_, rr, rm) = reference.by_kind[kind];
            if r < rr || m < rm {
                failures.push(format!(
                    "kind {kind}: {r:.3} / {m:.3} is below the bigram reference's {rr:.3} / {rm:.3}"
                ));
            }
        }
    }
    failures
}

/// Prints the evaluation table: every engine overall, then by kind, then the share
/// of `absent` queries without a full match.
fn print_eval(queries: &[eval::Query], rows: &[(String, eval::Scores)], verbose: bool) {
    let scored = queries.iter().filter(|q| q.kind != eval::ABSENT).count();
    println!(
        "{} queries ({scored} scored by recall@{} and MRR, {} about things the library does not hold)",
        queries.len(),
        eval::CUTOFF,
        queries.len() - scored
    );
    println!("| engine | recall@10 | MRR | no full match on absent |");
    println!("| --- | --- | --- | --- |");
    for (name, s) in rows {
        let absent = if s.absent.0 == 0 {
            "–".to_string()
        } else {
            format!("{} / {}", s.absent.1, s.absent.0)
        };
        println!("| {name} | {:.3} | {:.3} | {absent} |", s.recall, s.mrr);
    }
    let kinds: Vec<&String> = rows[0].1.by_kind.keys().filter(|k| *k != eval::ABSENT).collect();
    println!("\nby kind (recall@10 / MRR):");
    println!(
        "| kind | queries | {} |",
        rows.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(" | ")
    );
    println!("| --- | --- |{}", " --- |".repeat(rows.len()));
    for k in kinds {
        let n = rows[0].1.by_kind[k].0;
        let cells: Vec<String> = rows
            .iter()
            .map(|(_, s)| {
                s.by_kind
                    .get(k)
                    .map_or("–".into(), |v| format!("{:.2} / {:.2}", v.1, v.2))
            })
            .collect();
        println!("| {k} | {n} | {} |", cells.join(" | "));
    }
    if verbose {
        for (name, s) in rows {
            println!("\n{name} misses:");
            for (q, got) in &s.misses {
                println!("  {q:?} -> {got:?}");
            }
        }
    }
}
