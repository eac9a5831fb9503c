//! The optional TOML files of the corpus folder (`moved.toml`,
//! `general-sources.toml`): read when present, a missing file being an empty one,
//! and a parse error reported at its line.

use std::fs;
use std::path::Path;

use serde::de::DeserializeOwned;

use super::diagnostic::{diag, line_of, Diagnostic, Problem};

/// The text and the parsed contents of the file at `path`, or `None` when it is
/// absent or (after a diagnostic with `hint`) unreadable or malformed.
pub(super) fn read_optional<T: DeserializeOwned>(path: &Path, hint: &str, diags: &mut Vec<Diagnostic>) -> Option<(String, T)> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            diags.push(diag(path, 1, None, Problem::Io, format!("cannot read: {e}"), Some("the file is UTF-8 TOML")));
            return None;
        }
    };
    match toml::from_str(&text) {
        Ok(parsed) => Some((text, parsed)),
        Err(e) => {
            let line = e.span().map_or(1, |s| line_of(&text, s.start, 1));
            diags.push(diag(path, line, None, Problem::MalformedToml, e.message().to_string(), Some(hint)));
            None
        }
    }
}
