//! `search`: the built bundle, from the command line, as text or JSON.

use std::path::{Path, PathBuf};

use super::printable;

use incident_build::error::{Error, Result};
use incident_build::open;
use incident_core::search::{self, Request, Sort};

/// Arguments of `search`.
#[derive(clap::Args)]
pub struct Args {
    /// The query (may be empty: then the list is newest first).
    #[arg(default_value = "")]
    pub query: String,
    /// Facet filter as facet=slug (cause, component, symptom, factor, org); repeatable.
    #[arg(long = "filter", value_name = "FACET=SLUG")]
    pub filters: Vec<String>,
    /// Order: relevance or recent (default: relevance with a query, recent without).
    #[arg(long)]
    pub sort: Option<Sort>,
    /// Hits per page.
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    /// Page number, from 1.
    #[arg(long, default_value_t = 1)]
    pub page: usize,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Read the last word as the start of a longer word, as the search page does
    /// while you type.
    #[arg(long)]
    pub prefix: bool,
    /// Show how each hit's score is made: each matched word's share, the reading it
    /// matched by and how (`docs/ranking.md` gives the formula).
    #[arg(long)]
    pub explain: bool,
    /// The bundle to search.
    #[arg(long, default_value = "dist")]
    pub bundle: PathBuf,
}

/// Runs `search`.
pub fn run(args: &Args) -> Result<()> {
    let request = Request {
        query: args.query.clone(),
        sort: args.sort,
        page: args.page,
        per_page: args.limit,
        prefix: args.prefix,
        explain: args.explain,
        ..Default::default()
    };
    run_search(&args.bundle, request, &args.filters, args.json)
}

fn run_search(bundle_dir: &Path, mut request: Request, filters: &[String], json: bool) -> Result<()> {
    let index = open::load_index(bundle_dir)?;
    request.filters = parse_filters(filters)?;
    let response = search::search(&index, &request).map_err(|e| Error::msg(e.to_string()))?;
    // Each hit with where its terms occur (offsets in characters).
    let excerpts: Vec<Vec<incident_core::excerpt::Excerpt>> = response
        .hits
        .iter()
        .map(|h| incident_build::passages::excerpts(bundle_dir, h))
        .collect();
    if json {
        print_json(&response, &excerpts)
    } else {
        print_text(&response, &excerpts);
        Ok(())
    }
}

/// `--filter FACET=SLUG` arguments as (facet, slug) pairs.
fn parse_filters(filters: &[String]) -> Result<Vec<(String, String)>> {
    filters
        .iter()
        .map(|f| {
            f.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| {
                    Error::msg(format!(
                        "--filter {f:?}: expected FACET=SLUG, e.g. --filter component=cdn-edge"
                    ))
                })
        })
        .collect()
}

/// The response as JSON, each hit with its excerpts.
fn print_json(response: &search::Response, excerpts: &[Vec<incident_core::excerpt::Excerpt>]) -> Result<()> {
    let mut value = serde_json::to_value(response).map_err(|e| Error::msg(e.to_string()))?;
    if let Some(hits) = value["hits"].as_array_mut() {
        for (hit, found) in hits.iter_mut().zip(excerpts) {
            hit["excerpts"] = serde_json::to_value(found).map_err(|e| Error::msg(e.to_string()))?;
        }
    }
    println!(
        "{}",
        serde_json::to_string_pretty(&value).map_err(|e| Error::msg(e.to_string()))?
    );
    Ok(())
}

/// The response for a person: the count, each hit with its best excerpt, and the
/// facet counts.
fn print_text(response: &search::Response, excerpts: &[Vec<incident_core::excerpt::Excerpt>]) {
    let first = (response.page - 1) * response.per_page + 1;
    let last = (first + response.hits.len()).saturating_sub(1);
    println!(
        "사례 {}건 ({}), {}건 중 {}~{}번째",
        response.total,
        if response.sort == Sort::Relevance {
            "관련도순"
        } else {
            "최근순"
        },
        response.total,
        first.min(last.max(1)),
        last
    );
    for (i, hit) in response.hits.iter().enumerate() {
        println!(
            "{:>3}. {}  {}  {}  {:.3}",
            first + i,
            printable(&hit.id),
            printable(&hit.date),
            printable(&hit.org),
            hit.score
        );
        println!("     {}", printable(&hit.title));
        if let Some(line) = explanation(hit) {
            println!("     {line}");
        }
        if let Some(e) = incident_core::excerpt::best(&excerpts[i]) {
            println!("     {} · {}", printable(&e.section), printable(&e.marked("[", "]")));
        }
    }
    for (key, counts) in response.facets.iter() {
        let shown: Vec<String> = counts
            .iter()
            .filter(|c| c.count > 0 || c.selected)
            .map(|c| {
                format!(
                    "{}{} ({})",
                    if c.selected { "*" } else { "" },
                    printable(&c.slug),
                    c.count
                )
            })
            .collect();
        if !shown.is_empty() {
            println!("{key}: {}", shown.join(", "));
        }
    }
}

/// How `hit`'s score is made, when the request asked (`--explain`): the score as
/// the sum of each matched word's share, with what the word matched and how, and
/// the words it did not match.
fn explanation(hit: &search::Hit) -> Option<String> {
    let shares: Vec<String> = hit
        .matched
        .iter()
        .map(|m| {
            m.score
                .map(|s| format!("{s:.3} {} ({} {})", printable(&m.word), m.how, printable(&m.via)))
        })
        .collect::<Option<_>>()?;
    let mut line = format!("= {}", shares.join(" + "));
    if !hit.missing.is_empty() {
        line.push_str(&format!("; not matched: {}", printable(&hit.missing.join(", "))));
    }
    Some(line)
}
