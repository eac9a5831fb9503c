//! `analyze`: the index terms the analyzer emits for a text, one per line.

use std::path::PathBuf;

use incident_build::bundle;
use incident_build::error::Result;

/// Arguments of `analyze`.
#[derive(clap::Args)]
pub struct Args {
    /// The text to analyze.
    pub text: String,
    /// The corpus folder (for its user dictionary).
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
}

/// Runs `analyze`.
pub fn run(args: &Args) -> Result<()> {
    for term in bundle::analyzer_for(&args.data)?.terms(&args.text)? {
        println!("{term}");
    }
    Ok(())
}
