//! The `incident-library` command line.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use incident_library::error::{Error, Result};
use incident_library::search::{self, Request, Sort};
use incident_library::{bundle, corpus, kodic};

#[derive(Parser)]
#[command(
    name = "incident-library",
    version,
    about = "A Korean-first, zero-backend search for public incident reports"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check the corpus and the taxonomy; print every problem with file, line, field and hint.
    Check {
        /// The corpus folder.
        #[arg(long, default_value = "data")]
        data: PathBuf,
    },
    /// Build the bundle (index, and later the site) into the output folder, atomically.
    Build(BuildArgs),
    /// Build the bundle, serve it on localhost and rebuild when data/ changes.
    Serve {
        #[command(flatten)]
        build: BuildArgs,
        /// Address to listen on (loopback unless you mean otherwise).
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Port to listen on.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Do not rebuild when data/ changes.
        #[arg(long)]
        no_watch: bool,
    },
    /// Search the built bundle.
    Search {
        /// The query (may be empty: then the list is newest first).
        #[arg(default_value = "")]
        query: String,
        /// Facet filter as facet=slug (cause, component, symptom, factor, org); repeatable.
        #[arg(long = "filter", value_name = "FACET=SLUG")]
        filters: Vec<String>,
        /// Order: relevance or recent (default: relevance with a query, recent without).
        #[arg(long)]
        sort: Option<Sort>,
        /// Hits per page.
        #[arg(long, default_value_t = 10)]
        limit: usize,
        /// Page number, from 1.
        #[arg(long, default_value_t = 1)]
        page: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Read the last word as the start of a longer word, as the search page does
        /// while you type.
        #[arg(long)]
        prefix: bool,
        /// The bundle to search.
        #[arg(long, default_value = "dist")]
        bundle: PathBuf,
    },
    /// Print how many incidents carry each taxonomy value, facet by facet.
    Facets {
        /// The corpus folder.
        #[arg(long, default_value = "data")]
        data: PathBuf,
    },
    /// Score the search on the relevance query set: recall@10 and MRR for this
    /// engine, a whitespace-split baseline and (with --external) other engines.
    Eval {
        /// The corpus folder.
        #[arg(long, default_value = "data")]
        data: PathBuf,
        /// The built bundle to search.
        #[arg(long, default_value = "dist")]
        bundle: PathBuf,
        /// The query set.
        #[arg(long, default_value = "tests/relevance/queries.toml")]
        queries: PathBuf,
        /// Another engine's rankings as NAME=FILE.json ({query: [ids]}); repeatable.
        #[arg(long = "external", value_name = "NAME=FILE")]
        external: Vec<String>,
        /// Fail (exit 1) when this engine's recall@10 is lower.
        #[arg(long, default_value_t = 0.95)]
        min_recall: f64,
        /// Fail (exit 1) when this engine's MRR is lower.
        #[arg(long, default_value_t = 0.85)]
        min_mrr: f64,
        /// Fail (exit 1) when a smaller share of the `absent` queries (about things the
        /// library does not hold) gets no full match.
        #[arg(long, default_value_t = 0.9)]
        min_absent: f64,
        /// Fail (exit 1) when this engine is below the character-bigram BM25 reference
        /// on any kind, in recall@10 or MRR.
        #[arg(long)]
        beat_reference: bool,
        /// List the queries each engine misses.
        #[arg(long)]
        verbose: bool,
    },
    /// Serve the bundle to AI agents: an MCP server over stdio (read-only tools
    /// search_incidents, list_incidents, get_incident, get_topic, vocab).
    Mcp {
        /// The built bundle.
        #[arg(long, default_value = "dist")]
        bundle: PathBuf,
    },
    /// Print the index terms the analyzer emits for a text, one per line.
    Analyze {
        /// The text to analyze.
        text: String,
        /// The corpus folder (for its user dictionary).
        #[arg(long, default_value = "data")]
        data: PathBuf,
    },
    /// Build the lindera ko-dic dictionary from mecab-ko-dic sources
    /// (scripts/setup-ko-dic.sh runs this for you).
    KoDic {
        /// The mecab-ko-dic folder (CSV files, matrix.def, char.def, unk.def).
        #[arg(long)]
        source: PathBuf,
        /// lindera-ko-dic's metadata.json.
        #[arg(long)]
        metadata: PathBuf,
        /// Where to write the dictionary (default: the cache folder).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Where `build` and `serve` read the corpus and the wasm package and write the bundle.
#[derive(clap::Args)]
struct BuildArgs {
    /// The corpus folder.
    #[arg(long, default_value = "data")]
    data: PathBuf,
    /// The output folder; replaced only when the build succeeds.
    #[arg(long, default_value = "dist")]
    out: PathBuf,
    /// The wasm package made by scripts/build-wasm.sh.
    #[arg(long, default_value = "pkg")]
    pkg: PathBuf,
    /// Replace the output folder even when this tool did not write it (never the
    /// corpus, and never a file).
    #[arg(long)]
    force: bool,
}

fn main() -> ExitCode {
    // Output piped into `head` ends quietly, as with other command-line tools, instead
    // of a panic on the closed pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { data } => return check(&data),
        Command::Facets { data } => return facets(&data),
        Command::Mcp { bundle } => incident_library::mcp::Library::open(&bundle).and_then(|lib| lib.serve_stdio()),
        Command::Eval {
            data,
            bundle,
            queries,
            external,
            min_recall,
            min_mrr,
            min_absent,
            beat_reference,
            verbose,
        } => {
            let targets = EvalTargets {
                recall: min_recall,
                mrr: min_mrr,
                absent: min_absent,
                beat_reference,
            };
            return match eval(&data, &bundle, &queries, &external, &targets, verbose) {
                Ok(code) => code,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            };
        }
        Command::Build(BuildArgs { data, out, pkg, force }) => build(&data, &out, &pkg, force).map(|_| ()),
        Command::Serve {
            build: BuildArgs { data, out, pkg, force },
            host,
            port,
            no_watch,
        } => build(&data, &out, &pkg, force).and_then(|_| {
            let (root, watch) = (out.clone(), (!no_watch).then(|| data.clone()));
            // The first build wrote the folder: later ones replace their own work.
            let rebuild = move || build(&data, &out, &pkg, false).map(|_| ());
            incident_library::serve::serve(&host, port, &root, watch.as_deref(), rebuild)
        }),
        Command::Search {
            query,
            filters,
            sort,
            limit,
            page,
            json,
            prefix,
            bundle,
        } => run_search(
            &bundle,
            Request {
                query,
                sort,
                page,
                per_page: limit,
                prefix,
                ..Default::default()
            },
            &filters,
            json,
        ),
        Command::Analyze { text, data } => bundle::analyzer_for(&data).and_then(|a| a.terms(&text)).map(|terms| {
            for t in terms {
                println!("{t}");
            }
        }),
        Command::KoDic { source, metadata, out } => {
            kodic::build_dictionary(&source, &metadata, &out.unwrap_or_else(kodic::default_dir))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Every `means` word of the lexicon against the terms of every record (needs the
/// Korean dictionary).
fn lexicon_reachability(data: &Path, c: &corpus::Corpus) -> Result<Vec<corpus::Diagnostic>> {
    use incident_library::indexer;
    let analyzer = bundle::analyzer_for(data)?;
    let mut vocabulary = std::collections::BTreeSet::new();
    for incident in &c.incidents {
        vocabulary.extend(indexer::record_terms(incident, &analyzer)?.all);
    }
    Ok(incident_library::lexicon::check_reachable(
        &data.join("lexicon.toml"),
        &c.lexicon,
        &vocabulary,
        |w| indexer::means_terms(w, &analyzer),
    ))
}

fn check(data: &Path) -> ExitCode {
    match corpus::load(data) {
        Ok(c) => {
            let diags = match lexicon_reachability(data, &c) {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("note: the lexicon's words were not checked against the records: {e}");
                    Vec::new()
                }
            };
            if !diags.is_empty() {
                for d in &diags {
                    eprintln!("{d}");
                }
                eprintln!("{} problem(s) in the lexicon", diags.len());
                return ExitCode::FAILURE;
            }
            let values: usize = c.taxonomy.facets.iter().map(Vec::len).sum();
            println!(
                "ok: {} records, {} taxonomy values, {} lexicon entries",
                c.incidents.len(),
                values,
                c.lexicon.len()
            );
            ExitCode::SUCCESS
        }
        Err(diags) => {
            for d in &diags {
                eprintln!("{d}");
            }
            let files: std::collections::BTreeSet<_> = diags.iter().map(|d| &d.file).collect();
            eprintln!("{} problem(s) in {} file(s)", diags.len(), files.len());
            ExitCode::FAILURE
        }
    }
}

/// What `eval` requires of this engine.
struct EvalTargets {
    recall: f64,
    mrr: f64,
    absent: f64,
    beat_reference: bool,
}

fn eval(
    data: &Path,
    bundle: &Path,
    queries: &Path,
    external: &[String],
    targets: &EvalTargets,
    verbose: bool,
) -> Result<ExitCode> {
    use incident_library::eval;
    let corpus = corpus::load(data).map_err(|d| {
        Error::msg(format!(
            "{} problem(s) in the corpus; run `incident-library check`",
            d.len()
        ))
    })?;
    let index = bundle::load_index(bundle)
        .map_err(|e| Error::msg(format!("{e}\n  hint: run `incident-library build` first")))?;
    let queries = eval::load_queries(queries, &corpus)?;
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
    for spec in external {
        let (name, file) = spec
            .split_once('=')
            .ok_or_else(|| Error::msg(format!("--external {spec:?}: expected NAME=FILE")))?;
        rows.push((
            name.to_string(),
            eval::score(&queries, &eval::external_rankings(Path::new(file), &queries)?),
        ));
    }
    print_eval(&queries, &rows, verbose);
    let mut failures = Vec::new();
    let ours = &rows[0].1;
    if ours.recall < targets.recall || ours.mrr < targets.mrr {
        failures.push(format!(
            "recall@10 {:.3} (target {}), MRR {:.3} (target {})",
            ours.recall, targets.recall, ours.mrr, targets.mrr
        ));
    }
    let (asked, clean) = ours.absent;
    if asked > 0 && (clean as f64) < targets.absent * asked as f64 {
        failures.push(format!(
            "{clean} of {asked} queries about things the library does not hold got no full match (target {:.0} %)",
            targets.absent * 100.0
        ));
    }
    if targets.beat_reference {
        let reference = &rows[1].1;
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
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("below target: {f}");
        }
        return Ok(ExitCode::FAILURE);
    }
    println!(
        "\nok: recall@10 {:.3} >= {}, MRR {:.3} >= {}",
        ours.recall, targets.recall, ours.mrr, targets.mrr
    );
    Ok(ExitCode::SUCCESS)
}

/// Prints the evaluation table: every engine overall, then by kind, then the share
/// of `absent` queries without a full match.
fn print_eval(
    queries: &[incident_library::eval::Query],
    rows: &[(String, incident_library::eval::Scores)],
    verbose: bool,
) {
    use incident_library::eval;
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

fn facets(data: &Path) -> ExitCode {
    let corpus = match corpus::load(data) {
        Ok(c) => c,
        Err(diags) => {
            for d in &diags {
                eprintln!("{d}");
            }
            eprintln!("{} problem(s); run `incident-library check`", diags.len());
            return ExitCode::FAILURE;
        }
    };
    for (f, (key, ko, _)) in incident_library::index::FACETS.iter().enumerate() {
        let values = &corpus.taxonomy.facets[f];
        println!("{ko} ({key}): {} values", values.len());
        let mut rows: Vec<(usize, &corpus::Value)> = values
            .iter()
            .map(|v| {
                (
                    corpus
                        .incidents
                        .iter()
                        .filter(|i| i.facet(key).contains(&v.slug.as_str()))
                        .count(),
                    v,
                )
            })
            .collect();
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.slug.cmp(&b.1.slug)));
        for (n, v) in rows {
            println!("  {n:>4}  {:<34} {}", v.slug, v.ko);
        }
    }
    ExitCode::SUCCESS
}

fn build(data: &Path, out: &Path, pkg: &Path, force: bool) -> Result<bundle::BuildReport> {
    let started = std::time::Instant::now();
    let analyzer = bundle::analyzer_for(data)?;
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len}")
            .map_err(|e| Error::msg(e.to_string()))?
            .progress_chars("=> "),
    );
    bar.set_message("indexing");
    let options = bundle::BuildOptions {
        pkg: Some(pkg.to_path_buf()),
        force,
    };
    let report = bundle::build(data, out, &analyzer, &options, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let report = report?;
    println!(
        "built {} in {:.1?}: {} records, {} pages and files, {} terms, {} filter keys (any {}, part {}, often {}, title {})",
        out.display(),
        started.elapsed(),
        report.incidents,
        report.files.len(),
        report.vocab_terms,
        report.filter_keys,
        report.key_counts[0],
        report.key_counts[1],
        report.key_counts[2],
        report.key_counts[3]
    );
    println!("  {:<20} {:>10} {:>10}", "size report", "raw", "gzip");
    for row in &report.sizes {
        println!("  {:<20} {:>10} {:>10}", row.what, row.raw, row.gzip);
    }
    Ok(report)
}

