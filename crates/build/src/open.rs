//! Reading a built bundle back: the one reader of `dist/index/` on a native machine,
//! used by the CLI search, the evaluation and the MCP server. It shares nothing with
//! the bundle writer but the format types of `incident-core`.

use std::fs;
use std::path::Path;

use incident_core::index::Index;

use crate::error::{Error, Result};

/// Loads the index a bundle holds (`<bundle>/index/`). Errors name the file and
/// say how to make the bundle.
pub fn load_index(bundle: &Path) -> Result<Index> {
    let dir = bundle.join("index");
    Index::load(|name| fs::read(dir.join(name))).map_err(|source| Error::Index {
        dir: dir.clone(),
        source,
    })
}
