//! The `incident-library` command line: parses the arguments and hands them to the
//! subcommand's module in `commands/`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use incident_library::commands::{analyze, build, check, eval, facets, ko_dic, mcp, overlap, search, serve};

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
    Check(check::Args),
    /// Build the bundle (index, site, API, package) into the output folder, atomically.
    Build(build::Args),
    /// Build the bundle, serve it on localhost and rebuild when data/ changes.
    Serve(serve::Args),
    /// Search the built bundle.
    Search(search::Args),
    /// Print how many incidents carry each taxonomy value, facet by facet.
    Facets(facets::Args),
    /// Score the search on the relevance query set: recall@10 and MRR for this
    /// engine, a whitespace-split baseline and (with --external) other engines.
    Eval(eval::Args),
    /// Serve the bundle to AI agents: an MCP server over stdio (read-only tools to
    /// search, list and read incidents and the taxonomy; resources and prompts).
    Mcp(mcp::Args),
    /// Print the index terms the analyzer emits for a text, one per line.
    Analyze(analyze::Args),
    /// Compare each record's sentences with the saved text of its sources
    /// (character-bigram Dice); exit 1 when a sentence reaches 0.6.
    Overlap(overlap::Args),
    /// Build the lindera ko-dic dictionary from mecab-ko-dic sources
    /// (scripts/setup-ko-dic.sh runs this for you).
    KoDic(ko_dic::Args),
}

fn main() -> ExitCode {
    // Output piped into `head` ends quietly, as with other command-line tools, instead
    // of a panic on the closed pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let result = match Cli::parse().command {
        // These print their own diagnostics and choose their exit code.
        Command::Check(args) => return check::run(&args),
        Command::Facets(args) => return facets::run(&args),
        Command::Eval(args) => return eval::run(&args),
        Command::Overlap(args) => return overlap::run(&args),
        Command::Build(args) => build::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Mcp(args) => mcp::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::KoDic(args) => ko_dic::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
