//! `check`: the corpus, the taxonomy and the lexicon, every problem with file, line,
//! field and hint.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use incident_build::bundle;
use incident_build::corpus;
use incident_build::error::Result;

/// Arguments of `check`.
#[derive(clap::Args)]
pub struct Args {
    /// The corpus folder.
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
}

/// Every `means` word of the lexicon against the terms of every record (needs the
/// Korean dictionary).
fn lexicon_reachability(data: &Path, c: &corpus::Corpus) -> Result<Vec<corpus::Diagnostic>> {
    use incident_build::indexer;
    let analyzer = bundle::analyzer_for(data)?;
    let mut vocabulary = std::collections::BTreeSet::new();
    for incident in &c.incidents {
        vocabulary.extend(indexer::record_terms(incident, &analyzer)?.into_all());
    }
    Ok(incident_build::lexicon::check_reachable(
        &data.join("lexicon.toml"),
        &c.lexicon,
        &vocabulary,
        |w| indexer::means_terms(w, &analyzer),
    ))
}

/// Runs `check`.
pub fn run(args: &Args) -> ExitCode {
    let data = args.data.as_path();
    match corpus::load(data) {
        Ok(c) => {
            let diags = match lexicon_reachability(data, &c) {
                Ok(d) => d,
                // The build reads the user dictionary with the Korean dictionary: when
                // that loads alone, the user dictionary is what the build would refuse.
                Err(e) if incident_build::analyze::Analyzer::load_default(None).is_ok() => {
                    eprintln!("{e}");
                    eprintln!("1 problem in {}", data.join(bundle::USER_DICTIONARY).display());
                    return ExitCode::FAILURE;
                }
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
