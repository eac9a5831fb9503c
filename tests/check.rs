//! `incident-library check`: every class of corpus error is found, located and
//! explained, all in one run.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use incident_build::corpus::{self, Diagnostic, Problem};

/// Writes the fixture taxonomy and one record with `text`, and checks.
fn check_one(text: &str) -> Vec<Diagnostic> {
    let dir = tempfile::tempdir().unwrap();
    common::write_corpus(dir.path(), &[]);
    fs::write(dir.path().join("incidents/IL-0001.md"), text).unwrap();
    corpus::load(dir.path()).err().unwrap_or_default()
}

/// The fixture taxonomy and the valid record, in a folder of their own.
fn valid_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::write_corpus(dir.path(), &[]);
    fs::write(dir.path().join("incidents/IL-0001.md"), common::valid_record()).unwrap();
    dir
}

/// Asserts that `text` gives exactly one diagnostic of `problem` on `line` about `field`.
fn expect(text: &str, problem: Problem, line: usize, field: Option<&str>) -> Diagnostic {
    let diags = check_one(text);
    let found: Vec<&Diagnostic> = diags.iter().filter(|d| d.problem == problem).collect();
    assert_eq!(found.len(), 1, "expected one {problem:?}, got: {diags:#?}");
    let d = found[0];
    assert_eq!(d.line, line, "{d}");
    assert_eq!(d.field.as_deref(), field, "{d}");
    assert!(d.file.ends_with("IL-0001.md"), "{d}");
    assert!(d.hint.is_some(), "every diagnostic carries a hint: {d}");
    d.clone()
}

fn replace(from: &str, to: &str) -> String {
    let base = common::valid_record();
    assert!(base.contains(from), "fixture lacks {from:?}");
    base.replacen(from, to, 1)
}

#[test]
fn the_valid_fixture_passes() {
    assert!(check_one(&common::valid_record()).is_empty());
}

#[test]
fn unknown_slug_suggests_the_closest() {
    let d = expect(
        &replace("causes = [\"config-change\"]", "causes = [\"config-chnage\"]"),
        Problem::UnknownSlug,
        6,
        Some("causes"),
    );
    assert!(d.hint.unwrap().contains("config-change"));
    // The Korean label typed instead of the slug is recognised.
    let d = expect(
        &replace("components = [\"cdn-edge\"]", "components = [\"CDN 과 엣지 네트워크\"]"),
        Problem::UnknownSlug,
        7,
        Some("components"),
    );
    assert!(d.hint.unwrap().contains("cdn-edge"));
    let d = expect(
        &replace("org = \"example-cloud\"", "org = \"example-clod\""),
        Problem::UnknownSlug,
        4,
        Some("org"),
    );
    assert!(d.hint.unwrap().contains("example-cloud"));
}

#[test]
fn duplicate_id() {
    let dir = valid_corpus();
    fs::write(
        dir.path().join("incidents/IL-0002.md"),
        common::valid_record().replace("IL-0001", "IL-0002"),
    )
    .unwrap();
    fs::write(
        dir.path().join("incidents/IL-0003.md"),
        common::valid_record().replace("id = \"IL-0001\"", "id = \"IL-0002\""),
    )
    .unwrap();
    let diags = corpus::load(dir.path()).unwrap_err();
    assert!(
        diags
            .iter()
            .any(|d| d.problem == Problem::DuplicateId && d.message.contains("IL-0002")),
        "{diags:#?}"
    );
}

#[test]
fn missing_required_field() {
    let d = expect(
        &replace("title = \"설정 변경 뒤 CDN 엣지 서버가 멈췄다\"\n", ""),
        Problem::MissingField,
        2,
        Some("title"),
    );
    assert!(d.message.contains("title"));
}

#[test]
fn bad_date() {
    expect(&replace("2025-10-29", "2025-02-30"), Problem::BadDate, 5, Some("date"));
    expect(&replace("2025-10-29", "29/10/2025"), Problem::BadDate, 5, Some("date"));
    // An unquoted TOML date is a type error with a hint to quote it.
    let d = expect(
        &replace("\"2025-10-29\"", "2025-10-29"),
        Problem::BadValue,
        5,
        Some("date"),
    );
    assert!(d.hint.unwrap().contains("quote"));
}

