//! `mcp`: the MCP server over stdio (read-only tools over a built bundle).

use std::path::PathBuf;

use incident_build::error::Result;

/// Arguments of `mcp`.
#[derive(clap::Args)]
pub struct Args {
    /// The built bundle.
    #[arg(long, default_value = "dist")]
    pub bundle: PathBuf,
    /// The site's public URL (https://incidents.example.org/), as given to `build`:
    /// every link in results, records, topics and resources is then absolute.
    #[arg(long, value_parser = incident_build::markdown::parse_site_url)]
    pub site_url: Option<String>,
}

/// Runs `mcp`: serves until stdin closes.
pub fn run(args: &Args) -> Result<()> {
    crate::mcp::Library::open(&args.bundle, args.site_url.clone())?.serve_stdio()
}
