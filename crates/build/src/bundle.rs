//! Writes the bundle (`dist/`) atomically: everything goes into a sibling
//! temporary folder first, which replaces `dist/` only when complete. On any error
//! the previous `dist/` stays as it was and the temporary folder is removed.
//!
//! Only a folder this tool wrote is ever replaced: every bundle holds a
//! [`MARKER`] file, and [`guard_target`] refuses any other non-empty folder (unless
//! forced), a path that is not a folder, and any output that is, holds or lies
//! inside the corpus. Staging folders left by a build that was killed are removed
//! by the next build, and a previous bundle it had moved aside is put back.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::timings::phase;

mod staging;

pub use staging::{guard_target, resolve_target, Staging, MARKER};

/// What a build produced, for the report the CLI prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildReport {
    /// Records indexed.
    pub incidents: usize,
    /// Distinct vocabulary terms.
    pub vocab_terms: usize,
    /// Filter keys over all records.
    pub filter_keys: usize,
    /// Incident-list entries, then the part, often and title keys.
    pub key_counts: [usize; 4],
    /// Files written (path relative to the bundle, size in bytes).
    pub files: Vec<(String, usize)>,
    /// Download sizes of what the search page loads.
    pub sizes: Vec<SizeRow>,
}

/// One row of the size report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeRow {
    /// What is measured: `wasm`, `JS`, `CSS`, `index` or a total.
    pub what: String,
    /// Bytes as stored.
    pub raw: usize,
    /// Bytes after gzip -9.
    pub gzip: usize,
}

/// Options of [`build`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// The wasm package folder (`pkg/`, made by `scripts/build-wasm.sh`) whose module
    /// and JS glue go into the bundle. Without it the site is written without search.
    pub pkg: Option<PathBuf>,
    /// Replace an output folder that this tool did not write ([`guard_target`]).
    pub force: bool,
    /// The site's public URL (`https://incidents.example.org/`,
    /// [`crate::markdown::parse_site_url`]): the Markdown files and `llms.txt` then
    /// link absolutely, and each incident gets a link-preview image
    /// ([`crate::preview`]). Without it they link relatively, and no image is drawn.
    pub site_url: Option<String>,
}

/// Where the build reads its user dictionary of domain words, inside `data/`.
pub const USER_DICTIONARY: &str = "dictionary.csv";

/// The files of the wasm package that the site serves (`node.js` is read only by
/// the package in Node; `incident_library.js`, the glue that `library.js` holds
/// too, only by importers of the package's lower-level `incident-library/core`).
pub const PKG_FILES: [&str; 4] = [
    "incident_library.js",
    "incident_library_bg.wasm",
    "library.js",
    "node.js",
];

/// The site's own scripts, as written in `www/`. With a wasm package the bundle takes
/// their minified copies from it instead (`scripts/minify.mjs`).
pub const SITE_SCRIPTS: [(&str, &[u8]); 3] = [
    ("app.js", include_bytes!("../../../www/app.js")),
    ("graph.js", include_bytes!("../../../www/graph.js")),
    ("widget.js", include_bytes!("../../../www/widget.js")),
];

/// FNV-1a 64 of `bytes`, as `scripts/minify.mjs` stamps a minified script with it.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The minified copy of site script `name` in `pkg`, checked against the source this
/// binary was built with: a copy made from another source would ship stale code.
fn minified_script(pkg: &Path, name: &str, source: &[u8]) -> Result<Vec<u8>> {
    let path = pkg.join(name);
    let hint = "hint: bash scripts/build-wasm.sh minifies the scripts of www/ into pkg/";
    let bytes = fs::read(&path).map_err(|e| {
        Error::msg(format!(
            "{}: {e}
  {hint}",
            path.display()
        ))
    })?;
    let stamp = format!("/* www/{name} fnv1a64:{:016x} */", fnv1a64(source));
    if !bytes.starts_with(stamp.as_bytes()) {
        return Err(Error::msg(format!(
            "{}: was not minified from this build's www/{name} (stamp {stamp:?} missing)\n  {hint}",
            path.display()
        )));
    }
    Ok(bytes)
}

