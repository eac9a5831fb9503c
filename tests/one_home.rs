//! One home for every fact: the sections of a record (`crates/core/src/sections.rs`),
//! the facets (`crates/core/src/facets.rs`) and the MCP tools
//! (`crates/build/src/mcp_tools.rs`) are each listed once. Everything else derives
//! its list from there, so a second list is a bug: this test looks for one in the
//! code (three or more of the names, quoted, within a few lines) and fails on it.
//! The TypeScript types of the package mirror two of the lists, since a type cannot
//! be read from a table; they are checked against it instead.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use incident_build::mcp_tools::McpTool;
use incident_core::facets::FACETS;
use incident_core::sections::NAMES;

/// The files that hold code: Rust, the browser scripts, the package's types, the
/// scripts, the test helpers. Tests themselves state what they expect, by name.
fn code_files() -> Vec<PathBuf> {
    let repo = common::repo();
    let mut out = Vec::new();
    let mut pending = vec![repo.join("crates"), repo.join("www"), repo.join("scripts")];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_symlink() {
                continue;
            }
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .is_some_and(|e| ["rs", "js", "mjs", "ts", "sh"].iter().any(|x| e == *x))
            {
                out.push(path);
            }
        }
    }
    out.push(repo.join("tests/e2e/helpers.mjs"));
    // The wasm-bindgen output and the minified copies are made from the sources.
    out.retain(|p| !p.to_string_lossy().contains("incident_library"));
    out
}

/// Places in `text` where three or more of `names` occur quoted within a few lines:
/// (line number, the names seen).
fn lists_in(text: &str, names: &[&str]) -> Vec<(usize, Vec<String>)> {
    const WINDOW: usize = 6;
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let window = lines[i..(i + WINDOW).min(lines.len())].join("\n");
        let seen: Vec<String> = names
            .iter()
            .filter(|n| window.contains(&format!("\"{n}\"")) || window.contains(&format!("'{n}'")))
            .map(|n| n.to_string())
            .collect();
        if seen.len() >= 3 {
            found.push((i + 1, seen));
            i += WINDOW;
        } else {
            i += 1;
        }
    }
    found
}

fn relative(path: &Path) -> String {
    path.strip_prefix(common::repo())
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn sections_facets_and_tools_are_listed_once() {
    let facets: Vec<&str> = FACETS.iter().map(|f| f.key).collect();
    let tools: Vec<&str> = McpTool::ALL.iter().map(|t| t.name()).collect();
    let facts: [(&str, &[&str], &str); 3] = [
        ("sections", &NAMES, "crates/core/src/sections.rs"),
        ("facets", &facets, "crates/core/src/facets.rs"),
        ("MCP tools", &tools, "crates/build/src/mcp_tools.rs"),
    ];
    let mut seconds = Vec::new();
    for path in code_files() {
        let file = relative(&path);
        let mut text = fs::read_to_string(&path).unwrap_or_default();
        // A Rust file's tests state what they expect, by name.
        if let Some(at) = text.find("#[cfg(test)]") {
            text.truncate(at);
        }
        // The package's types mirror two lists; the next test holds them to them.
        if file == "www/pkg/library.d.ts" {
            continue;
        }
        for (what, names, home) in facts {
            if file == home {
                continue;
            }
            for (line, seen) in lists_in(&text, names) {
                seconds.push(format!(
                    "{file}:{line}: a second list of the {what} ({}); derive it from {home}",
                    seen.join(", ")
                ));
            }
        }
    }
    assert!(seconds.is_empty(), "\n{}", seconds.join("\n"));
}

/// The members of `export type <name> = "a" | "b" …;` in the package's types.
fn union(types: &str, name: &str) -> Vec<String> {
    let start = format!("export type {name} = ");
    let line = types
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no type {name}"));
    line[start.len()..]
        .trim_end_matches(';')
        .split('|')
        .map(|m| m.trim().trim_matches('"').to_string())
        .collect()
}

#[test]
fn the_package_types_mirror_the_sections_and_the_facets() {
    let types = fs::read_to_string(common::repo().join("www/pkg/library.d.ts")).unwrap();
    assert_eq!(
        union(&types, "SectionName"),
        NAMES,
        "SectionName in www/pkg/library.d.ts"
    );
    let facets: Vec<&str> = FACETS.iter().map(|f| f.key).collect();
    assert_eq!(union(&types, "FacetKey"), facets, "FacetKey in www/pkg/library.d.ts");
}

#[test]
fn the_finder_finds_a_list() {
    // The check itself: a list in one line and one over lines are found, a name
    // or two are not.
    let names = ["a1", "b2", "c3", "d4"];
    assert_eq!(lists_in(r#"let x = ["a1", "b2", "c3"];"#, &names).len(), 1);
    assert_eq!(lists_in("[\n  'a1',\n  'b2',\n  'd4',\n]", &names).len(), 1);
    assert!(lists_in(r#"if k == "a1" || k == "b2" {}"#, &names).is_empty());
}
