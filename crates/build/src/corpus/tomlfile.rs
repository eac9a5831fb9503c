//! The TOML files of the corpus folder (`taxonomy.toml`, `moved.toml`,
//! `general-sources.toml`): read and parsed, a read error or a parse error
//! reported at its line, and an optional file that is absent read as none.

use std::fs;
use std::path::Path;

use serde::de::DeserializeOwned;

use super::diagnostic::{diag, line_of, Diagnostic, Problem};

/// Whether a file must be there, and what to tell when it cannot be read.
pub(super) enum Presence<'a> {
    /// An absent file is reported with this hint.
    Required(&'a str),
    /// An absent file is none; one that cannot be read is reported.
    Optional,
}

/// The text and the parsed contents of the file at `path`, or `None` when it is
/// absent (and optional) or, after a diagnostic, unreadable or malformed (`hint`
/// says what the file holds).
pub(super) fn read_toml<T: DeserializeOwned>(
    path: &Path,
    presence: Presence<'_>,
    hint: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<(String, T)> {
    let text = match (fs::read_to_string(path), presence) {
        (Ok(t), _) => t,
        (Err(e), Presence::Optional) if e.kind() == std::io::ErrorKind::NotFound => return None,
        (Err(e), presence) => {
            let io_hint = match presence {
                Presence::Required(h) => h,
                Presence::Optional => "the file is UTF-8 TOML",
            };
            diags.push(diag(
                path,
                1,
                None,
                Problem::Io,
                format!("cannot read: {e}"),
                Some(io_hint),
            ));
            return None;
        }
    };
    let before = diags.len();
    super::controls::check_toml(path, &text, diags);
    if diags.len() > before {
        return None;
    }
    match toml::from_str(&text) {
        Ok(parsed) => Some((text, parsed)),
        Err(e) => {
            let line = e.span().map_or(1, |s| line_of(&text, s.start, 1));
            diags.push(diag(
                path,
                line,
                None,
                Problem::MalformedToml,
                e.message().to_string(),
                Some(hint),
            ));
            None
        }
    }
}
