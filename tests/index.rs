//! The index on disk: round trip, every kind of damage, determinism, atomic builds.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use incident_build::bundle;
use incident_build::open;
use incident_core::format::{self, FormatError, HEADER_LEN};
use incident_core::index::Index;

fn build(data: &Path, out: &Path) -> bundle::BuildReport {
    bundle::build(data, out, common::analyzer(), &Default::default(), |_, _| {}).unwrap_or_else(|e| panic!("{e}"))
}

fn read_dir(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| (e.file_name().into_string().unwrap(), fs::read(e.path()).unwrap()))
        .collect()
}

fn load(files: &BTreeMap<String, Vec<u8>>) -> Result<Index, incident_core::index::LoadError> {
    Index::load(|name| files.get(name).cloned().ok_or("no such file"))
}

/// `meta.bin` of `files` alone, as a browser opens it: the other files come as
/// searches name them.
fn open_lazily(files: &BTreeMap<String, Vec<u8>>) -> Index {
    Index::open(|name| files.get(name).cloned().ok_or("no such file")).unwrap()
}

/// Asserts that the incomplete `response` of `open` names the listing files of its
/// provisional page in `likely`; then adds what each response names in `missing`
/// and `likely` until none is missing, and asserts that the last response is the
/// fully loaded `index`'s.
fn likely_to_the_end(
    open: &mut Index,
    index: &Index,
    files: &BTreeMap<String, Vec<u8>>,
    request: &incident_core::search::Request,
    response: incident_core::search::Response,
) {
    let provisional: Vec<String> = response
        .hits
        .iter()
        .map(|h| open.listing_file(open.meta.ids.iter().position(|id| *id == h.id).unwrap()))
        .collect();
    assert!(!provisional.is_empty());
    assert_eq!(response.likely, provisional);
    let mut response = response;
    while !response.missing.is_empty() {
        // Neither names a file already loaded.
        for name in response.missing.iter().chain(&response.likely) {
            open.add_file(name, &files[name]).unwrap();
        }
        response = incident_core::search::search(open, request).unwrap();
    }
    assert_eq!(response, incident_core::search::search(index, request).unwrap());
}

