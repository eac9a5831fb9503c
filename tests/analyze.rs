//! Term emission by the lindera analyzer on real sentences.

mod common;

fn terms(text: &str) -> Vec<String> {
    common::analyzer().terms(text).unwrap()
}

fn has(text: &str, expected: &[&str]) {
    let got = terms(text);
    for e in expected {
        assert!(got.iter().any(|t| t == e), "{text:?} should emit {e:?}; got {got:?}");
    }
}

#[test]
fn particles_do_not_change_the_term() {
    for sentence in [
        "실패한 요청 하나가 재시도를 최대 48번 더 불렀다.",
        "상위 계층의 재시도가 트래픽을 키웠다.",
        "재시도는 백오프 없이 곧바로 이어졌다.",
    ] {
        has(sentence, &["재시도"]);
    }
}

#[test]
fn compounds_emit_their_parts() {
    has(
        "재시도증폭이 공유 로드밸런서를 무너뜨렸다.",
        &["재시도증폭", "재시도", "증폭", "로드밸런서"],
    );
    has(
        "데이터센터 냉각기가 멈췄다.",
        &["데이터센터", "데이터", "센터", "냉각기"],
    );
    has("가용영역 하나가 내려갔다.", &["가용영역", "가용", "영역"]);
}

#[test]
fn verb_stems_come_from_the_expression_field() {
    // 비웠다 = 비우/VV + 었/EP + 다/EF: the stem, not the fused surface.
    has("배포가 서비스의 캐시를 비웠다.", &["캐시", "배포", "비우"]);
    has(
        "캐시를 비우는 배포가 트래픽 정점에 나갔다.",
        &["비우", "캐시", "배포", "정점"],
    );
    has(
        "인스턴스가 계속 재시작되는 루프에 빠졌다.",
        &["인스턴스", "재시작", "루프"],
    );
}

#[test]
fn latin_and_digits_are_split_and_kept_whole() {
    has(
        "us-central1 에서 HTTP 5XX 오류가 늘었다.",
        &["us-central1", "us", "central1", "central", "http", "5xx", "오류"],
    );
    has(
        "여러 파드가 OOMKilled 로 종료됐다.",
        &["oomkilled", "oom", "killed", "파드"],
    );
    has(
        "Azure OpenAI Service 의 추론 요청",
        &["azure", "openai", "open", "ai", "service", "추론", "요청"],
    );
}

#[test]
fn standalone_particles_are_not_terms() {
    let got = terms("us-east-1 에서 DNS 를 바꿨다");
    assert!(!got.iter().any(|t| t == "에서" || t == "를"), "{got:?}");
    has("us-east-1 에서 DNS 를 바꿨다", &["us-east-1", "dns", "바꾸"]);
}

#[test]
fn normalisation_folds_width_and_case() {
    has("ＤＮＳ 레코드가 사라졌다", &["dns", "레코드"]);
}
