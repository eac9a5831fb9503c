//! Unit tests of the corpus's value rules: dates, ids, durations, plain text.

use super::syntax::{is_duration, is_incident_id};
use super::*;

#[test]
fn dates() {
    assert_eq!(Date::parse("2026-05-29").unwrap().to_string(), "2026-05-29");
    assert!(Date::parse("2023-02-29").is_none());
    assert!(Date::parse("2024-02-29").is_some());
    assert!(Date::parse("2026-13-01").is_none());
    assert!(Date::parse("2026-5-29").is_none());
    assert_eq!(Date::parse("1970-01-01").unwrap().days_since_epoch(), 0);
    assert_eq!(Date::parse("2000-03-01").unwrap().days_since_epoch(), 11017);
}

#[test]
fn days_since_epoch_is_the_inverse_of_the_index_date() {
    for s in [
        "1900-01-01",
        "1969-07-20",
        "1970-01-01",
        "2000-02-29",
        "2023-08-30",
        "2100-12-31",
    ] {
        let days = Date::parse(s).unwrap().days_since_epoch();
        assert_eq!(incident_core::index::date_of(days), s);
    }
}

#[test]
fn partial_dates_parse_in_their_three_forms_and_nothing_else() {
    assert_eq!(Written::parse("2019-06"), Some(Written::Month { year: 2019, month: 6 }));
    assert_eq!(Written::parse("--10-04"), Some(Written::NoYear { month: 10, day: 4 }));
    assert_eq!(Written::parse("--02-29"), Some(Written::NoYear { month: 2, day: 29 }));
    assert_eq!(Written::parse("1999"), Some(Written::Year { year: 1999 }));
    for bad in [
        "2019-13", "2019-00", "--02-30", "--13-01", "--1-04", "2019-6", "--10-4", "1899-12", "10-04", "----", "",
    ] {
        assert_eq!(Written::parse(bad), None, "{bad}");
    }
    for s in ["2023-08-30", "2019-06", "1999", "--10-04"] {
        assert_eq!(Written::parse(s).unwrap().to_string(), s);
    }
}

#[test]
fn partial_dates_read_as_korean_readers_write_them() {
    let w = |s: &str| Written::parse(s).unwrap();
    let when = |start: &str, end: Option<&str>| When {
        start: w(start),
        end: end.map(w),
        sort: Date::parse("2020-10-01").unwrap(),
        bound_note: None,
    };
    assert_eq!(when("2023-08-30", None).label(), "2023-08-30");
    assert_eq!(when("2023-08-30", Some("2023-08-31")).label(), "2023-08-30 ~ 08-31");
    assert_eq!(when("2019-06", None).label(), "2019년 6월");
    assert_eq!(when("1999", None).label(), "1999년");
    assert_eq!(when("--10-04", None).label(), "10월 4일 (연도 미상)");
    assert_eq!(when("--10-04", Some("--10-05")).label(), "10월 4~5일 (연도 미상)");
    assert_eq!(
        when("--09-30", Some("--10-01")).label(),
        "9월 30일 ~ 10월 1일 (연도 미상)"
    );
    assert_eq!(when("--10-04", Some("--10-05")).machine(), "--10-04/--10-05");
    assert!(!when("2019-06", None).is_day() && when("2023-08-30", None).is_day());
    // An end must follow its start, in the same form.
    assert!(When::end_follows_start(w("--10-04"), w("--10-05")));
    assert!(!When::end_follows_start(w("--10-05"), w("--10-04")));
    assert!(!When::end_follows_start(w("2023-10-04"), w("--10-05")));
}

#[test]
fn filler_sentences_are_recognised_and_facts_are_not() {
    use super::sections::is_filler;
    for s in [
        "출처는 감지 경위를 밝히지 않았다.",
        "보고서는 후속 조치를 언급하지 않았다.",
        "출처에 기록 없음.",
    ] {
        assert!(is_filler(s), "{s}");
    }
    for s in [
        "09:12 UTC 에 알림이 울렸다.",
        "Microsoft 는 고객 수를 밝히지 않았다.",
        "보고서는 원인을 설정 변경으로 봤다.",
    ] {
        assert!(!is_filler(s), "{s}");
    }
}

#[test]
fn ids() {
    for good in ["IL-0001", "IL-9999", "IL-10000", "IL-123456789"] {
        assert!(is_incident_id(good), "{good}");
    }
    for bad in [
        "IL-001",
        "IL-00001",
        "IL-01000",
        "il-0001",
        "IL-000a",
        "XX-0001",
        "IL-1234567890",
        "IL-",
        "",
    ] {
        assert!(!is_incident_id(bad), "{bad}");
    }
    // Past IL-9999 the order is the number's, not the string's.
    let mut ids = vec!["IL-10000", "IL-9999", "IL-0002"];
    ids.sort_by_key(|i| super::syntax::id_number(i));
    assert_eq!(ids, ["IL-0002", "IL-9999", "IL-10000"]);
}

#[test]
fn durations() {
    for ok in ["19m", "7h 45m", "2d 3h", "1d"] {
        assert!(is_duration(ok), "{ok}");
    }
    for bad in ["", "19", "45m 7h", "7h  45m", "1.5h", "19min"] {
        assert!(!is_duration(bad), "{bad}");
    }
}

#[test]
fn plain_text_strips_markup() {
    assert_eq!(plain_text("- **굵게** 썼다\n- `코드` 도"), "굵게 썼다\n코드 도");
}
