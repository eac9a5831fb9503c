//! `build` never loses a user's files: it replaces only a folder it wrote, never
//! the corpus, never a file, and it cleans up after builds that were killed.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn corpus(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("data");
    common::one_record_corpus(&data);
    data
}

/// Runs `incident-library build` without a wasm package (an empty `--pkg` folder
/// would be refused, so the library API is used for that) through the CLI's
/// argument checks.
fn cli_build(data: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .arg("build")
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn lib_build(data: &Path, out: &Path, force: bool) -> incident_build::error::Result<()> {
    let options = incident_build::bundle::BuildOptions {
        pkg: None,
        force,
        site_url: None,
    };
    incident_build::bundle::build(data, out, common::analyzer(), &options, |_, _| {}).map(|_| ())
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.strip_prefix(dir).unwrap().display().to_string(),
                    fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

fn siblings(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into())
        .collect();
    names.sort();
    names
}

#[test]
fn the_corpus_is_never_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let data = corpus(dir.path());
    let before = snapshot(&data);
    for (out, how) in [
        (data.clone(), "is"),
        (dir.path().to_path_buf(), "holds"),
        (data.join("site"), "lies inside"),
    ] {
        for force in [false, true] {
            let extra: &[&str] = if force { &["--force"] } else { &[] };
            let r = cli_build(&data, &out, extra);
            let stderr = String::from_utf8_lossy(&r.stderr);
            assert_eq!(r.status.code(), Some(1), "{stderr}");
            assert!(stderr.contains(&format!("the output {how} the corpus")), "{stderr}");
            assert!(stderr.contains("--out"), "{stderr}");
            assert_eq!(snapshot(&data), before, "the corpus is untouched");
        }
    }
    assert!(!data.join("site").exists());
}

#[test]
fn an_unrelated_folder_is_refused_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let data = corpus(dir.path());
    let out = dir.path().join("photos");
    fs::create_dir_all(out.join("2024")).unwrap();
    fs::write(out.join("2024/beach.jpg"), b"not a bundle").unwrap();
    let before = snapshot(&out);
    let err = lib_build(&data, &out, false).unwrap_err().to_string();
    assert!(
        err.contains("photos") && err.contains("did not write") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(snapshot(&out), before);
    assert_eq!(siblings(dir.path()), ["data", "photos"], "no staging folder is left");
    // With --force the folder is replaced, and marked as a bundle from then on.
    lib_build(&data, &out, true).unwrap();
    assert!(out.join(incident_build::bundle::MARKER).is_file());
    assert!(!out.join("2024").exists());
    // A bundle it wrote is replaced without --force.
    lib_build(&data, &out, false).unwrap();
    // So is an empty folder.
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    lib_build(&data, &empty, false).unwrap();
    assert!(empty.join("index/meta.bin").is_file());
}

#[test]
fn a_file_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let data = corpus(dir.path());
    let out = dir.path().join("notes.txt");
    fs::write(&out, b"my notes").unwrap();
    for force in [false, true] {
        let err = lib_build(&data, &out, force).unwrap_err().to_string();
        assert!(err.contains("notes.txt") && err.contains("not a folder"), "{err}");
        assert_eq!(fs::read(&out).unwrap(), b"my notes");
        assert_eq!(
            siblings(dir.path()),
            ["data", "notes.txt"],
            "nothing renamed, nothing left beside it"
        );
    }
}

#[test]
fn staging_folders_of_killed_builds_are_cleaned_up() {
    let dir = tempfile::tempdir().unwrap();
    let data = corpus(dir.path());
    let out = dir.path().join("dist");
    lib_build(&data, &out, false).unwrap();
    // A process id that is not running: a child that has exited and been reaped.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let tmp = dir.path().join(format!(".dist.tmp-{dead}"));
    let old = dir.path().join(format!(".dist.old-{dead}"));
    fs::create_dir_all(tmp.join("index")).unwrap();
    fs::create_dir_all(&old).unwrap();
    lib_build(&data, &out, false).unwrap();
    assert_eq!(siblings(dir.path()), ["data", "dist"]);

    // A build killed between moving the old bundle aside and putting the new one in
    // place: the next build puts the old one back first, then replaces it.
    fs::rename(&out, &old).unwrap();
    lib_build(&data, &out, false).unwrap();
    assert!(out.join("index/meta.bin").is_file());
    assert_eq!(siblings(dir.path()), ["data", "dist"]);
}

