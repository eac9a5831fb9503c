//! The `_headers` file, for static hosts that read one (Netlify, Cloudflare Pages):
//! who may read which files from another origin, and how long a cache may keep
//! them. `incident-library serve` sends the same CORS headers ([`shared`]).
//!
//! Caching follows how each file is addressed. Pages and the loader ask for the
//! files a search reads as `?v=<build>` (the bundle's version, also stamped in
//! each file, `docs/index-format.md`), so one URL never names two contents: those
//! are immutable. The entry points, which name the build (the pages, `meta.bin`,
//! the service worker), are revalidated on every use. Files that other sites load
//! by a plain URL (the widget, the package, the API) keep the host's default.

/// Paths that any origin may GET: the embeddable widget and the npm package read
/// them from other sites. A pattern ending in `*` covers every path it starts.
pub const SHARED: &[&str] = &["/api/*", "/index/*", "/passages/*", "/pkg/*", "/widget.js"];

/// Files addressed by build (`?v=<build>`): kept for a year, never revalidated.
pub const BY_BUILD: &[&str] = &[
    "/index/vocab-*",
    "/index/near-*",
    "/index/listing-*",
    "/passages/*",
    "/app.js",
    "/app.css",
    "/graph.js",
];

/// Files that name the build: revalidated on every use, so a deploy shows at once.
pub const ENTRY: &[&str] = &[
    "/",
    "/index.html",
    "/404.html",
    "/sw.js",
    "/index/meta.bin",
    "/page/*",
    "/incidents/*",
    "/topics/*",
    "/about/*",
    "/examples/*",
    "/api/",
    "/api/index.html",
];

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

/// True when `pattern` (a `_headers` path, `*` only at its end) covers `path`.
pub fn covers(pattern: &str, path: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(start) => path.starts_with(start),
        None => path == pattern,
    }
}

/// True when any origin may GET `path` ([`SHARED`]).
pub fn shared(path: &str) -> bool {
    SHARED.iter().any(|p| covers(p, path))
}

/// The `Cache-Control` that `_headers` gives `path`, if any.
pub fn cache_control(path: &str) -> Option<&'static str> {
    if BY_BUILD.iter().any(|p| covers(p, path)) {
        Some(IMMUTABLE)
    } else if ENTRY.iter().any(|p| covers(p, path)) {
        Some(REVALIDATE)
    } else {
        None
    }
}

/// The text of `_headers`. A path has at most one `Cache-Control` rule: hosts join
/// the values of every rule that matches.
pub fn file() -> String {
    let mut out = String::new();
    for path in SHARED {
        out.push_str(&format!(
            "{path}\n  Access-Control-Allow-Origin: *\n  Access-Control-Allow-Methods: GET\n"
        ));
    }
    for (paths, value) in [(BY_BUILD, IMMUTABLE), (ENTRY, REVALIDATE)] {
        for path in paths {
            out.push_str(&format!("{path}\n  Cache-Control: {value}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_path_gets_two_cache_rules() {
        for a in BY_BUILD {
            for b in ENTRY {
                let (a0, b0) = (a.trim_end_matches('*'), b.trim_end_matches('*'));
                assert!(
                    !covers(a, b0) && !covers(b, a0),
                    "{a} and {b} overlap: a host would join their Cache-Control values"
                );
            }
        }
    }

    #[test]
    fn the_file_names_every_rule() {
        let text = file();
        assert!(text.contains("/index/meta.bin\n  Cache-Control: no-cache\n"));
        assert!(text.contains("/index/vocab-*\n  Cache-Control: public, max-age=31536000, immutable\n"));
        assert!(text.contains("/widget.js\n  Access-Control-Allow-Origin: *\n"));
        assert_eq!(cache_control("/index/meta.bin"), Some("no-cache"));
        assert_eq!(cache_control("/index/listing-0042.bin"), Some(IMMUTABLE));
        assert_eq!(cache_control("/api/v1/index.json"), None);
        assert!(shared("/passages/IL-0001.json") && !shared("/incidents/IL-0001/"));
    }
}
