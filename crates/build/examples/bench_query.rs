//! Times full queries (analysis, matching, ranking, facet counts, the flow graph,
//! paging) on a built bundle, natively: every query of the relevance sets, many
//! times over. Prints the mean, p50, p95 and the slowest queries.
//!
//! cargo run --release --example bench_query [dist] [queries.toml …]
//!
//! `BENCH_ROUNDS` sets the rounds (50), `BENCH_GRAPH=0` leaves the flow graph out
//! and `BENCH_PREFIX=1` reads every query as typed so far (its last word a prefix),
//! as the scale benchmark's browser timing does. `BENCH_DUMP=<file>` writes every
//! response as JSON, one line a query, to compare two builds' answers.

use std::time::Instant;

use incident_core::search::{search, Request};

fn main() {
    let mut args = std::env::args().skip(1);
    let dist = args.next().unwrap_or_else(|| "dist".into());
    let mut files: Vec<String> = args.collect();
    if files.is_empty() {
        files = vec![
            "tests/relevance/queries.toml".into(),
            "tests/relevance/blind.toml".into(),
        ];
    }
    let index = incident_build::open::load_index(std::path::Path::new(&dist)).unwrap_or_else(|e| panic!("{e}"));
    let corpus =
        incident_build::corpus::load(std::path::Path::new("data")).unwrap_or_else(|d| panic!("{} problems", d.len()));
    let mut queries = Vec::new();
    for f in &files {
        queries.extend(
            incident_build::eval::load_queries(std::path::Path::new(f), &corpus).unwrap_or_else(|e| panic!("{e}")),
        );
    }
    let typed = std::env::var("BENCH_PREFIX").is_ok_and(|v| v == "1");
    let graph = std::env::var("BENCH_GRAPH").map_or(true, |v| v != "0");
    let requests: Vec<Request> = queries
        .iter()
        .map(|q| request(&q.q, typed || q.kind == "prefix", graph))
        .collect();
    warm_up(&index, &requests);
    let rounds: usize = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(50);
    let (samples, per_query) = measure(&index, &requests, rounds);
    let names: Vec<&str> = queries.iter().map(|q| q.q.as_str()).collect();
    println!(
        "native: {} incidents, {} queries x {rounds} rounds (with facet counts{})",
        index.len(),
        requests.len(),
        if graph { " and the flow graph" } else { "" }
    );
    report(samples, &per_query, &names);
}

/// The page's request for `query`, with the flow graph's first tab when `graph`.
fn request(query: &str, prefix: bool, graph: bool) -> Request {
    Request {
        query: query.to_string(),
        prefix,
        graph: if graph {
            // The graph's first tab: the first three facets, as the page makes it.
            incident_core::facets::FACETS
                .iter()
                .take(3)
                .map(|f| f.key.to_string())
                .collect()
        } else {
            Vec::new()
        },
        ..Default::default()
    }
}

/// Runs every request once, and with BENCH_DUMP writes their responses there, one
/// JSON line each (to compare two versions of the search).
fn warm_up(index: &incident_core::index::Index, requests: &[Request]) {
    let mut dump = String::new();
    for r in requests {
        let response = search(index, r).unwrap();
        dump.push_str(&serde_json::to_string(&response).unwrap());
        dump.push('\n');
    }
    if let Ok(path) = std::env::var("BENCH_DUMP") {
        std::fs::write(&path, dump).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}

/// Every request `rounds` times: each run's microseconds, and each query's mean.
fn measure(index: &incident_core::index::Index, requests: &[Request], rounds: usize) -> (Vec<f64>, Vec<f64>) {
    let mut samples: Vec<f64> = Vec::with_capacity(rounds * requests.len());
    let mut per_query = vec![0f64; requests.len()];
    for _ in 0..rounds {
        for (i, r) in requests.iter().enumerate() {
            let t = Instant::now();
            std::hint::black_box(search(index, r).unwrap());
            let us = t.elapsed().as_secs_f64() * 1e6;
            samples.push(us);
            per_query[i] += us / rounds as f64;
        }
    }
    (samples, per_query)
}

/// Prints the mean, p50, p95 and max, and the slowest queries.
fn report(mut samples: Vec<f64>, per_query: &[f64], names: &[&str]) {
    samples.sort_by(f64::total_cmp);
    let at = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    let mut slowest: Vec<(f64, &str)> = per_query.iter().copied().zip(names.iter().copied()).collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!(
        "native: mean {:.3} ms, p50 {:.3} ms, p95 {:.3} ms, max {:.3} ms; slowest: {}",
        mean / 1000.0,
        at(0.5) / 1000.0,
        at(0.95) / 1000.0,
        at(1.0) / 1000.0,
        slowest
            .iter()
            .take(8)
            .map(|(us, q)| format!("{q:?} {:.2} ms", us / 1000.0))
            .collect::<Vec<_>>()
            .join(", ")
    );
}