#[test]
fn only_plain_record_files_are_read_and_the_rest_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let data = corpus(dir.path());
    let incidents = data.join("incidents");
    let record = fs::read_to_string(incidents.join("IL-0001.md")).unwrap();
    fs::write(incidents.join("IL-0002.MD"), record.replace("IL-0001", "IL-0002")).unwrap();
    let outside = dir.path().join("IL-0003.md");
    fs::write(&outside, record.replace("IL-0001", "IL-0003")).unwrap();
    std::os::unix::fs::symlink(&outside, incidents.join("IL-0003.md")).unwrap();
    // A FIFO would block a reader forever.
    let fifo = incidents.join("IL-0004.md");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: creating a FIFO at a path we own, in a temporary folder.
    assert_eq!(unsafe { libc_mkfifo(c.as_ptr(), 0o644) }, 0);
    fs::create_dir(incidents.join("IL-0005.md")).unwrap();

    let started = std::time::Instant::now();
    let diags = incident_build::corpus::load(&data).unwrap_err();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "the FIFO was not opened"
    );
    let text: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
    let about = |name: &str, what: &str| text.iter().any(|t| t.contains(name) && t.contains(what));
    assert!(about("IL-0002.MD", "not .md"), "{text:#?}");
    assert!(about("IL-0003.md", "is a link"), "{text:#?}");
    assert!(about("IL-0004.md", "not a regular file"), "{text:#?}");
    assert!(about("IL-0005.md", "not a regular file"), "{text:#?}");
    assert_eq!(diags.len(), 4, "{text:#?}");
}

#[test]
fn an_empty_corpus_never_replaces_a_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let data = corpus(dir.path());
    let out = dir.path().join("dist");
    lib_build(&data, &out, false).unwrap();
    let before = snapshot(&out);
    fs::remove_file(data.join("incidents/IL-0001.md")).unwrap();
    let err = lib_build(&data, &out, false).unwrap_err().to_string();
    assert!(err.contains("no records"), "{err}");
    assert_eq!(snapshot(&out), before);
}

extern "C" {
    #[link_name = "mkfifo"]
    fn libc_mkfifo(path: *const std::ffi::c_char, mode: u32) -> i32;
}

/// `--out` is resolved to one path before anything moves: `dist/../dist`, `dist/.`
/// and a path through a link to the folder above are the same `dist`, so the
/// staging and old folders are its real siblings. A failed build through any of
/// them leaves the old bundle as it was; a good one replaces it, leaving nothing
/// else beside it.
#[test]
fn every_spelling_of_the_output_is_the_same_folder_and_keeps_the_old_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let data = corpus(dir.path());
    let out = dir.path().join("dist");
    lib_build(&data, &out, false).unwrap();
    let link = dir.path().join("here");
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path(), &link).unwrap();
    let spellings = [
        dir.path().join("dist/../dist"),
        dir.path().join("dist/."),
        dir.path().join("dist/./"),
        dir.path().join("./dist"),
        link.join("dist"),
    ];
    // A corpus that fails to build: the old bundle stays, byte for byte.
    let bad = dir.path().join("bad");
    common::one_record_corpus(&bad);
    fs::write(bad.join("incidents/IL-0002.md"), "+++\nid = \"IL-0002\"\n+++\n").unwrap();
    for spelling in &spellings {
        let before = snapshot(&out);
        assert!(lib_build(&bad, spelling, false).is_err(), "{}", spelling.display());
        assert_eq!(snapshot(&out), before, "{}", spelling.display());
        assert_eq!(
            siblings(dir.path()),
            ["bad", "data", "dist", "here"],
            "{}",
            spelling.display()
        );
        lib_build(&data, spelling, false).unwrap();
        assert!(out.join("index/meta.bin").is_file(), "{}", spelling.display());
        assert_eq!(
            siblings(dir.path()),
            ["bad", "data", "dist", "here"],
            "{}",
            spelling.display()
        );
    }
}

