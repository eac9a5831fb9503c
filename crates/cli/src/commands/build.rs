//! `build`: the bundle from the corpus, written atomically, with a size report.

use std::path::{Path, PathBuf};

use incident_build::bundle;
use incident_build::error::{Error, Result};

/// Where `build` and `serve` read the corpus and the wasm package and write the bundle.
#[derive(clap::Args)]
pub struct Args {
    /// The corpus folder.
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
    /// The output folder; replaced only when the build succeeds.
    #[arg(long, default_value = "dist")]
    pub out: PathBuf,
    /// The wasm package made by scripts/build-wasm.sh.
    #[arg(long, default_value = "pkg")]
    pub pkg: PathBuf,
    /// Replace the output folder even when this tool did not write it (never the
    /// corpus, and never a file).
    #[arg(long)]
    pub force: bool,
    /// The site's public URL (https://incidents.example.org/): the pages then name
    /// their canonical URL and carry link previews (OpenGraph and Twitter tags, JSON-LD,
    /// a preview image per incident), the build writes sitemap.xml and the Atom feeds,
    /// and the Markdown versions of the records and llms.txt link absolutely.
    #[arg(long, value_parser = incident_build::markdown::parse_site_url)]
    pub site_url: Option<String>,
}

/// Runs `build`.
pub fn run(args: &Args) -> Result<()> {
    build(&args.data, &args.out, &args.pkg, args.force, args.site_url.as_deref()).map(|_| ())
}

/// Builds `data` into `out` with a progress bar, and prints the report.
pub fn build(data: &Path, out: &Path, pkg: &Path, force: bool, site_url: Option<&str>) -> Result<bundle::BuildReport> {
    let started = std::time::Instant::now();
    let analyzer = bundle::analyzer_for(data)?;
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len}")
            .map_err(|e| Error::msg(e.to_string()))?
            .progress_chars("=> "),
    );
    bar.set_message("indexing");
    let options = bundle::BuildOptions {
        pkg: Some(pkg.to_path_buf()),
        force,
        site_url: site_url.map(str::to_string),
    };
    let report = bundle::build(data, out, &analyzer, &options, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let report = report?;
    println!(
        "built {} in {:.1?}: {} records, {} pages and files, {} terms, {} incident-list entries, {} filter keys (part {}, often {}, title {})",
        out.display(),
        started.elapsed(),
        report.incidents,
        report.files.len(),
        report.vocab_terms,
        report.key_counts[0],
        report.filter_keys,
        report.key_counts[1],
        report.key_counts[2],
        report.key_counts[3]
    );
    println!("  {:<44} {:>10} {:>10}", "size report", "raw", "gzip");
    for row in &report.sizes {
        println!("  {:<44} {:>10} {:>10}", row.what, row.raw, row.gzip);
    }
    Ok(report)
}