#[test]
fn round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::repo().join("data");
    let report = build(&data, &dir.path().join("dist"));
    let corpus = incident_build::corpus::load(&data).unwrap();
    assert_eq!(report.incidents, corpus.incidents.len());

    let index = open::load_index(&dir.path().join("dist")).unwrap();
    assert_eq!(index.len(), corpus.incidents.len());
    for (listing, incident) in index.listings().iter().zip(&corpus.incidents) {
        assert_eq!(listing.id, incident.id);
        assert_eq!(listing.title, incident.title);
        assert_eq!(listing.org, incident.org);
        assert_eq!(listing.date, incident.when.machine());
        assert_eq!(listing.date_label, incident.when.label());
        assert!(!listing.summary.is_empty());
    }
    // Every term of every record is found for that record (bitset or filter), and in
    // the vocabulary; title terms are found as title terms.
    for (d, incident) in corpus.incidents.iter().enumerate() {
        let terms = incident_build::indexer::record_terms(incident, common::analyzer()).unwrap();
        for t in terms.all() {
            assert!(index.has_term(d, t), "{} lacks {t}", incident.id);
            assert!(index.df(t).is_some(), "{t}");
        }
        for t in &terms.title {
            assert!(index.in_title(d, t), "{} title lacks {t}", incident.id);
        }
    }
    // Opened for searching, as the browser does: meta.bin alone, then the files each
    // response names in `missing`, round by round. The vocabulary blocks come first
    // (the response says it is incomplete), the listing files of the shown hits
    // last; then the response is the fully loaded index's.
    let files = read_dir(&dir.path().join("dist/index"));
    let mut open = open_lazily(&files);
    assert!((0..open.len()).all(|d| !open.has_listing(d) && open.listing(d).title.is_empty()));
    assert_eq!(open.listing(0).date, corpus.incidents[0].date.to_string());
    // A date the sources give in part comes with the listing file, not meta.bin:
    // until then the listing shows the day the incident sorts by.
    let partial = corpus.incidents.iter().position(|i| !i.when.is_day()).unwrap();
    let when = &corpus.incidents[partial].when;
    assert_eq!(open.listing(partial).date, corpus.incidents[partial].date.to_string());
    assert_ne!(open.listing(partial).date, when.machine());
    let file = open.listing_file(partial);
    open.add_file(&file, &files[&file]).unwrap();
    assert_eq!(open.listing(partial).date, when.machine());
    assert_eq!(open.listing(partial).date_label, when.label());
    assert_eq!(open.listing(partial), index.listing(partial));
    let mut open = open_lazily(&files);
    let request = incident_core::search::Request {
        query: "재시도".into(),
        per_page: 5,
        ..Default::default()
    };
    let full = incident_core::search::search(&index, &request).unwrap();
    assert!(full.missing.is_empty() && !full.incomplete);
    let first = incident_core::search::search(&open, &request).unwrap();
    assert!(first.incomplete, "{:?}", first.missing);
    // What only a complete response is read for waits for it: 재시도 names a cause
    // (a suggested filter), and every value has a count.
    assert!(!full.suggestions.is_empty() && full.facets.iter().count() > 0);
    assert!(first.suggestions.is_empty() && first.facets.iter().count() == 0);
    assert!(
        first.missing.iter().all(|n| n.starts_with("vocab-")),
        "{:?}",
        first.missing
    );
    let mut rounds = 0;
    let mut response = first;
    while response.incomplete {
        for name in &response.missing {
            open.add_file(name, &files[name]).unwrap();
        }
        rounds += 1;
        assert!(rounds < 8, "still missing {:?}", response.missing);
        response = incident_core::search::search(&open, &request).unwrap();
    }
    // Only what the query needed: a block or two, each with its terms' incidents.
    let loaded = open.data.blocks.iter().flatten().count();
    assert!(loaded <= 3, "{loaded} blocks for one word");
    assert_eq!(open.data.parts.iter().flatten().count(), loaded);
    assert_eq!(response.hits.len(), 5);
    assert!(response.hits.iter().all(|h| h.title.is_empty()));
    assert_eq!(response.missing.len(), 5, "{:?}", response.missing);
    for name in &response.missing {
        open.add_file(name, &files[name]).unwrap();
    }
    let last = incident_core::search::search(&open, &request).unwrap();
    assert!(last.missing.is_empty());
    assert_eq!(last, full);
    // A word the vocabulary lacks (폭쥬 for 폭주) costs its near-term buckets a round
    // more. Once every word's own blocks are in, the incomplete response names the
    // provisional page's listing files in `likely`, for the loader to fetch beside
    // the buckets; before that it names none, since the page means nothing yet.
    let mut open = open_lazily(&files);
    let request = incident_core::search::Request {
        query: "재시도 폭쥬".into(),
        ..Default::default()
    };
    let blocks = incident_core::search::search(&open, &request).unwrap();
    assert!(blocks.incomplete && blocks.likely.is_empty(), "{:?}", blocks.likely);
    for name in &blocks.missing {
        open.add_file(name, &files[name]).unwrap();
    }
    let buckets = incident_core::search::search(&open, &request).unwrap();
    assert!(buckets.incomplete, "{:?}", buckets.missing);
    assert!(
        buckets.missing.iter().any(|n| n.starts_with("near-")),
        "{:?}",
        buckets.missing
    );
    likely_to_the_end(&mut open, &index, &files, &request, buckets);
    // While no more than two files are missing, the provisional page's listings are
    // named even though a word is not read yet: ten listings take two waves of six
    // requests, with room for the two.
    let mut open = open_lazily(&files);
    let request = incident_core::search::Request {
        query: "재시도 네트워크".into(),
        ..Default::default()
    };
    let own = incident_core::format::vocab::Directory::file(open.meta.vocab.block_of("재시도").unwrap());
    open.add_file(&own, &files[&own]).unwrap();
    let half = incident_core::search::search(&open, &request).unwrap();
    let other = incident_core::format::vocab::Directory::file(open.meta.vocab.block_of("네트워크").unwrap());
    assert!(half.incomplete && half.missing.contains(&other), "{:?}", half.missing);
    assert!(half.missing.len() <= 2, "{:?}", half.missing);
    likely_to_the_end(&mut open, &index, &files, &request, half);
    assert!(open.add_file("listing-9999.bin", &files["listing-0000.bin"]).is_err());
    assert!(open.add_file("vocab-0000.bin", &files["near-0000.bin"]).is_err());
    assert!(open.add_file("vocab-0001.bin", &files["vocab-0000.bin"]).is_err());
    // The term parts of format 7 are no file of this index.
    assert!(open.add_file("terms-0000.bin", &files["vocab-0000.bin"]).is_err());

    // Facet bitsets agree with the records.
    let org = index.facet_position("org").unwrap();
    for value in &index.meta.facets[org].values {
        let expected: Vec<usize> = corpus
            .incidents
            .iter()
            .enumerate()
            .filter(|(_, i)| i.org == value.slug)
            .map(|(d, _)| d)
            .collect();
        assert_eq!(value.docs.iter().collect::<Vec<_>>(), expected);
    }
}

