//! The crate's error type. Each kind keeps what went wrong (the I/O error, the
//! index file's error) as its `source()`, and its message carries its context
//! (file, line, field, hint), so the CLI only has to print it.

use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong.
#[derive(Debug)]
pub enum Error {
    /// A file or folder could not be read or written.
    Io {
        /// Which.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A bundle's index could not be read: a file is missing, damaged, or of
    /// another build or format version.
    Index {
        /// The bundle's index folder.
        dir: PathBuf,
        /// The file and what is wrong with it.
        source: incident_core::index::LoadError,
    },
    /// Anything else, its message carrying its context and a hint.
    Message(String),
}

/// Shorthand for results whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with the given message.
    pub fn msg(message: impl Into<String>) -> Self {
        Error::Message(message.into())
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, err: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source: err,
        }
    }

    /// The message, as the CLI prints it.
    pub fn message(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Index { dir, source } => write!(
                f,
                "{}/{source}\n  hint: run `incident-library build` first",
                dir.display()
            ),
            Error::Message(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Index { source, .. } => Some(source),
            Error::Message(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_says_where_and_keeps_its_source() {
        let io = Error::io(
            Path::new("data/x.md"),
            std::io::Error::from(std::io::ErrorKind::NotFound),
        );
        assert!(io.to_string().starts_with("data/x.md: "), "{io}");
        assert!(std::error::Error::source(&io).is_some());
        let index = Error::Index {
            dir: PathBuf::from("dist/index"),
            source: incident_core::index::LoadError {
                file: "meta.bin".into(),
                error: incident_core::format::FormatError::BadMagic,
            },
        };
        assert!(index
            .to_string()
            .starts_with("dist/index/meta.bin: not an Incident Library index file"));
        assert!(index.to_string().ends_with("hint: run `incident-library build` first"));
        assert!(std::error::Error::source(&index).is_some());
        assert!(std::error::Error::source(&Error::msg("x")).is_none());
    }
}
