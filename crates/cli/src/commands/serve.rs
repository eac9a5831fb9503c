//! `serve`: build, serve the bundle on localhost, and rebuild when `data/` changes.

use incident_build::error::Result;

use crate::commands::build;

/// Arguments of `serve`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    /// Where to read and write, as for `build`.
    pub build: build::Args,
    /// Address to listen on (loopback unless you mean otherwise).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Do not rebuild when data/ changes.
    #[arg(long)]
    pub no_watch: bool,
}

/// Runs `serve`: blocks until the server stops.
pub fn run(args: &Args) -> Result<()> {
    let build::Args {
        data,
        out,
        pkg,
        force,
        site_url,
    } = &args.build;
    build::build(data, out, pkg, *force, site_url.as_deref())?;
    let (root, watch) = (out.clone(), (!args.no_watch).then(|| data.clone()));
    // The first build wrote the folder: later ones replace their own work.
    let (data, out, pkg, site_url) = (data.clone(), out.clone(), pkg.clone(), site_url.clone());
    let rebuild = move || build::build(&data, &out, &pkg, false, site_url.as_deref()).map(|_| ());
    crate::serve::serve(&args.host, args.port, &root, watch.as_deref(), rebuild)
}
