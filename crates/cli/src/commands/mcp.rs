//! `mcp`: the MCP server over stdio (read-only tools over a built bundle).

use std::path::PathBuf;

use incident_build::error::Result;

/// Arguments of `mcp`.
#[derive(clap::Args)]
pub struct Args {
    /// The built bundle.
    #[arg(long, default_value = "dist")]
    pub bundle: PathBuf,
}

/// Runs `mcp`: serves until stdin closes.
pub fn run(args: &Args) -> Result<()> {
    crate::mcp::Library::open(&args.bundle)?.serve_stdio()
}
