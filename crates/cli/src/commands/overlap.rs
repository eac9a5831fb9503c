//! `overlap`: how close each record's sentences come to the saved text of its
//! sources, so that a record written from a Korean report can be shown to be in its
//! own words. The source texts live outside git, one folder per record:
//! `DIR/IL-0209/*.txt`.

use std::path::PathBuf;
use std::process::ExitCode;

use incident_build::overlap::{self, THRESHOLD};

use super::{loaded_corpus, printable};

/// Arguments of `overlap`.
#[derive(clap::Args)]
pub struct Args {
    /// The folder of saved source texts: one sub-folder per record id (`DIR/IL-0209/`),
    /// holding the text of each source the record was written from.
    #[arg(long)]
    pub sources: PathBuf,
    /// The corpus folder.
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
    /// Only these records (all records that have a source folder when none is given).
    pub ids: Vec<String>,
    /// Print this many of each record's closest sentences.
    #[arg(long, default_value_t = 1)]
    pub show: usize,
}

/// Runs `overlap`: a line per record with its highest Dice; exit 1 when a sentence
/// reaches the threshold or a named record has no saved sources.
pub fn run(args: &Args) -> ExitCode {
    let Some(corpus) = loaded_corpus(&args.data) else {
        return ExitCode::FAILURE;
    };
    if !args.sources.is_dir() {
        eprintln!(
            "error: {} is not a folder\n  hint: save each source's text as {}/<record id>/<n>.txt",
            args.sources.display(),
            args.sources.display()
        );
        return ExitCode::FAILURE;
    }
    let mut failed = false;
    for id in &args.ids {
        if !corpus.incidents.iter().any(|i| &i.id == id) {
            eprintln!("error: no record {id} in {}", args.data.display());
            failed = true;
        }
    }
    let (mut compared, mut over) = (0, 0);
    for inc in &corpus.incidents {
        if !args.ids.is_empty() && !args.ids.contains(&inc.id) {
            continue;
        }
        let report = match overlap::compare(inc, &args.sources) {
            Ok(Some(r)) => r,
            Ok(None) => {
                if !args.ids.is_empty() {
                    eprintln!(
                        "{}: no saved sources\n  hint: save the text of each source in {}",
                        inc.id,
                        args.sources.join(&inc.id).display()
                    );
                    failed = true;
                }
                continue;
            }
            Err(e) => {
                eprintln!("{}: the saved sources could not be read: {e}", inc.id);
                failed = true;
                continue;
            }
        };
        compared += 1;
        let bad = report.pairs.iter().filter(|p| p.dice >= THRESHOLD).count();
        println!(
            "{}: max {:.2} over {} sentences and {} source file(s){}",
            report.id,
            report.max(),
            report.pairs.len(),
            report.files.len(),
            if bad > 0 {
                format!(": {bad} at {THRESHOLD} or more")
            } else {
                String::new()
            }
        );
        for p in report.pairs.iter().take(args.show.max(bad)) {
            println!("  {:.2} ours:   {}", p.dice, printable(&p.ours));
            println!("       theirs: {} ({})", printable(&p.theirs), p.file.display());
        }
        if bad > 0 {
            over += 1;
        }
    }
    println!("{compared} record(s) compared, {over} with a sentence at Dice {THRESHOLD} or more");
    if over > 0 {
        println!("  hint: rewrite those sentences from the facts, in a different order and your own words");
    }
    if failed || over > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