#[test]
fn bad_url() {
    expect(
        &replace(
            "https://status.example.com/incidents/IL-0001",
            "status.example.com/incidents",
        ),
        Problem::BadUrl,
        9,
        Some("sources"),
    );
    expect(
        &replace(
            "https://status.example.com/incidents/IL-0001",
            "ftp://status.example.com/x",
        ),
        Problem::BadUrl,
        9,
        Some("sources"),
    );
}

#[test]
fn unknown_related_id() {
    let d = expect(
        &replace("sources = [", "related = [\"IL-0009\"]\nsources = ["),
        Problem::UnknownRelated,
        9,
        Some("related"),
    );
    assert!(d.message.contains("IL-0009"));
    expect(
        &replace("sources = [", "related = [\"IL-0001\"]\nsources = ["),
        Problem::UnknownRelated,
        9,
        Some("related"),
    );
}

#[test]
fn malformed_toml() {
    let d = expect(
        &replace("title = \"설정", "title = 설정"),
        Problem::MalformedToml,
        3,
        None,
    );
    assert!(!d.message.is_empty());
    expect(&replace("+++\nid", "id"), Problem::MalformedToml, 1, None);
    expect(
        &common::valid_record().replacen("+++\n\n##", "\n\n##", 1),
        Problem::MalformedToml,
        1,
        None,
    );
}

#[test]
fn missing_or_empty_section() {
    let base = common::valid_record();
    let without = base.replace("## 교훈\n\n변경 전에 영향 범위를 확인한다.\n\n", "");
    let d = expect(&without, Problem::MissingSection, 11, Some("교훈"));
    assert!(d.message.contains("교훈"));
    let empty = base.replace("## 교훈\n\n변경 전에 영향 범위를 확인한다.", "## 교훈\n\n");
    expect(&empty, Problem::EmptySection, 16, Some("교훈"));
    // Any other section may be left out.
    assert!(check_one(&base).is_empty());
}

#[test]
fn filler_is_refused_and_a_placeholder_section_too() {
    let with = |section: &str| common::valid_record().replace("## 교훈", &format!("{section}\n\n## 교훈"));
    let d = expect(
        &with("## 감지\n\n출처는 감지 경위를 밝히지 않았다."),
        Problem::Filler,
        17,
        Some("감지"),
    );
    assert!(d.hint.as_deref().unwrap().contains("leave the section out"), "{d}");
    expect(
        &with("## 후속 조치\n\n출처에 기록 없음."),
        Problem::Filler,
        17,
        Some("후속 조치"),
    );
    // A sentence that says something else is fine.
    assert!(check_one(&with("## 감지\n\n09:12 UTC 에 알림이 울렸다.")).is_empty());
}

#[test]
fn partial_dates_and_their_companions() {
    let date =
        |from: &str, to: &str| common::valid_record().replace("date = \"2025-10-29\"", &format!("date = {from:?}{to}"));
    assert!(check_one(&date("2025-10", "")).is_empty());
    assert!(check_one(&date("2025", "")).is_empty());
    assert!(check_one(&date(
        "--10-29",
        "\ndate_bound = \"2025-11-30\"\ndate_bound_note = \"보고서 게시일\""
    ))
    .is_empty());
    // No year and no bound: the record could not be sorted.
    expect(&date("--10-29", ""), Problem::BadDate, 5, Some("date_bound"));
    expect(
        &date("--10-29", "\ndate_bound = \"2025-11-30\""),
        Problem::BadDate,
        5,
        Some("date_bound_note"),
    );
    // A bound for a date that has its year is refused.
    expect(
        &date("2025-10-29", "\ndate_bound = \"2025-11-30\""),
        Problem::BadDate,
        6,
        Some("date_bound"),
    );
    // An end before its start, or in another form.
    expect(
        &date("2025-10-29", "\ndate_end = \"2025-10-28\""),
        Problem::BadDate,
        6,
        Some("date_end"),
    );
    expect(
        &date("2025-10-29", "\ndate_end = \"2025-11\""),
        Problem::BadDate,
        6,
        Some("date_end"),
    );
    assert!(check_one(&date("2025-10-29", "\ndate_end = \"2025-10-31\"")).is_empty());
}

