use super::bare;

fn b(w: &str) -> String {
    bare(w).unwrap_or_else(|| w.to_string())
}

#[test]
fn particles_on_nouns() {
    for w in [
        "재시도를",
        "재시도가",
        "재시도는",
        "재시도의",
        "재시도로",
        "재시도와",
        "재시도도",
        "재시도만",
    ] {
        assert_eq!(b(w), "재시도", "{w}");
    }
    assert_eq!(b("캐시를"), "캐시");
    assert_eq!(b("리전에서는"), "리전");
    assert_eq!(b("데이터베이스까지"), "데이터베이스");
    assert_eq!(b("냉각기가"), "냉각기");
}

#[test]
fn endings_on_predicates() {
    assert_eq!(b("삭제했다"), "삭제");
    assert_eq!(b("재시작되는"), "재시작");
    assert_eq!(b("재시작됐다"), "재시작");
    assert_eq!(b("비우는"), "비우");
    assert_eq!(b("비웠다"), "비우");
    assert_eq!(b("끊겼다"), "끊기");
    assert_eq!(b("멈췄다"), "멈추");
    assert_eq!(b("바꿨고"), "바꾸");
    assert_eq!(b("넘쳤다"), "넘치");
    assert_eq!(b("늘었다"), "늘");
    assert_eq!(b("중단시켰다"), "중단");
    assert_eq!(b("원인이었다"), "원인");
}

#[test]
fn stems_of_predicate_forms() {
    use super::stems;
    assert_eq!(stems("들어간"), ["들어가"]);
    assert_eq!(stems("멈춤"), ["멈추"]);
    assert_eq!(stems("끊김"), ["끊기"]);
    assert_eq!(stems("떨어져"), ["떨어지"]);
    assert!(stems("장애").is_empty());
    assert!(stems("비워지자").contains(&"비우".to_string()));
}

#[test]
fn short_words_keep_their_last_syllable() {
    for w in ["평가", "증가", "경로", "결과", "속도", "회의"] {
        assert_eq!(bare(w), None, "{w}");
    }
}

#[test]
fn latin_with_particles() {
    assert_eq!(b("dns가"), "dns");
    assert_eq!(b("us-east-1에서"), "us-east-1");
    assert_eq!(b("api를"), "api");
    assert_eq!(bare("oomkilled"), None);
}
