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
    for s in ["1970-01-01", "2000-02-29", "2023-08-30", "2100-12-31"] {
        let days = Date::parse(s).unwrap().days_since_epoch();
        assert_eq!(incident_core::index::date_of(days), s);
    }
}

#[test]
fn ids() {
    assert!(is_incident_id("IL-0001"));
    for bad in ["IL-001", "IL-00001", "il-0001", "IL-000a", "XX-0001", ""] {
        assert!(!is_incident_id(bad), "{bad}");
    }
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
