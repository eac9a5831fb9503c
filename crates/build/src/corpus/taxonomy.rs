//! The taxonomy, `data/taxonomy.toml`: the values of every facet, read and checked.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use incident_core::index::FACETS;

use super::diagnostic::{diag, line_of, Diagnostic, Problem};
use super::syntax::is_kebab;

/// A taxonomy value.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Value {
    /// ascii kebab-case, unique in its facet.
    pub slug: String,
    /// Korean label.
    pub ko: String,
    /// English label.
    pub en: String,
    /// Words people type for it.
    #[serde(default)]
    pub synonyms: Vec<String>,
    /// Korean paragraph: its topic page.
    pub description: String,
}

/// The taxonomy: values per facet, in [`FACETS`] order (organisation last).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Taxonomy {
    /// `facets[f]` holds the values of facet `FACETS[f]`.
    pub facets: Vec<Vec<Value>>,
}

impl Taxonomy {
    /// The values of the facet with key `key`.
    pub fn values(&self, key: &str) -> &[Value] {
        FACETS
            .iter()
            .position(|f| f.key == key)
            .and_then(|i| self.facets.get(i))
            .map_or(&[], |v| v.as_slice())
    }

    /// The value `slug` of facet `key`.
    pub fn get(&self, key: &str, slug: &str) -> Option<&Value> {
        self.values(key).iter().find(|v| v.slug == slug)
    }

    /// The taxonomy of a file that could not be read: every facet, no values.
    fn unread() -> Taxonomy {
        Taxonomy {
            facets: vec![Vec::new(); FACETS.len()],
        }
    }
}

/// `taxonomy.toml` as written, with where each value starts.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTaxonomy {
    #[serde(default)]
    cause: Vec<Spanned<Value>>,
    #[serde(default)]
    component: Vec<Spanned<Value>>,
    #[serde(default)]
    symptom: Vec<Spanned<Value>>,
    #[serde(default)]
    factor: Vec<Spanned<Value>>,
    #[serde(default)]
    org: Vec<Spanned<Value>>,
}

/// Reads and checks `taxonomy.toml`. A file that cannot be read or parsed gives
/// an empty taxonomy and one diagnostic.
pub(super) fn load_taxonomy(path: &Path, diags: &mut Vec<Diagnostic>) -> Taxonomy {
    let Some((text, raw)) = read_taxonomy(path, diags) else {
        return Taxonomy::unread();
    };
    // The file's tables are named by the facet keys, in the order of [`FACETS`].
    let tables = [raw.cause, raw.component, raw.symptom, raw.factor, raw.org];
    let facets = FACETS
        .iter()
        .zip(tables)
        .map(|(facet, values)| check_facet(path, &text, facet.key, values, diags))
        .collect();
    Taxonomy { facets }
}

/// The text of `taxonomy.toml` and its values as written, or `None` after
/// reporting why there are none.
fn read_taxonomy(path: &Path, diags: &mut Vec<Diagnostic>) -> Option<(String, RawTaxonomy)> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            diags.push(diag(
                path,
                1,
                None,
                Problem::Io,
                format!("cannot read: {e}"),
                Some("the taxonomy lives in data/taxonomy.toml"),
            ));
            return None;
        }
    };
    match toml::from_str(&text) {
        Ok(raw) => Some((text, raw)),
        Err(e) => {
            let line = e.span().map_or(1, |s| line_of(&text, s.start, 1));
            diags.push(diag(path, line, None, Problem::MalformedToml, e.message().to_string(), Some("each value is a [[cause]], [[component]], [[symptom]], [[factor]] or [[org]] table with slug, ko, en, synonyms and description")));
            None
        }
    }
}

/// Checks the values of facet `key`, in file order, and returns them.
fn check_facet(
    path: &Path,
    text: &str,
    key: &str,
    values: Vec<Spanned<Value>>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Value> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for spanned in values {
        let line = line_of(text, spanned.span().start, 1);
        let v = spanned.into_inner();
        check_value(path, line, key, &v, &mut seen, diags);
        out.push(v);
    }
    out
}

/// Checks one value of facet `key`: its slug (kebab-case, not in `seen`), its
/// labels and description (not empty) and its synonyms (none empty).
fn check_value(
    path: &Path,
    line: usize,
    key: &str,
    v: &Value,
    seen: &mut HashSet<String>,
    diags: &mut Vec<Diagnostic>,
) {
    if !is_kebab(&v.slug) {
        diags.push(diag(
            path,
            line,
            Some("slug"),
            Problem::Taxonomy,
            format!("{key} slug {:?} is not ascii kebab-case", v.slug),
            Some("use lower-case letters, digits and single hyphens, e.g. retry-amplification"),
        ));
    }
    if !seen.insert(v.slug.clone()) {
        diags.push(diag(
            path,
            line,
            Some("slug"),
            Problem::Taxonomy,
            format!("{key} slug {:?} appears twice", v.slug),
            Some("merge the two entries"),
        ));
    }
    for (field, value) in [("ko", &v.ko), ("en", &v.en), ("description", &v.description)] {
        if value.trim().is_empty() {
            diags.push(diag(
                path,
                line,
                Some(field),
                Problem::Taxonomy,
                format!("{key} {:?} has an empty {field}", v.slug),
                Some("every value needs ko and en labels and a Korean description"),
            ));
        }
    }
    if v.synonyms.iter().any(|s| s.trim().is_empty()) {
        diags.push(diag(
            path,
            line,
            Some("synonyms"),
            Problem::Taxonomy,
            format!("{key} {:?} has an empty synonym", v.slug),
            None,
        ));
    }
}
