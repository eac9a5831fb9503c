//! The listing summary of a record: the start of its 요약 section, as the listing
//! files, the API and the pages show it.

use crate::corpus::Incident;

/// Longest summary kept in the listing data, in characters.
pub const SUMMARY_CHARS: usize = 120;

/// The listing summary: the start of the 요약 section, cut at a word boundary.
pub fn summary(incident: &Incident) -> String {
    let text = incident
        .section("요약")
        .map(|s| s.text.replace('\n', " "))
        .unwrap_or_default();
    if text.chars().count() <= SUMMARY_CHARS {
        return text;
    }
    let cut: String = text.chars().take(SUMMARY_CHARS).collect();
    let at = cut.rfind(' ').filter(|&i| i > cut.len() / 2).unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end_matches([',', '.', ' ']))
}
