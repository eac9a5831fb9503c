//! Values by facet key, for a hit's facet values and the response's counts.

use serde::Serialize;

/// Values by facet key, in the index's facet order; serialised as an object. (What
/// a `BTreeMap` would do, without its code in the browser module.)
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ByFacet<V>(pub Vec<(String, V)>);

impl<V> ByFacet<V> {
    /// The value of facet `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Facet keys with their values.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<V> std::ops::Index<&str> for ByFacet<V> {
    type Output = V;

    /// Panics when there is no facet `key`, like a map's index.
    fn index(&self, key: &str) -> &V {
        self.get(key).unwrap_or_else(|| panic!("no facet {key}"))
    }
}

impl<V: Serialize> Serialize for ByFacet<V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}
