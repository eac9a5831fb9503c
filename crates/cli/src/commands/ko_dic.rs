//! `ko-dic`: the lindera ko-dic dictionary from mecab-ko-dic sources.

use std::path::PathBuf;

use incident_build::error::Result;
use incident_build::ko_dic;

/// Arguments of `ko-dic`.
#[derive(clap::Args)]
pub struct Args {
    /// The mecab-ko-dic folder (CSV files, matrix.def, char.def, unk.def).
    #[arg(long)]
    pub source: PathBuf,
    /// lindera-ko-dic's metadata.json.
    #[arg(long)]
    pub metadata: PathBuf,
    /// Where to write the dictionary (default: the cache folder).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `ko-dic`.
pub fn run(args: &Args) -> Result<()> {
    ko_dic::build_dictionary(
        &args.source,
        &args.metadata,
        &args.out.clone().unwrap_or_else(ko_dic::default_dir),
    )
}
