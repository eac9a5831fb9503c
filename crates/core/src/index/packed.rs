//! How `meta.bin` stores what grows with the number of incidents, so that the one
//! file every page loads stays small at any size:
//!
//! * [`ids`]: incident ids as the differences between their numbers (`IL-0001`,
//!   `IL-0002`, … is a run of ones), rebuilt into their canonical spelling (four
//!   digits up to 9,999, then the number as it is).
//! * [`facets`]: facet values without their incident sets, then each incident's
//!   values: per incident, per facet, a count and the value positions, as varints.
//!   An incident holds a handful of values, so this is a few bytes an incident
//!   where bitsets would take a bit per value per incident.
//!
//! Both are `serde(with)` modules: in memory [`super::Meta`] keeps plain ids and
//! bitsets.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Facet, FacetValue};
use crate::bitset::Bitset;

/// The number of a canonical id (`IL-0042` → 42), if it is one.
pub fn id_number(id: &str) -> Option<u64> {
    let digits = id.strip_prefix("IL-")?;
    let n: u64 = digits.parse().ok()?;
    (digits.bytes().all(|b| b.is_ascii_digit()) && canonical(n) == id).then_some(n)
}

/// The canonical id of number `n`: `IL-` and its digits, at least four. Spelled
/// without the formatting machinery, which the loader would run for every
/// incident of a large library before its first search.
pub fn canonical(n: u64) -> String {
    let mut digits = Vec::with_capacity(20);
    let mut rest = n;
    loop {
        digits.push(b'0' + (rest % 10) as u8);
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    while digits.len() < 4 {
        digits.push(b'0');
    }
    let mut id = String::with_capacity(3 + digits.len());
    id.push_str("IL-");
    id.extend(digits.iter().rev().map(|&d| char::from(d)));
    id
}

/// Incident ids as number differences.
pub mod ids {
    use super::*;

    /// Writes `ids` as the differences between their numbers. An id that is not
    /// canonical cannot be written: the build only makes canonical ones.
    pub fn serialize<S: Serializer>(ids: &[String], s: S) -> Result<S::Ok, S::Error> {
        let mut prev = 0i64;
        let mut deltas = Vec::with_capacity(ids.len());
        for id in ids {
            let n =
                id_number(id).ok_or_else(|| serde::ser::Error::custom(format!("{id} is not a canonical id")))? as i64;
            deltas.push(n - prev);
            prev = n;
        }
        deltas.serialize(s)
    }

    /// Reads ids written by [`serialize`].
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        let deltas = Vec::<i64>::deserialize(d)?;
        let mut n = 0i64;
        let mut out = Vec::with_capacity(deltas.len());
        for delta in deltas {
            n = n
                .checked_add(delta)
                .filter(|n| (0..=u32::MAX as i64).contains(n))
                .ok_or_else(|| D::Error::custom("an incident number is out of range"))?;
            out.push(canonical(n as u64));
        }
        Ok(out)
    }
}

/// Facets with their incidents listed per incident.
pub mod facets {
    use super::*;

    fn put(out: &mut Vec<u8>, v: u32) {
        crate::vocab::put_varint(out, u64::from(v));
    }

    /// Writes the facets (their values' incident sets as each incident's values).
    pub fn serialize<S: Serializer>(facets: &[Facet], s: S) -> Result<S::Ok, S::Error> {
        // Incidents up to the last that holds a value (every record has an
        // organisation, so all of them); the reader sizes the sets to the meta's count.
        let n = facets
            .iter()
            .flat_map(|f| &f.values)
            .filter_map(|v| v.docs.iter().last())
            .max()
            .map_or(0, |last| last + 1);
        let mut per_incident = Vec::new();
        for d in 0..n {
            for f in facets {
                let held: Vec<usize> = (0..f.values.len()).filter(|&v| f.values[v].docs.contains(d)).collect();
                put(&mut per_incident, held.len() as u32);
                for v in held {
                    put(&mut per_incident, v as u32);
                }
            }
        }
        (facets, n as u32, per_incident).serialize(s)
    }

    /// Reads facets written by [`serialize`], checking every count and position.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Facet>, D::Error> {
        let (mut facets, n, bytes) = <(Vec<Facet>, u32, Vec<u8>)>::deserialize(d)?;
        let n = n as usize;
        if n > bytes.len() {
            return Err(D::Error::custom("facet incident count exceeds the data"));
        }
        for v in facets.iter_mut().flat_map(|f| f.values.iter_mut()) {
            v.docs = Bitset::empty(n);
        }
        let mut at = 0usize;
        let mut next = || -> Result<u32, D::Error> {
            let mut v = 0u32;
            for shift in [0, 7, 14, 21, 28] {
                let b = *bytes
                    .get(at)
                    .ok_or_else(|| D::Error::custom("facet incidents are truncated"))?;
                at += 1;
                v |= u32::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
                if b & 0x80 == 0 {
                    return Ok(v);
                }
            }
            Err(D::Error::custom("a facet varint is too long"))
        };
        for doc in 0..n {
            for f in facets.iter_mut() {
                let count = next()? as usize;
                if count > f.values.len() {
                    return Err(D::Error::custom("an incident holds more values than its facet has"));
                }
                for _ in 0..count {
                    let v = next()? as usize;
                    let value: &mut FacetValue = f
                        .values
                        .get_mut(v)
                        .ok_or_else(|| D::Error::custom("a facet value position is out of range"))?;
                    value.docs.insert(doc);
                }
            }
        }
        if at != bytes.len() {
            return Err(D::Error::custom("facet incidents have trailing bytes"));
        }
        Ok(facets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_canonical_numbers() {
        assert_eq!(id_number("IL-0042"), Some(42));
        assert_eq!(id_number("IL-12345"), Some(12345));
        assert_eq!(id_number("IL-042"), None);
        assert_eq!(id_number("IL-00042"), None);
        assert_eq!(id_number("IL-+042"), None);
        assert_eq!(id_number("XX-0042"), None);
        assert_eq!(canonical(7), "IL-0007");
        assert_eq!(canonical(10000), "IL-10000");
        for n in [0, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 123_456_789, u64::MAX] {
            assert_eq!(canonical(n), format!("IL-{n:04}"));
        }
    }
}