#[test]
fn careless_edits() {
    // A misspelt field name.
    let d = expect(
        &replace("symptoms =", "symptom ="),
        Problem::UnknownField,
        8,
        Some("symptom"),
    );
    assert!(d.hint.as_deref().unwrap().contains("symptoms"));
    // An id that does not match its file, or is malformed.
    expect(
        &replace("id = \"IL-0001\"", "id = \"IL-0002\""),
        Problem::BadId,
        2,
        Some("id"),
    );
    expect(
        &replace("id = \"IL-0001\"", "id = \"IL-1\""),
        Problem::BadId,
        2,
        Some("id"),
    );
    // A string where a list belongs.
    let d = expect(
        &replace("causes = [\"config-change\"]", "causes = \"config-change\""),
        Problem::BadValue,
        6,
        Some("causes"),
    );
    assert!(d.hint.unwrap().contains("list"));
    // Repeated list items, bad durations and tags.
    expect(
        &replace(
            "causes = [\"config-change\"]",
            "causes = [\"config-change\", \"config-change\"]",
        ),
        Problem::DuplicateItem,
        6,
        Some("causes"),
    );
    expect(
        &replace("sources = [", "time_to_detect = \"19 minutes\"\nsources = ["),
        Problem::BadDuration,
        9,
        Some("time_to_detect"),
    );
    expect(
        &replace("sources = [", "tags = [\"AI Infra\"]\nsources = ["),
        Problem::BadTag,
        9,
        Some("tags"),
    );
    // A section heading that is not in the format, and sections out of order.
    expect(
        &replace("## 교훈", "## 배운 점"),
        Problem::BadSection,
        16,
        Some("배운 점"),
    );
    let base = common::valid_record();
    let swapped = base
        .replace("## 요약", "## TMP")
        .replace("## 교훈", "## 요약")
        .replace("## TMP", "## 교훈");
    expect(&swapped, Problem::SectionOrder, 11, None);
}

#[test]
fn taxonomy_errors() {
    let dir = tempfile::tempdir().unwrap();
    common::write_corpus(dir.path(), &[]);
    let bad = common::TAXONOMY
        .replacen("slug = \"dns\"", "slug = \"cdn-edge\"", 1)
        .replacen("slug = \"test-gap\"", "slug = \"Test Gap\"", 1);
    fs::write(dir.path().join("taxonomy.toml"), &bad).unwrap();
    let diags = corpus::load(dir.path()).unwrap_err();
    assert_eq!(
        diags.iter().filter(|d| d.problem == Problem::Taxonomy).count(),
        2,
        "{diags:#?}"
    );
    fs::write(dir.path().join("taxonomy.toml"), "[[cause]]\nslug = \"x\"\n").unwrap();
    let diags = corpus::load(dir.path()).unwrap_err();
    assert!(
        diags.iter().any(|d| d.problem == Problem::MalformedToml
            && d.file.ends_with("taxonomy.toml")
            && d.message.contains("missing field")),
        "{diags:#?}"
    );
}

