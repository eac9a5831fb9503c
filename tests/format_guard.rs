//! The format guard: a bundle saved with the current index format version, checked
//! in under `tests/fixtures/format-v<N>/`, must still be read by today's code and
//! answer as it did. A change of the on-disk format therefore fails here until
//! `FORMAT_VERSION` is bumped on purpose and the fixture is saved again:
//!
//! ```sh
//! IL_WRITE_FIXTURE=1 cargo test --profile fast --test format_guard
//! ```
//!
//! (then rename the folder after the new version and commit it).

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{write_corpus, Rec};
use incident_build::open;
use incident_core::format::{self, Kind, FORMAT_VERSION};
use incident_core::search::{self, Request};

/// The fixture of the current version.
fn fixture() -> PathBuf {
    common::repo().join(format!("tests/fixtures/format-v{FORMAT_VERSION}"))
}

/// The records the fixture was built from: three incidents with distinct words.
fn records() -> Vec<Rec<'static>> {
    vec![
        Rec {
            id: "IL-0001",
            title: "설정 변경으로 CDN 엣지 서버가 멈췄다",
            org: "example-cloud",
            date: "2024-03-01",
            causes: &["config-change"],
            components: &["cdn-edge"],
            symptoms: &["service-outage"],
            body: "잘못된 설정 변경이 배포되면서 CDN 엣지 서버가 요청을 처리하지 못했다.",
        },
        Rec {
            id: "IL-0002",
            title: "재시도가 몰려 DNS 가 응답하지 못했다",
            org: "other-cloud",
            date: "2023-07-15",
            causes: &["retry-amplification"],
            components: &["dns"],
            symptoms: &["service-outage"],
            body: "클라이언트 재시도가 겹치면서 DNS 서버에 요청이 쌓였다.",
        },
        Rec {
            id: "IL-0003",
            title: "메모리가 모자라 프로세스가 강제로 종료됐다",
            org: "example-cloud",
            date: "2022-11-30",
            causes: &["config-change"],
            components: &["dns"],
            symptoms: &["oom-killed"],
            body: "새 설정에서 캐시가 커지면서 메모리가 바닥났다.",
        },
    ]
}

/// Builds the records into `<dir>/dist`.
fn build_into(dir: &Path) -> PathBuf {
    let data = dir.join("data");
    write_corpus(&data, &records());
    let out = dir.join("dist");
    incident_build::bundle::build(&data, &out, common::analyzer(), &Default::default(), |_, _| {})
        .unwrap_or_else(|e| panic!("{e}"));
    out
}

#[test]
fn the_saved_bundle_of_this_format_version_reads_back() {
    if std::env::var_os("IL_WRITE_FIXTURE").is_some() {
        let dir = tempfile::tempdir().unwrap();
        let out = build_into(dir.path());
        let target = fixture().join("index");
        let _ = fs::remove_dir_all(fixture());
        fs::create_dir_all(&target).unwrap();
        for entry in fs::read_dir(out.join("index")).unwrap() {
            let entry = entry.unwrap();
            fs::copy(entry.path(), target.join(entry.file_name())).unwrap();
        }
    }
    let dir = fixture();
    assert!(
        dir.join("index/meta.bin").is_file(),
        "no saved bundle for format version {FORMAT_VERSION} at {}: a format change must bump \
         FORMAT_VERSION on purpose and save a new fixture (IL_WRITE_FIXTURE=1, see this file)",
        dir.display()
    );
    // Every file of the fixture carries the current version in its header.
    for entry in fs::read_dir(dir.join("index")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = fs::read(&path).unwrap();
        assert_eq!(
            u16::from_le_bytes([bytes[4], bytes[5]]),
            FORMAT_VERSION,
            "{}: saved with another format version",
            path.display()
        );
    }
    let meta = fs::read(dir.join("index/meta.bin")).unwrap();
    assert!(format::decode::<incident_core::index::Meta>(Kind::Meta, &meta).is_ok());

    let index = open::load_index(&dir).unwrap_or_else(|e| {
        panic!("today's reader cannot read the saved bundle of format version {FORMAT_VERSION}: {e}")
    });
    assert_eq!(index.len(), 3);
    let ids = |query: &str| -> Vec<String> {
        let request = Request {
            query: query.into(),
            ..Default::default()
        };
        search::search(&index, &request)
            .unwrap()
            .hits
            .into_iter()
            .map(|h| h.id)
            .collect()
    };
    // A word of one record's body, a title word, a Korean word with a particle, a
    // taxonomy synonym (through the facet bitsets), and the newest-first list.
    assert_eq!(ids("엣지"), ["IL-0001"]);
    assert_eq!(ids("재시도가"), ["IL-0002"]);
    assert_eq!(ids("메모리")[0], "IL-0003");
    assert_eq!(ids("OOM"), ["IL-0003"]);
    assert_eq!(ids(""), ["IL-0001", "IL-0002", "IL-0003"]);
}

#[test]
fn a_fresh_build_reads_the_same_as_the_saved_bundle() {
    // The writer of today and the saved bytes agree on what the records hold.
    let dir = tempfile::tempdir().unwrap();
    let fresh = open::load_index(&build_into(dir.path())).unwrap();
    let saved = open::load_index(&fixture()).unwrap();
    assert_eq!(fresh.meta.ids, saved.meta.ids);
    assert_eq!(fresh.meta.vocab, saved.meta.vocab);
    for (a, b) in fresh.listings().iter().zip(&saved.listings()) {
        assert_eq!((&a.id, &a.title, &a.date), (&b.id, &b.title, &b.date));
    }
}
