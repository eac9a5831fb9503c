//! Writes the bundle (`dist/`) atomically: everything goes into a sibling
//! temporary folder first, which replaces `dist/` only when complete. On any error
//! the previous `dist/` stays as it was and the temporary folder is removed.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A bundle being written: files are added under a temporary folder and published
/// by [`Staging::commit`]. Dropping it without committing removes the folder.
pub struct Staging {
    tmp: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl Staging {
    /// Starts a bundle that will replace `target`.
    pub fn new(target: &Path) -> Result<Staging> {
        let parent = target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("dist");
        let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        if tmp.exists() {
            fs::remove_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
        }
        fs::create_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
        Ok(Staging {
            tmp,
            target: target.to_path_buf(),
            committed: false,
        })
    }

    /// Writes `bytes` at `relative` inside the bundle, creating folders.
    pub fn write(&self, relative: &str, bytes: &[u8]) -> Result<()> {
        let path = self.tmp.join(relative);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        fs::write(&path, bytes).map_err(|e| Error::io(&path, e))
    }

    /// Replaces the target with the finished bundle.
    pub fn commit(mut self) -> Result<()> {
        let old = self.tmp.with_file_name(format!(
            ".{}.old-{}",
            self.target.file_name().and_then(|n| n.to_str()).unwrap_or("dist"),
            std::process::id()
        ));
        let had_old = self.target.exists();
        if had_old {
            fs::rename(&self.target, &old).map_err(|e| Error::io(&self.target, e))?;
        }
        if let Err(e) = fs::rename(&self.tmp, &self.target) {
            if had_old {
                let _ = fs::rename(&old, &self.target);
            }
            return Err(Error::io(&self.target, e));
        }
        self.committed = true;
        if had_old {
            fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.tmp);
        }
    }
}

/// What a build produced, for the report the CLI prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildReport {
    /// Records indexed.
    pub incidents: usize,
    /// Distinct vocabulary terms.
    pub vocab_terms: usize,
    /// Filter keys over all records.
    pub filter_keys: usize,
    /// Files written (path relative to the bundle, size in bytes).
    pub files: Vec<(String, usize)>,
}

/// Where the build reads its user dictionary of domain words, inside `data/`.
pub const USER_DICTIONARY: &str = "dictionary.csv";

/// Checks the corpus in `data`, builds the index and writes the bundle to `out`.
/// `progress(done, total)` follows the indexing of records.
pub fn build(
    data: &Path,
    out: &Path,
    analyzer: &crate::analyze::Analyzer,
    progress: impl FnMut(usize, usize),
) -> Result<BuildReport> {
    let corpus = crate::corpus::load(data).map_err(|diags| {
        let mut msg = diags.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
        msg.push_str(&format!(
            "\n{} problem(s) in the corpus; nothing was written (run `incident-library check`)",
            diags.len()
        ));
        Error::msg(msg)
    })?;
    let index = crate::indexer::build(&corpus, analyzer, progress)?;
    let staging = Staging::new(out)?;
    let mut files = Vec::new();
    for (name, bytes) in &index.files {
        let rel = format!("index/{name}");
        staging.write(&rel, bytes)?;
        files.push((rel, bytes.len()));
    }
    staging.commit()?;
    Ok(BuildReport {
        incidents: corpus.incidents.len(),
        vocab_terms: index.vocab_terms,
        filter_keys: index.filter_keys,
        files,
    })
}

/// Loads the analyzer with the corpus's user dictionary, when it has one.
pub fn analyzer_for(data: &Path) -> Result<crate::analyze::Analyzer> {
    let user = data.join(USER_DICTIONARY);
    crate::analyze::Analyzer::load_default(Some(user.as_path()).filter(|p| p.is_file()))
}

/// Loads the index a bundle holds (`<bundle>/index/`).
pub fn load_index(bundle: &Path) -> Result<crate::index::Index> {
    let dir = bundle.join("index");
    crate::index::Index::load(|name| fs::read(dir.join(name))).map_err(|e| Error::msg(format!("{}/{e}", dir.display())))
}