#[test]
fn all_errors_in_one_run_and_exit_code_1() {
    let dir = tempfile::tempdir().unwrap();
    common::write_corpus(dir.path(), &[]);
    let broken = common::valid_record()
        .replace("config-change", "config-chnage")
        .replace("2025-10-29", "2025-13-01")
        .replace("## 교훈", "## 교훈됨");
    fs::write(dir.path().join("incidents/IL-0001.md"), broken).unwrap();
    fs::write(
        dir.path().join("incidents/IL-0002.md"),
        common::valid_record()
            .replace("IL-0001", "IL-0002")
            .replace("https://", ""),
    )
    .unwrap();

    let diags = corpus::load(dir.path()).unwrap_err();
    let problems: Vec<Problem> = diags.iter().map(|d| d.problem).collect();
    for p in [
        Problem::UnknownSlug,
        Problem::BadDate,
        Problem::BadSection,
        Problem::MissingSection,
        Problem::BadUrl,
    ] {
        assert!(problems.contains(&p), "{p:?} missing from {diags:#?}");
    }

    let out = Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .args(["check", "--data"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("IL-0001.md:6: `causes`: unknown cause \"config-chnage\""),
        "{stderr}"
    );
    assert!(stderr.contains("hint: did you mean \"config-change\"?"), "{stderr}");
    assert!(stderr.contains("IL-0002.md:9: `sources`"), "{stderr}");
    assert!(
        stderr.contains(&format!("{} problem(s) in 2 file(s)", diags.len())),
        "{stderr}"
    );
}

#[test]
fn the_shipped_corpus_passes() {
    let out = Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .args(["check", "--data"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn control_characters_are_refused_where_they_are() {
    let d = expect(
        &replace("title = \"", "title = \"\u{0}"),
        Problem::BadValue,
        3,
        Some("title"),
    );
    assert!(d.message.contains("U+0000"), "{d}");
    let base = common::valid_record();
    let body_line = base.lines().position(|l| l.starts_with("설정 변경이 엣지")).unwrap() + 1;
    let d = expect(
        &base.replacen("설정 변경이 엣지", "설정 변경이\u{1b}[31m 엣지", 1),
        Problem::BadValue,
        body_line,
        Some("요약"),
    );
    assert!(d.message.contains("U+001B"), "{d}");
}

#[test]
fn source_urls_are_checked_as_the_api_schemas_read_them() {
    for bad in [
        "https://status.example.com/a b",
        "https://status.example.com/장애",
        "https://status.example.com/<x>",
    ] {
        let text = common::valid_record().replace("https://status.example.com/incidents/IL-0001", bad);
        let diags = check_one(&text);
        assert!(
            diags
                .iter()
                .any(|d| d.problem == Problem::BadUrl && d.field.as_deref() == Some("sources")),
            "{bad}: {diags:#?}"
        );
    }
}

#[test]
fn a_list_of_20000_items_is_checked_in_linear_time() {
    // Quadratic duplicate detection took minutes at 100,000 items; records are now at
    // most 256 KB, which holds about 20,000 such items, checked in milliseconds.
    let tags: Vec<String> = (0..20_000).map(|i| format!("\"t{i}\"")).collect();
    let text = replace("org = ", &format!("tags = [{}, \"t7\"]\norg = ", tags.join(", ")));
    let diags = check_one(&text);
    let dup: Vec<&Diagnostic> = diags.iter().filter(|d| d.problem == Problem::DuplicateItem).collect();
    assert_eq!(dup.len(), 1, "{:?}", dup);
    assert!(dup[0].message.contains("\"t7\""));
}

#[test]
fn a_broken_taxonomy_is_reported_first_and_alone() {
    let dir = tempfile::tempdir().unwrap();
    common::write_corpus(dir.path(), &[]);
    for i in 1..=30 {
        let id = format!("IL-{i:04}");
        fs::write(
            dir.path().join(format!("incidents/{id}.md")),
            common::valid_record().replace("IL-0001", &id),
        )
        .unwrap();
    }
    for broken in ["[[cause]]\nslug = 3\n", "this is not toml", ""] {
        fs::write(dir.path().join("taxonomy.toml"), broken).unwrap();
        let diags = corpus::load(dir.path()).unwrap_err();
        assert!(diags[0].file.ends_with("taxonomy.toml"), "{broken:?}: {diags:#?}");
        assert!(
            diags.iter().all(|d| d.problem != Problem::UnknownSlug),
            "{broken:?}: no knock-on unknown slugs: {diags:#?}"
        );
    }
    fs::remove_file(dir.path().join("taxonomy.toml")).unwrap();
    let diags = corpus::load(dir.path()).unwrap_err();
    assert!(
        diags[0].file.ends_with("taxonomy.toml") && diags[0].problem == Problem::Io,
        "{diags:#?}"
    );
    assert!(diags.iter().all(|d| d.problem != Problem::UnknownSlug), "{diags:#?}");
}

#[test]
fn invalid_utf8_is_reported_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    common::write_corpus(dir.path(), &[]);
    let text = common::valid_record();
    let at = text.find("## 교훈").unwrap();
    let mut bytes = text.into_bytes();
    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    bytes.insert(at, 0xff);
    fs::write(dir.path().join("incidents/IL-0001.md"), bytes).unwrap();
    let diags = corpus::load(dir.path()).unwrap_err();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].line, line, "{}", diags[0]);
    assert!(diags[0].message.contains("not UTF-8"), "{}", diags[0]);
}

#[test]
fn ids_past_9999_are_read_and_ordered_by_number() {
    let dir = tempfile::tempdir().unwrap();
    common::write_corpus(dir.path(), &[]);
    for id in ["IL-10000", "IL-9999"] {
        let text = common::valid_record().replace("IL-0001", id);
        fs::write(dir.path().join(format!("incidents/{id}.md")), text).unwrap();
    }
    let corpus = corpus::load(dir.path()).unwrap_or_else(|d| panic!("{d:#?}"));
    let ids: Vec<&str> = corpus.incidents.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["IL-9999", "IL-10000"]);
    // One spelling per number: a leading zero past four digits is refused.
    let text = common::valid_record().replace("IL-0001", "IL-01000");
    fs::write(dir.path().join("incidents/IL-01000.md"), text).unwrap();
    let diags = corpus::load(dir.path()).unwrap_err();
    assert!(
        diags
            .iter()
            .any(|d| d.problem == Problem::BadId && d.file.ends_with("IL-01000.md")),
        "{diags:#?}"
    );
}

