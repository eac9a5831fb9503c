//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use incident_build::analyze::Analyzer;

/// The analyzer with the shipped user dictionary, loaded once per test binary.
/// The ko-dic dictionary must have been built (`bash scripts/setup-ko-dic.sh`;
/// `.ci/run` does it first).
pub fn analyzer() -> &'static Analyzer {
    static A: OnceLock<Analyzer> = OnceLock::new();
    A.get_or_init(|| incident_build::bundle::analyzer_for(&repo().join("data")).unwrap_or_else(|e| panic!("{e}")))
}

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A minimal valid taxonomy for fixtures.
pub const TAXONOMY: &str = r#"
[[cause]]
slug = "retry-amplification"
ko = "재시도 증폭"
en = "Retry amplification"
synonyms = ["retry storm", "재시도 폭주"]
description = "재시도가 재시도를 불러 트래픽이 불어난 경우다."

[[cause]]
slug = "config-change"
ko = "설정 변경"
en = "Configuration change"
synonyms = ["config push"]
description = "설정을 바꾼 것이 장애를 일으킨 경우다."

[[component]]
slug = "cdn-edge"
ko = "CDN 과 엣지 네트워크"
en = "CDN and edge network"
synonyms = ["CDN", "엣지"]
description = "콘텐츠 전송 네트워크와 엣지 서버다."

[[component]]
slug = "dns"
ko = "DNS 서버와 레코드"
en = "DNS servers and records"
synonyms = ["DNS"]
description = "이름 해석을 맡는 서버와 레코드다."

[[symptom]]
slug = "service-outage"
ko = "서비스 중단"
en = "Service outage"
synonyms = ["outage", "장애"]
description = "서비스를 쓸 수 없게 된 경우다."

[[symptom]]
slug = "oom-killed"
ko = "OOMKilled"
en = "OOMKilled"
synonyms = ["OOM", "메모리 부족"]
description = "메모리가 모자라 프로세스가 강제로 종료된 경우다."

[[factor]]
slug = "test-gap"
ko = "자동 테스트 공백"
en = "Automated test gap"
synonyms = ["테스트 누락"]
description = "자동 테스트가 잡지 못한 경우다."

[[org]]
slug = "example-cloud"
ko = "Example Cloud"
en = "Example Cloud"
synonyms = []
description = "시험용 조직이다."

[[org]]
slug = "other-cloud"
ko = "Other Cloud"
en = "Other Cloud"
synonyms = []
description = "또 다른 시험용 조직이다."
"#;

/// A fixture record.
pub struct Rec<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub org: &'a str,
    pub date: &'a str,
    pub causes: &'a [&'a str],
    pub components: &'a [&'a str],
    pub symptoms: &'a [&'a str],
    pub body: &'a str,
}

impl Rec<'_> {
    /// The record file's text.
    pub fn render(&self) -> String {
        let list = |items: &[&str]| items.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ");
        let mut s = format!(
            "+++\nid = {:?}\ntitle = {:?}\norg = {:?}\ndate = {:?}\ncauses = [{}]\ncomponents = [{}]\nsymptoms = [{}]\nsources = [\"https://status.example.com/incidents/{}\"]\n+++\n\n",
            self.id,
            self.title,
            self.org,
            self.date,
            list(self.causes),
            list(self.components),
            list(self.symptoms),
            self.id
        );
        // Only the required sections: a record leaves out what its source does
        // not say.
        s.push_str(&format!(
            "## 요약\n\n{}\n\n## 교훈\n\n변경 전에 영향 범위를 확인한다.\n\n",
            self.body
        ));
        s
    }
}

/// Writes a corpus folder with the fixture taxonomy and the given records.
pub fn write_corpus(dir: &Path, records: &[Rec]) {
    fs::create_dir_all(dir.join("incidents")).unwrap();
    fs::write(dir.join("taxonomy.toml"), TAXONOMY).unwrap();
    for r in records {
        fs::write(dir.join("incidents").join(format!("{}.md", r.id)), r.render()).unwrap();
    }
}

/// A valid record to mutate in tests.
pub fn valid_record() -> String {
    Rec {
        id: "IL-0001",
        title: "설정 변경 뒤 CDN 엣지 서버가 멈췄다",
        org: "example-cloud",
        date: "2025-10-29",
        causes: &["config-change"],
        components: &["cdn-edge"],
        symptoms: &["service-outage"],
        body: "설정 변경이 엣지 서버를 멈춰 세웠다.",
    }
    .render()
}

/// The shipped corpus built into `<tempdir>/dist` (no wasm package).
pub fn shipped_bundle() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    incident_build::bundle::build(
        &repo().join("data"),
        &dir.path().join("dist"),
        analyzer(),
        &Default::default(),
        |_, _| {},
    )
    .unwrap();
    dir
}

/// A corpus of one valid record (over the fixture taxonomy) in `data`.
pub fn one_record_corpus(data: &Path) {
    write_corpus(
        data,
        &[Rec {
            id: "IL-0001",
            title: "설정 변경으로 DNS 가 멈췄다",
            org: "example-cloud",
            date: "2024-01-01",
            causes: &["config-change"],
            components: &["dns"],
            symptoms: &["service-outage"],
            body: "레코드가 사라졌다.",
        }],
    );
}