/// The folder a build runs in, or one that holds it, is never an output: `.`,
/// `gbx/..` (through a folder that does not exist) and `..` are refused before
/// anything is made.
#[test]
fn the_folder_the_build_runs_in_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = corpus(dir.path());
    let work = dir.path().join("work");
    fs::create_dir(&work).unwrap();
    for out in [".", "gbx/..", "..", "./.", "dist/../.."] {
        let r = Command::new(env!("CARGO_BIN_EXE_incident-library"))
            .current_dir(&work)
            .args(["build", "--data"])
            .arg(&data)
            .args(["--out", out])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{out}: {stderr}");
        assert!(stderr.contains("a build replaces its output whole"), "{out}: {stderr}");
        assert!(stderr.contains("hint:"), "{out}: {stderr}");
        assert_eq!(siblings(&work), Vec::<String>::new(), "{out}: nothing is made");
        assert_eq!(siblings(dir.path()), ["data", "work"], "{out}");
    }
}

/// Two builds into one output: the second finds the first's lock and says so;
/// a lock whose process is gone is taken over.
#[test]
fn two_builds_at_once_do_not_mix() {
    let dir = tempfile::tempdir().unwrap();
    let data = corpus(dir.path());
    let out = dir.path().join("dist");
    lib_build(&data, &out, false).unwrap();
    let before = snapshot(&out);
    let mut other = Command::new("sleep").arg("30").spawn().unwrap();
    fs::write(dir.path().join(".dist.lock"), other.id().to_string()).unwrap();
    let err = lib_build(&data, &out, false).unwrap_err().to_string();
    assert!(
        err.contains(&format!("another build (process {})", other.id())) && err.contains("hint:"),
        "{err}"
    );
    assert_eq!(snapshot(&out), before, "the running build's output is left alone");
    other.kill().unwrap();
    other.wait().unwrap();
    lib_build(&data, &out, false).unwrap();
    assert_eq!(
        siblings(dir.path()),
        ["data", "dist"],
        "the stale lock is gone with the build"
    );
}

#[test]
fn robots_and_a_sitemap_of_every_page_with_the_site_url() {
    let data = tempfile::tempdir().unwrap();
    common::one_record_corpus(data.path());
    let out = tempfile::tempdir().unwrap();
    let build = |site_url: Option<&str>| {
        let dist = out.path().join(if site_url.is_some() { "with" } else { "without" });
        let options = incident_build::bundle::BuildOptions {
            site_url: site_url.map(str::to_string),
            ..Default::default()
        };
        incident_build::bundle::build(data.path(), &dist, common::analyzer(), &options, |_, _| {}).unwrap();
        dist
    };
    // Without the site's URL: robots.txt, and no sitemap rather than one of relative URLs.
    let dist = build(None);
    assert_eq!(
        std::fs::read_to_string(dist.join("robots.txt")).unwrap(),
        "User-agent: *\nAllow: /\n"
    );
    assert!(!dist.join("sitemap.xml").exists());
    let dist = build(Some("https://example.org/lib/"));
    let robots = std::fs::read_to_string(dist.join("robots.txt")).unwrap();
    assert!(
        robots.ends_with("Sitemap: https://example.org/lib/sitemap.xml\n"),
        "{robots}"
    );
    let sitemap = std::fs::read_to_string(dist.join("sitemap.xml")).unwrap();
    assert!(sitemap.starts_with(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
    ));
    // Every URL is a page of the build.
    for loc in sitemap
        .split("<loc>")
        .skip(1)
        .map(|l| l.split("</loc>").next().unwrap())
    {
        let path = loc.strip_prefix("https://example.org/lib/").unwrap();
        assert!(dist.join(path).join("index.html").is_file(), "{loc}");
    }
    assert!(sitemap.contains("<loc>https://example.org/lib/incidents/IL-0001/</loc>"));
}