/// `overlap` reads each record's saved sources and fails on a sentence that only
/// rewords one of them, naming the record, both sentences and the file.
#[test]
fn overlap_flags_a_reworded_source_sentence_and_passes_our_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    common::write_corpus(
        &data,
        &[common::Rec {
            id: "IL-0001",
            title: "설정 변경으로 DNS 가 멈췄다",
            org: "example-cloud",
            date: "2024-01-01",
            causes: &["config-change"],
            components: &["dns"],
            symptoms: &["service-outage"],
            body: "오전 11시 20분쯤 전국의 유무선 인터넷이 약 40분 동안 끊겼다.",
        }],
    );
    let sources = dir.path().join("sources");
    let run = |source: &str| {
        fs::create_dir_all(sources.join("IL-0001")).unwrap();
        fs::write(sources.join("IL-0001/1.txt"), source).unwrap();
        Command::new(env!("CARGO_BIN_EXE_incident-library"))
            .args(["overlap", "--data"])
            .arg(&data)
            .arg("--sources")
            .arg(&sources)
            .output()
            .unwrap()
    };
    let copied =
        run("URL: https://news.example.com/1\n오전 11시 20분쯤 전국 유무선 인터넷이 약 40분간 끊겼다.\u{1b}[31m\n");
    let stdout = String::from_utf8_lossy(&copied.stdout);
    assert_eq!(copied.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("IL-0001: max 0."), "{stdout}");
    assert!(stdout.contains("1 at 0.6 or more"), "{stdout}");
    assert!(stdout.contains("1.txt"), "{stdout}");
    assert!(
        !stdout.contains('\u{1b}'),
        "a control character reached the terminal: {stdout}"
    );

    let own = run(
        "URL: https://news.example.com/1\n통신사는 점심 무렵 망 경로 설정을 잘못 넣어 가입자 접속이 끊겼다고 밝혔다.\n",
    );
    let stdout = String::from_utf8_lossy(&own.stdout);
    assert!(own.status.success(), "{stdout}");
    assert!(stdout.contains("1 record(s) compared, 0 with a sentence"), "{stdout}");

    // A record named on the command line without saved sources is an error.
    fs::remove_dir_all(&sources).unwrap();
    fs::create_dir_all(&sources).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .args(["overlap", "--data"])
        .arg(&data)
        .arg("--sources")
        .arg(&sources)
        .arg("IL-0001")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("IL-0001: no saved sources"));
}

/// With a glossary's reading table, a particle that does not fit the name's reading
/// is reported on its line with the one to write; a sentence about the source too.
#[test]
fn particles_follow_the_glossary_reading_and_records_do_not_talk_about_their_source() {
    let dir = tempfile::tempdir().unwrap();
    common::write_corpus(dir.path(), &[]);
    fs::write(
        dir.path().join("GLOSSARY.md"),
        "# 용어집\n\n## 이름의 읽기\n\n| 이름 | 읽기 |\n| --- | --- |\n| GitHub | 깃헙 |\n| AWS | 에이더블유에스 |\n",
    )
    .unwrap();
    let text = replace(
        "설정 변경이 엣지 서버를 멈춰 세웠다.",
        "GitHub 가 멈췄고 AWS 는 괜찮았다. 출처는 원인을 밝혔다.",
    );
    fs::write(dir.path().join("incidents/IL-0001.md"), &text).unwrap();
    let diags = corpus::load(dir.path()).err().unwrap_or_default();
    let wording: Vec<&Diagnostic> = diags.iter().filter(|d| d.problem == Problem::Wording).collect();
    assert_eq!(wording.len(), 2, "{diags:#?}");
    let body_line = text.lines().position(|l| l.starts_with("GitHub 가")).unwrap() + 1;
    assert!(wording.iter().all(|d| d.line == body_line), "{wording:#?}");
    assert!(
        wording[0]
            .message
            .contains("\"GitHub 가\": GitHub is read 깃헙, which takes 이"),
        "{}",
        wording[0]
    );
    assert!(wording[0].hint.as_deref().unwrap().contains("write \"GitHub 이\""));
    assert!(wording[1].message.contains("speaks of the source"), "{}", wording[1]);

    // A bad row of the table is reported in the glossary itself.
    fs::write(
        dir.path().join("GLOSSARY.md"),
        "## 이름의 읽기\n\n| 이름 | 읽기 |\n| GitHub | github |\n",
    )
    .unwrap();
    fs::write(dir.path().join("incidents/IL-0001.md"), common::valid_record()).unwrap();
    let diags = corpus::load(dir.path()).err().unwrap_or_default();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert!(
        diags[0].file.ends_with("GLOSSARY.md") && diags[0].line == 4,
        "{}",
        diags[0]
    );
}