#[test]
fn every_damaged_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    build(&common::repo().join("data"), &dir.path().join("dist"));
    let files = read_dir(&dir.path().join("dist/index"));
    let index = load(&files).unwrap();
    // meta.bin, the vocabulary blocks and near-term buckets, one listing file per
    // incident.
    let (blocks, near) = (index.data.blocks.len(), index.data.near.len());
    assert!(blocks > 1 && near > 1);
    assert_eq!(index.data.parts.len(), blocks);
    assert_eq!(files.len(), 1 + blocks + near + index.len(), "{:?}", files.keys());
    let last = index.listing_file(index.len() - 1);
    let last_block = format!("vocab-{:04}.bin", blocks - 1);

    for name in [
        "meta.bin",
        "vocab-0000.bin",
        last_block.as_str(),
        "near-0000.bin",
        "listing-0000.bin",
        last.as_str(),
    ] {
        let name = &name.to_string();
        let original = &files[name];
        let with = |bytes: Vec<u8>| {
            let mut f = files.clone();
            f.insert(name.clone(), bytes);
            load(&f).expect_err("damaged index must not load")
        };
        // Truncated anywhere: inside the header, at its end, inside the payload.
        for cut in [
            0,
            2,
            7,
            19,
            HEADER_LEN - 1,
            HEADER_LEN,
            original.len() / 2,
            original.len() - 1,
        ] {
            let err = with(original[..cut].to_vec());
            assert_eq!(&err.file, name);
            assert!(
                matches!(err.error, FormatError::Truncated { .. }),
                "{name} cut at {cut}: {err}"
            );
            assert!(err.to_string().contains("rebuild"), "{err}");
        }
        // A flipped bit anywhere in the payload.
        // (A third of the way into the payload: a small file's third is its header.)
        for at in [
            HEADER_LEN,
            HEADER_LEN + (original.len() - HEADER_LEN) / 3,
            original.len() - 1,
        ] {
            let mut bad = original.clone();
            bad[at] ^= 0x40;
            assert_eq!(with(bad).error, FormatError::ChecksumMismatch, "{name} at {at}");
        }
        let mut bad = original.clone();
        bad[..4].copy_from_slice(b"PK\x03\x04");
        assert_eq!(with(bad).error, FormatError::BadMagic);
        let mut bad = original.clone();
        bad[4..6].copy_from_slice(&1u16.to_le_bytes());
        assert_eq!(with(bad).error, FormatError::UnsupportedVersion(1));
        let mut bad = original.clone();
        bad.extend_from_slice(b"junk");
        assert_eq!(with(bad).error, FormatError::TrailingBytes(4));
        // Another kind of file under this name.
        let other = if name.starts_with("listing-") {
            "meta.bin"
        } else {
            "listing-0000.bin"
        };
        let other = &other.to_string();
        assert!(
            matches!(with(files[other].clone()).error, FormatError::WrongKind { .. }),
            "{name} <- {other}"
        );
        // The same file of another build (a deploy between two reads): every file
        // is checked against meta.bin's build, and a meta.bin of another build
        // fails on the first file read after it.
        let mut other = original.clone();
        let build = format::build_of(original).expect("a file of this format");
        assert_ne!(build, 0, "a bundle's files carry its version");
        format::stamp(&mut other, build ^ 1);
        let err = with(other);
        assert_eq!(
            err.error,
            if name == "meta.bin" {
                FormatError::OtherBuild {
                    expected: build ^ 1,
                    found: build,
                }
            } else {
                FormatError::OtherBuild {
                    expected: build,
                    found: build ^ 1,
                }
            },
            "{name}"
        );
        assert!(err.to_string().contains("reload"), "{err}");
        // Missing.
        let mut f = files.clone();
        f.remove(name);
        let err = load(&f).unwrap_err();
        assert_eq!(&err.file, name);
        assert!(err.to_string().contains("cannot read"), "{err}");
    }

    // Another incident's listing file under this name.
    let mut f = files.clone();
    f.insert("listing-0000.bin".into(), files["listing-0001.bin"].clone());
    let err = load(&f).unwrap_err();
    assert_eq!(err.file, "listing-0000.bin");
    assert!(err.to_string().contains("incident 1, not 0"), "{err}");
    // Another block or bucket of the same kind under this name.
    for (a, b, says) in [
        ("vocab-0000.bin", "vocab-0001.bin", "not 0"),
        ("near-0000.bin", "near-0001.bin", "holds near-term bucket 1, not 0"),
    ] {
        let mut f = files.clone();
        f.insert(a.into(), files[b].clone());
        let err = load(&f).unwrap_err();
        assert_eq!(err.file, a);
        assert!(err.to_string().contains(says), "{err}");
    }

    // The CLI reports the same error and the file's name, without panicking.
    fs::write(dir.path().join("dist/index/meta.bin"), b"ILIX\x01\x00").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .args(["search", "재시도", "--bundle"])
        .arg(dir.path().join("dist"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("meta.bin: truncated index file"), "{stderr}");
}