/// A file of the bundle: its path relative to the bundle root and its bytes.
type File = (String, Vec<u8>);

/// Checks the corpus in `data`, builds the index and the site and writes the bundle
/// to `out`. `progress(done, total)` follows the indexing of records.
pub fn build(
    data: &Path,
    out: &Path,
    analyzer: &crate::analyze::Analyzer,
    options: &BuildOptions,
    progress: impl FnMut(usize, usize),
) -> Result<BuildReport> {
    let out = &resolve_target(out)?;
    guard_target(data, out, options.force)?;
    let corpus = phase("corpus", || load_corpus(data, out))?;
    let (scripts, pkg_files) = scripts_and_package(options)?;
    let mut index = crate::indexer::build(&corpus, analyzer, progress)?;
    let mut files: Vec<File> = std::mem::take(&mut index.files)
        .into_iter()
        .map(|(n, b)| (format!("index/{n}"), b))
        .collect();
    files.extend(scripts);
    files.extend(static_files());
    files.extend(pkg_files);
    let unstamped = files.len();
    files.extend(phase("passages", || crate::passages::files(&corpus, "")));
    // Pages name the assets of their own build (`app.js?v=…`), so a page and its
    // assets always come from the same build, whatever a cache holds. The version
    // is then written into every file a search reads (the index files' headers, the
    // passages files), so that a reader never mixes files of two deploys.
    let build = phase("version", || version_of(&files));
    let version = format!("{build:016x}");
    files.truncate(unstamped);
    for (name, bytes) in &mut files {
        if name.starts_with("index/") {
            incident_core::format::stamp(bytes, build);
        }
    }
    files.extend(phase("passages", || crate::passages::files(&corpus, &version)));
    files.push(("sw.js".into(), service_worker(&files, &version).into_bytes()));
    let staging = Staging::new(out)?;
    // The size report reads the assets and the index, and related incidents are
    // computed, while the disk takes them. With the site's URL the link previews are
    // drawn meanwhile, on threads of their own: the most work of the build's second
    // half, it fills the time the rest spends on the disk or on one core.
    let site_url = options.site_url.as_deref();
    let (written, sizes) = std::thread::scope(|scope| {
        let sizes = scope.spawn(|| phase("size report", || size_report(&files)));
        let related = scope.spawn(|| {
            phase("related incidents", || {
                crate::related::related_all(&corpus, &index.terms)
            })
        });
        let previews = scope.spawn(|| {
            phase("link previews", || {
                crate::preview::write_all(&corpus, site_url, &|name, bytes| staging.write(name, bytes))
            })
        });
        let written = phase("write", || -> Result<Vec<(String, usize)>> {
            for (name, bytes) in &files {
                staging.write(name, bytes)?;
            }
            let related = related.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            pages_and_api(&corpus, &related, &version, site_url, &staging)
        });
        let previews = previews.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (
            written.and_then(|mut written| {
                written.extend(previews?);
                Ok(written)
            }),
            sizes.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    });
    let written = written?;
    staging.commit()?;
    Ok(report(&corpus, &index, &files, written, sizes))
}

/// The checked corpus in `data`, or every problem in one error; a corpus without
/// records is refused too, since its bundle would replace `out` with an empty library.
fn load_corpus(data: &Path, out: &Path) -> Result<crate::corpus::Corpus> {
    let corpus = crate::corpus::load(data).map_err(|diags| {
        let mut msg = diags.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
        msg.push_str(&format!(
            "\n{} problem(s) in the corpus; nothing was written (run `incident-library check`)",
            diags.len()
        ));
        Error::msg(msg)
    })?;
    if corpus.incidents.is_empty() {
        return Err(Error::msg(format!(
            "{}: no records, so nothing was written (an empty library would replace {})\n  hint: records live in {}/incidents/<id>.md",
            data.display(),
            out.display(),
            data.display()
        )));
    }
    Ok(corpus)
}

/// The site's scripts ([`SITE_SCRIPTS`], minified from the wasm package when there
/// is one) and the package's files ([`PKG_FILES`] under `pkg/`; none without it).
fn scripts_and_package(options: &BuildOptions) -> Result<(Vec<File>, Vec<File>)> {
    let mut pkg_files = Vec::new();
    let mut scripts: Vec<File> = SITE_SCRIPTS
        .iter()
        .map(|&(name, source)| (name.to_string(), source.to_vec()))
        .collect();
    if let Some(pkg) = &options.pkg {
        for (name, source) in SITE_SCRIPTS {
            scripts.retain(|(n, _)| n != name);
            scripts.push((name.to_string(), minified_script(pkg, name, source)?));
        }
        for name in PKG_FILES {
            let path = pkg.join(name);
            let bytes = fs::read(&path).map_err(|e| {
                Error::msg(format!(
                    "{}: {e}\n  hint: build the wasm module first: bash scripts/build-wasm.sh",
                    path.display()
                ))
            })?;
            pkg_files.push((format!("pkg/{name}"), bytes));
        }
    }
    Ok((scripts, pkg_files))
}

/// The stylesheet and the embedding examples, as written in `www/`.
fn static_files() -> Vec<File> {
    vec![
        ("app.css".into(), include_bytes!("../../../www/app.css").to_vec()),
        (
            "examples/embed.html".into(),
            include_bytes!("../../../www/examples/embed.html").to_vec(),
        ),
        (
            "examples/search.html".into(),
            include_bytes!("../../../www/examples/search.html").to_vec(),
        ),
    ]
}

/// Writes the pages, the API files and `_headers` into `staging` as they are made,
/// and returns each file's name and size. Related incidents (`related`, listed or
/// computed) are the same for the pages and the API. The pages and the API are made
/// on two threads.
fn pages_and_api(
    corpus: &crate::corpus::Corpus,
    related: &[crate::related::Related],
    version: &str,
    site_url: Option<&str>,
    staging: &Staging,
) -> Result<Vec<(String, usize)>> {
    let related_ids: Vec<Vec<String>> = related
        .iter()
        .map(|r| r.incidents.iter().map(|&e| corpus.incidents[e].id.clone()).collect())
        .collect();
    let generated_at = crate::indexer::corpus_date(corpus);
    // Each side writes what it makes and keeps the first error; after an error it
    // only finishes its loop.
    let sink = |written: &mut Vec<(String, usize)>, error: &mut Option<Error>, name: String, bytes: &[u8]| {
        if error.is_none() {
            match staging.write(&name, bytes) {
                Ok(()) => written.push((name, bytes.len())),
                Err(e) => *error = Some(e),
            }
        }
    };
    let (pages, api) = std::thread::scope(|scope| {
        let pages = scope.spawn(|| {
            phase("pages", || {
                let (mut written, mut error) = (Vec::new(), None);
                crate::site::pages(corpus, related, version, site_url, &mut |page| {
                    sink(&mut written, &mut error, page.path, page.html.as_bytes())
                });
                error.map_or(Ok(written), Err)
            })
        });
        let api = phase("api", || {
            let (mut written, mut error) = (Vec::new(), None);
            crate::api::files(corpus, &related_ids, &generated_at, &mut |(name, bytes)| {
                sink(&mut written, &mut error, name, &bytes)
            });
            sink(
                &mut written,
                &mut error,
                "_headers".into(),
                crate::headers::file().as_bytes(),
            );
            crate::markdown::files(corpus, &related_ids, site_url, &mut |(name, bytes)| {
                sink(&mut written, &mut error, name, &bytes)
            });
            let (name, bytes) = crate::llms::file(corpus, site_url);
            sink(&mut written, &mut error, name, &bytes);
            for (name, bytes) in crate::sitemap::files(corpus, site_url)
                .into_iter()
                .chain(crate::favicon::files())
                .chain(crate::feed::files(corpus, site_url))
            {
                sink(&mut written, &mut error, name, &bytes);
            }
            error.map_or(Ok(written), Err)
        });
        (
            pages.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            api,
        )
    });
    let mut written = pages?;
    written.extend(api?);
    Ok(written)
}

/// The report of a build: counts, files and sizes, with what ranking adds to the
/// index right after the index row. `files` are the assets and the index,
/// `written` the name and size of every other file, and `rows` the
/// [`size_report`] of `files`.
fn report(
    corpus: &crate::corpus::Corpus,
    index: &crate::indexer::BuiltIndex,
    files: &[File],
    written: Vec<(String, usize)>,
    mut rows: Vec<SizeRow>,
) -> BuildReport {
    let at = rows
        .iter()
        .position(|r| r.what == "index: meta.bin")
        .map_or(rows.len(), |i| i + 1);
    for (k, (what, raw, gzip)) in index.ranking_costs.iter().enumerate() {
        rows.insert(
            at + k,
            SizeRow {
                what: format!("  {what}"),
                raw: *raw,
                gzip: *gzip,
            },
        );
    }
    BuildReport {
        incidents: corpus.incidents.len(),
        vocab_terms: index.vocab_terms,
        filter_keys: index.filter_keys,
        key_counts: index.key_counts,
        sizes: rows,
        files: files.iter().map(|(n, b)| (n.clone(), b.len())).chain(written).collect(),
    }
}

/// The build: a hash of the assets, the index and the passages (pages derive from the
/// same corpus, so they change with it); as 16 hex digits it is the version.
fn version_of(files: &[(String, Vec<u8>)]) -> u64 {
    let mut sorted: Vec<&(String, Vec<u8>)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut all = Vec::new();
    for (name, bytes) in sorted {
        all.extend_from_slice(name.as_bytes());
        all.extend_from_slice(&incident_core::hash::checksum(bytes).to_le_bytes());
    }
    incident_core::hash::checksum(&all)
}

/// True for the files that pages load as versioned assets.
fn is_asset(name: &str) -> bool {
    name.starts_with("index/") || name.starts_with("pkg/") || matches!(name, "app.js" | "graph.js" | "app.css")
}

/// The service worker, with the build's version and the files to keep for offline
/// use: the search page, the module and the app shell by name, and the index files
/// by kind and count (they are numbered from 0).
fn service_worker(files: &[(String, Vec<u8>)], version: &str) -> String {
    let mut shell: Vec<String> = vec!["./".into(), "about/".into(), "404.html".into()];
    shell.extend(
        files
            .iter()
            .map(|(n, _)| n)
            .filter(|n| is_asset(n) && !is_numbered_index_file(n))
            .map(|n| format!("{n}?v={version}")),
    );
    let mut index: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (name, _) in files {
        if let Some(kind) = numbered_index_kind(name) {
            *index.entry(kind).or_default() += 1;
        }
    }
    let shell_json = serde_json::to_string(&shell).unwrap_or_else(|_| "[]".into());
    let index_json = serde_json::to_string(&index).unwrap_or_else(|_| "{}".into());
    include_str!("../../../www/sw.js")
        .replace("__VERSION__", version)
        .replace("__SHELL__", &shell_json)
        .replace("__INDEX__", &index_json)
}

/// The kind of a numbered index file (`index/vocab-0003.bin` → `vocab`).
fn numbered_index_kind(name: &str) -> Option<&str> {
    let (kind, number) = name.strip_prefix("index/")?.strip_suffix(".bin")?.rsplit_once('-')?;
    (number.len() >= 4 && number.bytes().all(|b| b.is_ascii_digit())).then_some(kind)
}

/// True for the index files the service worker names by kind and count.
fn is_numbered_index_file(name: &str) -> bool {
    numbered_index_kind(name).is_some()
}

/// Raw and gzip sizes (each file compressed on its own, as a server sends it) of
/// the wasm module, the JS, the CSS, `meta.bin` (what every search loads first),
/// the files a search fetches as its query needs them (vocabulary blocks,
/// near-term buckets, listings: totals and the mean file), and what a page
/// downloads before any query-specific file (wasm + JS + meta.bin).
pub fn size_report(files: &[(String, Vec<u8>)]) -> Vec<SizeRow> {
    let group = |what: &str, pick: &dyn Fn(&str) -> bool| {
        let (raw, gzip) = files
            .iter()
            .filter(|(n, _)| pick(n))
            .fold((0, 0), |(r, g), (_, b)| (r + b.len(), g + gz(b)));
        SizeRow {
            what: what.into(),
            raw,
            gzip,
        }
    };
    let wasm = group("wasm", &|n| n.ends_with(".wasm"));
    // What the search page loads (its script and the package's loader, which holds
    // the binding's glue); the graph's script, the widget and the package API are
    // reported apart.
    let js = group("JS", &|n| matches!(n, "app.js" | "pkg/library.js"));
    let graph = group("graph JS (with the first graph)", &|n| n == "graph.js");
    let widget = group("widget JS", &|n| n == "widget.js" || n == "pkg/library.js");
    let css = group("CSS", &|n| n.ends_with(".css"));
    let meta = group("index: meta.bin", &|n| n == "index/meta.bin");
    let mut rows = vec![wasm.clone(), js.clone(), css, meta.clone()];
    for (prefix, what) in [
        ("index/vocab-", "vocabulary blocks"),
        ("index/near-", "near-term buckets"),
        ("index/listing-", "listings"),
    ] {
        let count = files.iter().filter(|(n, _)| n.starts_with(prefix)).count();
        let mut row = group(&format!("{what} ({count})"), &|n| n.starts_with(prefix));
        row.what = format!("{} ({count}, {} B gzip each)", what, row.gzip / count.max(1));
        rows.push(row);
    }
    // Each passages file compressed once, for the row's total and its spread (they
    // are most of the bundle's bytes, and the best level is slow).
    let mut passages: Vec<usize> = Vec::new();
    let mut raw = 0;
    for (_, b) in files.iter().filter(|(n, _)| n.starts_with("passages/")) {
        raw += b.len();
        passages.push(gz(b));
    }
    let gzip = passages.iter().sum();
    passages.sort_unstable();
    let at = |q: f64| {
        passages
            .get(((passages.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    rows.push(SizeRow {
        what: format!(
            "passages ({}; a shown hit's excerpt data: p50 {} B, p95 {} B, max {} B gzip)",
            passages.len(),
            at(0.5),
            at(0.95),
            at(1.0)
        ),
        raw,
        gzip,
    });
    rows.push(SizeRow {
        what: "wasm + JS + meta.bin".into(),
        raw: wasm.raw + js.raw + meta.raw,
        gzip: wasm.gzip + js.gzip + meta.gzip,
    });
    rows.push(graph);
    rows.push(widget);
    rows
}

/// Bytes after gzip at the best level, as the size report counts them.
pub fn gz(bytes: &[u8]) -> usize {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = enc.write_all(bytes);
    enc.finish().map(|v| v.len()).unwrap_or(0)
}

/// Loads the analyzer with the corpus's user dictionary, when it has one.
pub fn analyzer_for(data: &Path) -> Result<crate::analyze::Analyzer> {
    let user = data.join(USER_DICTIONARY);
    crate::analyze::Analyzer::load_default(Some(user.as_path()).filter(|p| p.is_file()))
}
