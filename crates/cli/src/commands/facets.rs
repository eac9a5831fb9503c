//! `facets`: how many records carry each taxonomy value, facet by facet.

use std::path::PathBuf;
use std::process::ExitCode;

use incident_build::corpus;

use super::{loaded_corpus, printable};

/// Arguments of `facets`.
#[derive(clap::Args)]
pub struct Args {
    /// The corpus folder.
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
}

/// Runs `facets`.
pub fn run(args: &Args) -> ExitCode {
    let data = args.data.as_path();
    let Some(corpus) = loaded_corpus(data) else {
        return ExitCode::FAILURE;
    };
    for (f, &incident_core::index::FacetDef { key, ko, .. }) in incident_core::index::FACETS.iter().enumerate() {
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
            println!("  {n:>4}  {:<34} {}", printable(&v.slug), printable(&v.ko));
        }
    }
    ExitCode::SUCCESS
}
