//! Times full queries (analysis, matching, ranking, facet counts, paging) on a built
//! bundle, natively: every query of the relevance set, many times over.
//!
//! cargo run --release --example bench_query [dist] [tests/relevance/queries.toml]

use std::time::Instant;

use incident_library::search::{search, Request};

fn main() {
    let mut args = std::env::args().skip(1);
    let dist = args.next().unwrap_or_else(|| "dist".into());
    let queries = args.next().unwrap_or_else(|| "tests/relevance/queries.toml".into());
    let index = incident_library::bundle::load_index(std::path::Path::new(&dist)).unwrap_or_else(|e| panic!("{e}"));
    let corpus =
        incident_library::corpus::load(std::path::Path::new("data")).unwrap_or_else(|d| panic!("{} problems", d.len()));
    let queries =
        incident_library::eval::load_queries(std::path::Path::new(&queries), &corpus).unwrap_or_else(|e| panic!("{e}"));
    let requests: Vec<Request> = queries
        .iter()
        .map(|q| Request {
            query: q.q.clone(),
            prefix: q.kind == "prefix",
            graph: vec!["cause".into(), "component".into(), "symptom".into()],
            ..Default::default()
        })
        .collect();
    // Warm up, then measure.
    for r in &requests {
        search(&index, r).unwrap();
    }
    let rounds = 200;
    let mut per_query = vec![0u128; requests.len()];
    let started = Instant::now();
    for _ in 0..rounds {
        for (i, r) in requests.iter().enumerate() {
            let t = Instant::now();
            std::hint::black_box(search(&index, r).unwrap());
            per_query[i] += t.elapsed().as_nanos();
        }
    }
    let total = started.elapsed();
    let mut means: Vec<(f64, &str)> = per_query
        .iter()
        .zip(&queries)
        .map(|(ns, q)| (*ns as f64 / rounds as f64 / 1000.0, q.q.as_str()))
        .collect();
    means.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mean = total.as_secs_f64() * 1e6 / (rounds * requests.len()) as f64;
    println!(
        "{} incidents, {} queries x {rounds} rounds (with facet counts and the flow graph)",
        index.len(),
        requests.len()
    );
    println!(
        "mean {mean:.1} µs per query; slowest: {}",
        means
            .iter()
            .take(5)
            .map(|(us, q)| format!("{q:?} {us:.1} µs"))
            .collect::<Vec<_>>()
            .join(", ")
    );
}
