//! One module per subcommand: its clap arguments and its `run`.

pub mod analyze;
pub mod build;
pub mod check;
pub mod eval;
pub mod facets;
pub mod ko_dic;
pub mod mcp;
pub mod overlap;
pub mod search;
pub mod serve;

/// The corpus in `data`, or `None` after printing its problems (for the commands
/// that need a corpus without problems; `check` prints them itself).
pub fn loaded_corpus(data: &std::path::Path) -> Option<incident_build::corpus::Corpus> {
    match incident_build::corpus::load(data) {
        Ok(c) => Some(c),
        Err(diags) => {
            for d in &diags {
                eprintln!("{d}");
            }
            eprintln!("{} problem(s); run `incident-library check`", diags.len());
            None
        }
    }
}

/// Text from the corpus or the web made safe to print on a terminal: control
/// characters become visible escapes instead of moving the cursor, ringing the bell
/// or setting the title. `check` refuses them in the corpus; this is for what a
/// bundle built elsewhere may still hold.
pub fn printable(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_are_printed_as_escapes() {
        assert_eq!(super::printable("재시도 DNS"), "재시도 DNS");
        assert_eq!(
            super::printable("a\u{1b}]0;title\u{7}b\u{0}"),
            "a\\u{1b}]0;title\\u{7}b\\u{0}"
        );
    }
}