fn run_search(bundle_dir: &Path, mut request: Request, filters: &[String], json: bool) -> Result<()> {
    let index = bundle::load_index(bundle_dir)
        .map_err(|e| Error::msg(format!("{e}\n  hint: run `incident-library build` first")))?;
    let filters = filters
        .iter()
        .map(|f| {
            f.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| {
                    Error::msg(format!(
                        "--filter {f:?}: expected FACET=SLUG, e.g. --filter component=cdn-edge"
                    ))
                })
        })
        .collect::<Result<Vec<_>>>()?;
    request.filters = filters;
    let response = search::search(&index, &request).map_err(|e| Error::msg(e.to_string()))?;
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&response).map_err(|e| Error::msg(e.to_string()))?
        );
        return Ok(());
    }
    let first = (response.page - 1) * response.per_page + 1;
    let last = (first + response.hits.len()).saturating_sub(1);
    println!(
        "사례 {}건 ({}), {}건 중 {}~{}번째",
        response.total,
        if response.sort == Sort::Relevance {
            "관련도순"
        } else {
            "최근순"
        },
        response.total,
        first.min(last.max(1)),
        last
    );
    for (i, hit) in response.hits.iter().enumerate() {
        println!(
            "{:>3}. {}  {}  {}  {:.3}",
            first + i,
            hit.id,
            hit.date,
            hit.org,
            hit.score
        );
        println!("     {}", hit.title);
    }
    for (key, counts) in response.facets.iter() {
        let shown: Vec<String> = counts
            .iter()
            .filter(|c| c.count > 0 || c.selected)
            .map(|c| format!("{}{} ({})", if c.selected { "*" } else { "" }, c.slug, c.count))
            .collect();
        if !shown.is_empty() {
            println!("{key}: {}", shown.join(", "));
        }
    }
    Ok(())
}