/// The same rule after TOML unescaping: a control character written as an escape
/// (`\u001b`, `\e`, `\x07`, `\b`, `\U00000000`) is refused in every string field of a
/// record, and in the taxonomy, the lexicon and moved.toml, with the raw byte's
/// message, on its line; in the Markdown body an escape is only text.
#[test]
fn control_characters_written_as_toml_escapes_are_refused_in_every_file() {
    for (escape, code) in [
        ("\\u001b[31m", "U+001B"),
        ("\\e", "U+001B"),
        ("\\x07", "U+0007"),
        ("\\b", "U+0008"),
        ("\\U00000000", "U+0000"),
    ] {
        let d = expect(
            &replace("title = \"", &format!("title = \"{escape}")),
            Problem::BadValue,
            3,
            Some("title"),
        );
        assert!(d.message.contains(code), "{escape}: {d}");
    }
    // A list item and an optional field, each on its own line.
    let text = replace(
        "sources = [",
        "checks = [\"확인한다 \\u0007\"]\nimpact = \"\\u001b]0;title\\u0007\"\nsources = [",
    );
    let diags = check_one(&text);
    let lines: Vec<(usize, Option<&str>)> = diags
        .iter()
        .filter(|d| d.problem == Problem::BadValue && d.message.contains("control character"))
        .map(|d| (d.line, d.field.as_deref()))
        .collect();
    let at = |key: &str| text.lines().position(|l| l.starts_with(key)).unwrap() + 1;
    assert_eq!(
        lines,
        [(at("checks"), Some("checks")), (at("impact"), Some("impact"))],
        "{diags:#?}"
    );
    // In the body, a backslash escape is plain text.
    assert!(check_one(&common::valid_record().replacen("설정 변경이 엣지", "설정 변경이 \\u001b 엣지", 1)).is_empty());
    // The other files of the corpus.
    for (file, from, to) in [
        (
            "taxonomy.toml",
            "description = \"재시도가",
            "description = \"\\u001b재시도가",
        ),
        (
            "taxonomy.toml",
            "synonyms = [\"retry storm\"",
            "synonyms = [\"retry\\u0007storm\"",
        ),
    ] {
        let dir = valid_corpus();
        let path = dir.path().join(file);
        let before = fs::read_to_string(&path).unwrap();
        assert!(before.contains(from), "{file} lacks {from:?}");
        let after = before.replacen(from, to, 1);
        fs::write(&path, &after).unwrap();
        let diags = corpus::load(dir.path()).err().unwrap_or_default();
        let line = after.lines().position(|l| l.contains(to)).unwrap() + 1;
        assert!(
            diags
                .iter()
                .any(|d| d.file.ends_with(file) && d.line == line && d.message.contains("control character")),
            "{file}: {diags:#?}"
        );
    }
    let dir = valid_corpus();
    fs::write(
        dir.path().join("lexicon.toml"),
        "[[entry]]\nkind = \"name\"\nsay = [\"깃헙\\u001b\"]\nmeans = [\"엣지\"]\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("moved.toml"),
        "[[moved]]\nid = \"IL-0002\"\nto = \"IL-0001\"\nreason = \"합쳤다\\u0007\"\n",
    )
    .unwrap();
    let diags = corpus::load(dir.path()).err().unwrap_or_default();
    for (file, line) in [("lexicon.toml", 3), ("moved.toml", 4)] {
        assert!(
            diags
                .iter()
                .any(|d| d.file.ends_with(file) && d.line == line && d.message.contains("control character")),
            "{file}: {diags:#?}"
        );
    }
}

