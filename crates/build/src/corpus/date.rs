//! The date of a record: a calendar day (`date = "2026-05-29"`), or as much of
//! one as the sources give: a month (`"2019-06"`), or a day of a year they do not
//! name (`"--10-04"`, the ISO 8601 form without a year). [`When`] holds it with
//! its optional end (`date_end`) and, when the year is unknown, the day the record
//! sorts by (`date_bound`) and what that day is (`date_bound_note`).

use std::fmt;

/// The first year a record may have: incidents of the 1960s (Apollo) are in scope.
pub const FIRST_YEAR: i32 = 1900;
/// The last year a record may have.
pub const LAST_YEAR: i32 = 2100;

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Year.
    pub year: i32,
    /// Month, 1..=12.
    pub month: u32,
    /// Day, 1..=31.
    pub day: u32,
}

impl Date {
    /// Parses `YYYY-MM-DD`, checking that the day exists.
    pub fn parse(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let year: i32 = s[0..4].parse().ok()?;
        let month: u32 = s[5..7].parse().ok()?;
        let day: u32 = s[8..10].parse().ok()?;
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        ((FIRST_YEAR..=LAST_YEAR).contains(&year) && (1..=days).contains(&day)).then_some(Date { year, month, day })
    }

    /// Days since 1970-01-01, as the index stores a record's date
    /// ([`incident_core::index::Meta::days`]); [`incident_core::index::date_of`] is
    /// the inverse.
    pub fn days_since_epoch(self) -> i32 {
        // Howard Hinnant's days_from_civil.
        let y = if self.month <= 2 { self.year - 1 } else { self.year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = self.month as i32;
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + self.day as i32 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146097 + doe - 719468
    }
}

/// Days in `month` of `year` (`year` `None`: the most it can have, so 29 for February).
fn days_in(year: Option<i32>, month: u32) -> Option<u32> {
    let leap = year.is_none_or(|y| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0);
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => Some(31),
        4 | 6 | 9 | 11 => Some(30),
        2 if leap => Some(29),
        2 => Some(28),
        _ => None,
    }
}

/// A date as a record writes it: as precise as its sources are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Written {
    /// `YYYY-MM-DD`.
    Day(Date),
    /// `YYYY`: the sources give the year alone.
    Year {
        /// Year.
        year: i32,
    },
    /// `YYYY-MM`: the sources give no day.
    Month {
        /// Year.
        year: i32,
        /// Month, 1..=12.
        month: u32,
    },
    /// `--MM-DD`: the sources give no year.
    NoYear {
        /// Month, 1..=12.
        month: u32,
        /// Day, 1..=31.
        day: u32,
    },
}

impl Written {
    /// Parses `YYYY-MM-DD`, `YYYY-MM`, `YYYY` or `--MM-DD`.
    pub fn parse(s: &str) -> Option<Written> {
        let b = s.as_bytes();
        let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
        match b.len() {
            4 if digits(0..4) => {
                let year: i32 = s.parse().ok()?;
                (FIRST_YEAR..=LAST_YEAR)
                    .contains(&year)
                    .then_some(Written::Year { year })
            }
            10 => Date::parse(s).map(Written::Day),
            7 if b[4] == b'-' && digits(0..4) && digits(5..7) => {
                let year: i32 = s[0..4].parse().ok()?;
                let month: u32 = s[5..7].parse().ok()?;
                ((FIRST_YEAR..=LAST_YEAR).contains(&year) && (1..=12).contains(&month))
                    .then_some(Written::Month { year, month })
            }
            7 if s.starts_with("--") && b[4] == b'-' && digits(2..4) && digits(5..7) => {
                let month: u32 = s[2..4].parse().ok()?;
                let day: u32 = s[5..7].parse().ok()?;
                (day >= 1 && day <= days_in(None, month)?).then_some(Written::NoYear { month, day })
            }
            _ => None,
        }
    }

    /// True when the year is known.
    pub fn has_year(self) -> bool {
        !matches!(self, Written::NoYear { .. })
    }

    /// The first day it can be, when the year is known.
    pub fn first_day(self) -> Option<Date> {
        match self {
            Written::Day(d) => Some(d),
            Written::Year { year } => Some(Date { year, month: 1, day: 1 }),
            Written::Month { year, month } => Some(Date { year, month, day: 1 }),
            Written::NoYear { .. } => None,
        }
    }

