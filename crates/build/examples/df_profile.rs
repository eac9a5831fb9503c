//! Prints how the filter keys of the shipped corpus spread over document
//! frequencies: which terms the per-incident filters spend their bytes on.
//!
//! cargo run --release --example df_profile

use std::collections::BTreeMap;

use incident_build::indexer::record_terms;

fn main() {
    let data = std::path::Path::new("data");
    let corpus = incident_build::corpus::load(data).unwrap_or_else(|d| panic!("{} problems", d.len()));
    let analyzer = incident_build::bundle::analyzer_for(data).unwrap_or_else(|e| panic!("{e}"));
    let docs: Vec<_> = corpus
        .incidents
        .iter()
        .map(|i| record_terms(i, &analyzer).unwrap())
        .collect();
    let mut df: BTreeMap<&str, usize> = BTreeMap::new();
    for d in &docs {
        for t in d.all() {
            *df.entry(t.as_str()).or_default() += 1;
        }
    }
    let n = docs.len();
    let total: usize = df.values().sum();
    let title: usize = docs.iter().map(|d| d.title.len()).sum();
    println!(
        "{n} records, {} terms, {total} term occurrences, {title} title terms",
        df.len()
    );
    for cut in [2, 4, 8, 12, 16, 24, 32, 64] {
        let (terms, keys) = df
            .values()
            .filter(|&&c| c >= cut)
            .fold((0, 0), |(t, k), &c| (t + 1, k + c));
        println!(
            "df >= {cut:>3}: {terms:>5} terms carry {keys:>6} keys ({:.0}%)",
            100.0 * keys as f64 / total as f64
        );
    }
    let digits = df
        .iter()
        .filter(|(t, _)| t.chars().all(|c| c.is_ascii_digit()))
        .map(|(_, c)| c)
        .sum::<usize>();
    println!("pure-digit terms carry {digits} keys");
    let mut top: Vec<(&&str, &usize)> = df.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1));
    println!("top: {:?}", &top[..40]);
}