#[test]
fn the_same_input_builds_byte_identical_output() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::repo().join("data");
    build(&data, &dir.path().join("a"));
    build(&data, &dir.path().join("b"));
    let a = read_dir(&dir.path().join("a/index"));
    let b = read_dir(&dir.path().join("b/index"));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(bytes == &b[name], "{name} differs between two builds");
    }
}

#[test]
fn a_failed_build_leaves_the_previous_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    common::write_corpus(&data, &[]);
    fs::write(data.join("incidents/IL-0001.md"), common::valid_record()).unwrap();
    let out = dir.path().join("dist");
    build(&data, &out);
    let before = read_dir(&out.join("index"));

    // Break the corpus; the build fails and names the problem.
    fs::write(
        data.join("incidents/IL-0002.md"),
        common::valid_record()
            .replace("IL-0001", "IL-0002")
            .replace("2025-10-29", "2025-10-32"),
    )
    .unwrap();
    let err = bundle::build(&data, &out, common::analyzer(), &Default::default(), |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("IL-0002.md:5: `date`"), "{err}");
    assert_eq!(
        read_dir(&out.join("index")),
        before,
        "the previous dist/ must stay as it was"
    );
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary folders left behind: {leftovers:?}");

    // Fixed, it replaces the bundle.
    fs::write(
        data.join("incidents/IL-0002.md"),
        common::valid_record().replace("IL-0001", "IL-0002"),
    )
    .unwrap();
    assert_eq!(build(&data, &out).incidents, 2);
    assert_ne!(read_dir(&out.join("index")), before);
}

#[test]
fn every_file_a_search_reads_names_the_build_of_its_pages() {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    build(&common::repo().join("data"), &dist);
    let page = fs::read_to_string(dist.join("index.html")).unwrap();
    let version = page
        .split("data-version=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the search page names its build");
    let build = u64::from_str_radix(version, 16).unwrap();
    for (name, bytes) in read_dir(&dist.join("index")) {
        assert_eq!(format::build_of(&bytes), Some(build), "index/{name}");
    }
    let passages = read_dir(&dist.join("passages"));
    assert!(!passages.is_empty());
    for (name, bytes) in passages {
        let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(json["build"], version, "passages/{name}");
    }
    let sw = fs::read_to_string(dist.join("sw.js")).unwrap();
    assert!(
        sw.contains(&format!("const VERSION = \"{version}\"")),
        "sw.js names another build"
    );
    // `_headers`: every page and meta.bin revalidate, every other file a search
    // reads (addressed by build) is immutable.
    use incident_build::headers::cache_control;
    let mut pending = vec![dist.clone()];
    while let Some(folder) = pending.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let url = format!("/{}", path.strip_prefix(&dist).unwrap().to_string_lossy());
            let want = if url.ends_with(".html") || url == "/index/meta.bin" || url == "/sw.js" {
                Some("no-cache")
            } else if url.starts_with("/index/") || url.starts_with("/passages/") {
                Some("public, max-age=31536000, immutable")
            } else {
                continue;
            };
            assert_eq!(cache_control(&url), want, "{url}");
        }
    }
}