    /// Month and day, for ordering two dates of the same kind.
    fn key(self) -> (i32, u32, u32) {
        match self {
            Written::Day(d) => (d.year, d.month, d.day),
            Written::Year { year } => (year, 0, 0),
            Written::Month { year, month } => (year, month, 0),
            Written::NoYear { month, day } => (0, month, day),
        }
    }
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Written::Day(d) => d.fmt(f),
            Written::Year { year } => write!(f, "{year:04}"),
            Written::Month { year, month } => write!(f, "{year:04}-{month:02}"),
            Written::NoYear { month, day } => write!(f, "--{month:02}-{day:02}"),
        }
    }
}

/// When an incident happened, as far as its sources say.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct When {
    /// The day (or month) impact began.
    pub start: Written,
    /// The last day, when the incident spans several (`date_end`).
    pub end: Option<Written>,
    /// The day the record sorts by: the start day, the first of the month, or,
    /// when the year is unknown, `date_bound`.
    pub sort: Date,
    /// What `date_bound` is ("보고서 게시일"), when the year is unknown.
    pub bound_note: Option<String>,
}

impl When {
    /// A plain day.
    pub fn day(d: Date) -> When {
        When {
            start: Written::Day(d),
            end: None,
            sort: d,
            bound_note: None,
        }
    }

    /// True when the sources give the full day.
    pub fn is_day(&self) -> bool {
        matches!(self.start, Written::Day(_)) && self.end.is_none()
    }

    /// The date as the record writes it, for machines: `2023-08-30`, `2019-06`,
    /// `--10-04`, with `/` and the end for a span (`--10-04/--10-05`, ISO 8601's
    /// interval form).
    pub fn machine(&self) -> String {
        match self.end {
            Some(end) => format!("{}/{}", self.start, end),
            None => self.start.to_string(),
        }
    }

    /// The date for readers: `2023-08-30` as it always was, `2019년 6월`, `1999년`,
    /// and `10월 4~5일 (연도 미상)` when the year is unknown.
    pub fn label(&self) -> String {
        if let Written::Year { year } = self.start {
            return match self.end {
                Some(Written::Year { year: end }) => format!("{year}~{end}년"),
                _ => format!("{year}년"),
            };
        }
        let md = |w: Written| match w {
            Written::Day(d) => (Some(d.year), d.month, Some(d.day)),
            Written::Year { year } => (Some(year), 1, None),
            Written::Month { year, month } => (Some(year), month, None),
            Written::NoYear { month, day } => (None, month, Some(day)),
        };
        let (year, month, day) = md(self.start);
        let mut out = String::new();
        match (self.start, self.end) {
            (Written::Day(d), None) => return d.to_string(),
            (Written::Day(d), Some(Written::Day(e))) => {
                return if d.year == e.year {
                    format!("{d} ~ {:02}-{:02}", e.month, e.day)
                } else {
                    format!("{d} ~ {e}")
                }
            }
            _ => {}
        }
        if let Some(y) = year {
            out.push_str(&format!("{y}년 "));
        }
        out.push_str(&format!("{month}월"));
        if let Some(d) = day {
            out.push_str(&format!(" {d}일"));
        }
        if let Some(end) = self.end {
            let (ey, em, ed) = md(end);
            match (ed, em == month && ey == year) {
                (Some(ed), true) => {
                    // "4일" becomes "4~5일".
                    out.truncate(out.len() - "일".len());
                    out.push_str(&format!("~{ed}일"));
                }
                _ => {
                    out.push_str(" ~ ");
                    if let Some(y) = ey.filter(|_| ey != year) {
                        out.push_str(&format!("{y}년 "));
                    }
                    out.push_str(&format!("{em}월"));
                    if let Some(ed) = ed {
                        out.push_str(&format!(" {ed}일"));
                    }
                }
            }
        }
        if year.is_none() {
            out.push_str(" (연도 미상)");
        }
        out
    }

    /// Checks that `end` follows `start` and is of the same kind.
    pub fn end_follows_start(start: Written, end: Written) -> bool {
        std::mem::discriminant(&start) == std::mem::discriminant(&end) && end.key() > start.key()
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}
