//! The shapes of field values: incident ids, kebab-case slugs and tags,
//! durations and source URLs. The one home of each rule; the MCP server and the
//! API's schemas use the id rule from here too.

/// The id rule as a regular expression, for JSON Schemas: what
/// [`is_incident_id`] accepts.
pub const ID_PATTERN: &str = "^IL-([0-9]{4}|[1-9][0-9]{4,8})$";

/// True for an incident id: `IL-` and four ascii digits (`IL-0001`), or, past
/// IL-9999, the number without leading zeros (`IL-10000`), so that each number
/// has one spelling. At most nine digits, which a `u32` holds.
/// The spelling itself is the index's ([`incident_core::index::packed::id_number`],
/// which `meta.bin` stores ids by); this adds the nine-digit bound.
pub fn is_incident_id(id: &str) -> bool {
    incident_core::index::packed::id_number(id).is_some_and(|n| n <= 999_999_999)
}

/// The number of an incident id (`IL-0042` → 42), for ordering ids: `IL-10000`
/// comes after `IL-9999`, which comparing the strings would not give.
pub fn id_number(id: &str) -> u32 {
    id.strip_prefix("IL-").and_then(|d| d.parse().ok()).unwrap_or(u32::MAX)
}

/// True for ascii kebab-case: `[a-z0-9]+(-[a-z0-9]+)*`.
pub(super) fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// True for `Nd`, `Nh`, `Nm` parts separated by spaces, largest unit first (`7h 45m`).
pub(super) fn is_duration(s: &str) -> bool {
    duration_minutes(s).is_some_and(|m| m <= MAX_DURATION_MINUTES)
}

/// The longest duration a record may give: 50 years (an intrusion found years
/// later is the longest kind), in minutes.
pub(super) const MAX_DURATION_MINUTES: u64 = 50 * 365 * 24 * 60;

/// The minutes of a duration such as `7h 45m` (days, hours and minutes, largest
/// first), or `None` when it is not one or does not fit.
pub(super) fn duration_minutes(s: &str) -> Option<u64> {
    let mut last = usize::MAX;
    let mut total: u64 = 0;
    if s.is_empty() {
        return None;
    }
    for p in s.split(' ') {
        let unit = p.chars().last()?;
        let rank = ['m', 'h', 'd'].iter().position(|&u| u == unit)?;
        let num = &p[..p.len() - 1];
        if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) || rank >= last {
            return None;
        }
        last = rank;
        let n: u64 = num.parse().ok()?;
        total = total.checked_add(n.checked_mul([1, 60, 1440][rank])?)?;
    }
    Some(total)
}

/// True for a source URL: absolute http(s) with a dotted host, and, as the API's
/// schemas read it (`format: uri`, RFC 3986), ASCII without spaces or characters
/// that must be escaped.
pub(super) fn is_source_url(url: &str) -> bool {
    let plain = url
        .chars()
        .all(|c| c.is_ascii_graphic() && !matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}'));
    plain
        && url::Url::parse(url)
            .ok()
            .is_some_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| h.contains('.')))
}