/// The link targets of a Markdown text: `[text](target)`, no external URLs.
fn markdown_links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn llms_txt_and_every_incidents_markdown_link_inside_the_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let dist = dir.path().join("dist");
    let report = build(&common::repo().join("data"), &dist);
    let corpus = incident_build::corpus::load(&common::repo().join("data")).unwrap();
    // A link of a file at `from` (a folder of the bundle) resolves to a file there.
    let resolves = |from: &Path, target: &str| {
        let path = from.join(target);
        let path = if target.ends_with('/') {
            path.join("index.html")
        } else {
            path
        };
        path.canonicalize()
            .is_ok_and(|p| p.starts_with(dist.canonicalize().unwrap()) && p.is_file())
    };
    let llms = fs::read_to_string(dist.join("llms.txt")).unwrap();
    assert!(llms.starts_with("# Incident Library\n\n> "), "{}", &llms[..80]);
    let links = markdown_links(&llms);
    for inc in &corpus.incidents {
        assert!(
            links.contains(&format!("incidents/{}/index.md", inc.id)),
            "llms.txt lacks {}",
            inc.id
        );
    }
    for (f, facet) in incident_core::index::FACETS.iter().enumerate() {
        for value in &corpus.taxonomy.facets[f] {
            assert!(
                links.contains(&format!("topics/{}/{}/", facet.key, value.slug)),
                "llms.txt lacks a topic"
            );
        }
    }
    for link in &links {
        assert!(resolves(&dist, link), "llms.txt: {link} is not in the bundle");
    }
    for inc in &corpus.incidents {
        let folder = dist.join("incidents").join(&inc.id);
        let md = fs::read_to_string(folder.join("index.md")).unwrap();
        assert!(md.starts_with(&format!("# {}\n", inc.title)), "{}", inc.id);
        for name in incident_core::sections::NAMES {
            assert_eq!(
                md.contains(&format!("\n## {name}\n")),
                inc.section(name).is_some(),
                "{} {name}",
                inc.id
            );
        }
        for link in markdown_links(&md) {
            assert!(
                resolves(&folder, &link),
                "{}/index.md: {link} is not in the bundle",
                inc.id
            );
        }
        let page = fs::read_to_string(folder.join("index.html")).unwrap();
        assert!(
            page.contains(r#"<link rel="alternate" type="text/markdown" href="index.md">"#),
            "{}",
            inc.id
        );
    }
    assert!(report.files.iter().any(|(n, _)| n == "llms.txt"));

    // Under a site URL every link is absolute, and names the same files.
    let options = bundle::BuildOptions {
        site_url: Some(incident_build::markdown::parse_site_url("https://incidents.example.org/lib").unwrap()),
        ..Default::default()
    };
    let absolute = dir.path().join("absolute");
    bundle::build(
        &common::repo().join("data"),
        &absolute,
        common::analyzer(),
        &options,
        |_, _| {},
    )
    .unwrap();
    let site = "https://incidents.example.org/lib/";
    for text in [
        fs::read_to_string(absolute.join("llms.txt")).unwrap(),
        fs::read_to_string(absolute.join("incidents/IL-0209/index.md")).unwrap(),
    ] {
        for link in markdown_links(&text) {
            let inside = link
                .strip_prefix(site)
                .unwrap_or_else(|| panic!("{link} is not under {site}"));
            assert!(resolves(&dist, inside), "{link}");
        }
    }
    for bad in [
        "incidents.example.org",
        "ftp://x/",
        "https://",
        "https://a.example/?q=1",
    ] {
        assert!(incident_build::markdown::parse_site_url(bad).is_err(), "{bad}");
    }
}