/// `check` reads the user dictionary as `build` does: a line with a quote left
/// open, or too few fields, is reported on its line, and the command fails.
#[test]
fn check_refuses_the_user_dictionary_that_build_refuses() {
    let dir = valid_corpus();
    fs::write(
        dir.path().join("dictionary.csv"),
        "재시도,NNG,재시도\n\"로드밸런서,NNG,로드밸런서\n밸런서,NNG\n",
    )
    .unwrap();
    let diags = corpus::load(dir.path()).err().unwrap_or_default();
    let found: Vec<(usize, &str)> = diags
        .iter()
        .filter(|d| d.file.ends_with("dictionary.csv"))
        .map(|d| (d.line, d.message.as_str()))
        .collect();
    assert_eq!(found.len(), 2, "{diags:#?}");
    assert_eq!(found[0].0, 2);
    assert!(found[0].1.contains("never closed"), "{found:?}");
    assert_eq!(found[1].0, 3);
    assert!(found[1].1.contains("2 field(s)"), "{found:?}");
    let out = Command::new(env!("CARGO_BIN_EXE_incident-library"))
        .args(["check", "--data"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("dictionary.csv:2:"));
}

/// Durations are bounded (50 years), a section of markup alone is named for what it
/// is, and a record file over the size limit is refused before it is read.
#[test]
fn durations_markup_only_sections_and_oversized_records() {
    for bad in ["99999999999999999999999d", "18300d", "438001h"] {
        let d = expect(
            &replace("sources = [", &format!("time_to_detect = \"{bad}\"\nsources = [")),
            Problem::BadDuration,
            9,
            Some("time_to_detect"),
        );
        assert!(d.message.contains("at most 50 years"), "{bad}: {d}");
    }
    assert!(check_one(&replace("sources = [", "time_to_recover = \"127h 33m\"\nsources = [")).is_empty());
    let d = expect(
        &replace("설정 변경이 엣지 서버를 멈춰 세웠다.", "<script>alert(1)</script>"),
        Problem::EmptySection,
        12,
        Some("요약"),
    );
    assert!(d.message.contains("only markup"), "{d}");
    let big = replace(
        "설정 변경이 엣지 서버를 멈춰 세웠다.",
        &"설정 변경이 엣지 서버를 멈춰 세웠다. ".repeat(6000),
    );
    assert!(big.len() as u64 > corpus::MAX_RECORD_BYTES);
    let d = expect(&big, Problem::BadValue, 1, None);
    assert!(d.message.contains("a record is at most 256 KB"), "{d}");
}

#[test]
fn updated_is_a_day_on_or_after_the_record_and_history_needs_it() {
    let with =
        |extra: &str| common::valid_record().replace("date = \"2025-10-29\"", &format!("date = \"2025-10-29\"{extra}"));
    assert!(check_one(&with(
        "\nupdated = \"2026-12-06\"\nhistory = [\"2026-12 후속 보고서 반영\"]"
    ))
    .is_empty());
    assert!(check_one(&with("\nupdated = \"2025-10-29\"")).is_empty());
    expect(
        &with("\nupdated = \"2025-10-28\""),
        Problem::BadDate,
        6,
        Some("updated"),
    );
    expect(&with("\nupdated = \"2026-12\""), Problem::BadDate, 6, Some("updated"));
    expect(&with("\nhistory = [\"고침\"]"), Problem::BadDate, 6, Some("history"));
}

#[test]
fn published_is_a_day_between_the_record_and_updated() {
    let with =
        |extra: &str| common::valid_record().replace("date = \"2025-10-29\"", &format!("date = \"2025-10-29\"{extra}"));
    assert!(check_one(&with("\npublished = \"2026-11-30\"\nupdated = \"2026-12-06\"")).is_empty());
    assert!(check_one(&with("\npublished = \"2026-11-30\"")).is_empty());
    let d = expect(
        &with("\npublished = \"2026-12-07\"\nupdated = \"2026-12-06\""),
        Problem::BadDate,
        6,
        Some("published"),
    );
    assert!(d.message.contains("after updated 2026-12-06"), "{d}");
    expect(
        &with("\npublished = \"2026-11-31\""),
        Problem::BadDate,
        6,
        Some("published"),
    );
    let d = expect(
        &with("\npublished = \"2025-10-28\""),
        Problem::BadDate,
        6,
        Some("published"),
    );
    assert!(d.message.contains("before the record's date 2025-10-29"), "{d}");
}
