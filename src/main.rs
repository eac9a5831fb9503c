//! The `incident-library` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use incident_library::{analyze, kodic};

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
    /// Print the index terms the analyzer emits for a text (one per line).
    Analyze {
        /// The text to analyze.
        text: String,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze { text } => analyze::Analyzer::load_default(
            Some(std::path::Path::new("data/dictionary.csv")).filter(|p| p.is_file()),
        )
        .and_then(|a| a.terms(&text))
        .map(|terms| {
            for t in terms {
                println!("{t}");
            }
        }),
        Command::KoDic {
            source,
            metadata,
            out,
        } => {
            let out = out.unwrap_or_else(kodic::default_dir);
            kodic::build_dictionary(&source, &metadata, &out)
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
