//! The taxonomy, `data/taxonomy.toml`: the values of every facet, read and checked.

use std::collections::HashSet;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use incident_core::index::FACETS;

use super::diagnostic::{diag, line_of, Diagnostic, Problem};
use super::syntax::is_kebab;
use super::tomlfile::{read_toml, Presence};

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
    /// Slugs it had before a merge or rename. They keep working in URLs, filters
    /// and the API (their pages and files point here); records use the slug.
    #[serde(default)]
    pub aliases: Vec<String>,
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

    /// The value that `alias` (an old slug) of facet `key` now is.
    pub fn alias(&self, key: &str, alias: &str) -> Option<&Value> {
        self.values(key).iter().find(|v| v.aliases.iter().any(|a| a == alias))
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
    let taxonomy = Taxonomy { facets };
    check_names_unique(path, &text, &taxonomy, diags);
    taxonomy
}

/// Reports a label or synonym that two values share, in any facets: a typed word
/// must lead to one value, or a query for "S3" would suggest the organisation and
/// the component alike. Compared case-insensitively, spaces ignored.
fn check_names_unique(path: &Path, text: &str, taxonomy: &Taxonomy, diags: &mut Vec<Diagnostic>) {
    let mut seen: std::collections::HashMap<String, (String, String)> = std::collections::HashMap::new();
    for (facet, values) in FACETS.iter().zip(&taxonomy.facets) {
        for v in values {
            let mut own = HashSet::new();
            for name in [&v.ko, &v.en].into_iter().chain(&v.synonyms) {
                let key: String = name
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .flat_map(char::to_lowercase)
                    .collect();
                if key.is_empty() || !own.insert(key.clone()) {
                    continue;
                }
                // `own` skips a name the value repeats, so a name seen before
                // belongs to another value.
                match seen.get(&key) {
                    Some((f, s)) => {
                        let line = text
                            .find(&format!("slug = \"{}\"", v.slug))
                            .map_or(1, |o| line_of(text, o, 1));
                        diags.push(diag(
                            path,
                            line,
                            Some("synonyms"),
                            Problem::Taxonomy,
                            format!(
                                "{} {:?}: the name {name:?} also belongs to {f} {s:?}",
                                facet.key, v.slug
                            ),
                            Some("every label and synonym names one value; keep it where it fits best"),
                        ));
                    }
                    _ => {
                        seen.insert(key, (facet.key.to_string(), v.slug.clone()));
                    }
                }
            }
        }
    }
}

/// The text of `taxonomy.toml` and its values as written, or `None` after
/// reporting why there are none.
fn read_taxonomy(path: &Path, diags: &mut Vec<Diagnostic>) -> Option<(String, RawTaxonomy)> {
    read_toml(
        path,
        Presence::Required("the taxonomy lives in data/taxonomy.toml"),
        "each value is a [[cause]], [[component]], [[symptom]], [[factor]] or [[org]] table with slug, ko, en, synonyms and description",
        diags,
    )
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
        out.push((line, v));
    }
    // An alias may not be any value's slug or another value's alias: an old URL
    // leads to exactly one value.
    for (line, v) in &out {
        for alias in &v.aliases {
            if !is_kebab(alias) || out.iter().any(|(_, o)| o.slug == *alias) || !seen.insert(alias.clone()) {
                diags.push(diag(
                    path,
                    *line,
                    Some("aliases"),
                    Problem::Taxonomy,
                    format!(
                        "{key} {:?}: alias {alias:?} is not kebab-case, is a slug, or is used twice",
                        v.slug
                    ),
                    Some("aliases are old slugs that no value has any more, each listed once"),
                ));
            }
        }
    }
    out.into_iter().map(|(_, v)| v).collect()
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
