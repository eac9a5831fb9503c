//! The README's layout table is the map of the code: every path it names exists, and
//! every source file of the workspace is on it (by its own name or its folder's).

mod common;

use std::fs;
use std::path::Path;

/// The backticked paths of the first column of README.md's `## Layout` table.
fn layout_paths(readme: &str) -> Vec<String> {
    let section = readme
        .split("\n## Layout")
        .nth(1)
        .expect("README.md has a ## Layout section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut paths = Vec::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let first = line.split(" | ").next().unwrap_or("");
        for (i, piece) in first.split('`').enumerate() {
            if i % 2 == 1 {
                paths.push(piece.trim_end_matches('/').to_string());
            }
        }
    }
    paths
}

/// Every `.rs` file under `dir`, relative to the repository root.
fn rust_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        // A link (crates/cli/tests) names a folder that is walked in its own place.
        if path.is_symlink() {
            continue;
        }
        if path.is_dir() {
            rust_files(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
        }
    }
}

#[test]
fn the_layout_table_matches_the_tree() {
    let root = common::repo().canonicalize().unwrap();
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let paths = layout_paths(&readme);
    assert!(paths.len() >= 10, "the layout table names only {} paths", paths.len());
    let missing: Vec<&String> = paths.iter().filter(|p| !root.join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "README.md's layout table names paths that do not exist: {missing:?}"
    );

    let mut files = Vec::new();
    rust_files(&root, &root.join("crates"), &mut files);
    let unlisted: Vec<&String> = files
        .iter()
        .filter(|f| !paths.iter().any(|p| f.as_str() == p || f.starts_with(&format!("{p}/"))))
        .collect();
    assert!(
        unlisted.is_empty(),
        "source files that README.md's layout table does not place (add them or their folder): {unlisted:?}"
    );
}
