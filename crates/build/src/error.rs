//! The crate's error type: a message that already carries its context (file,
//! line, field, hint), so the CLI only has to print it.

use std::fmt;
use std::path::Path;

/// An error with a human-readable, context-carrying message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

/// Shorthand for results whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with the given message.
    pub fn msg(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, err: std::io::Error) -> Self {
        Error::msg(format!("{}: {err}", path.display()))
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
