//! `completion/complete`: what an argument may be, as the user types it. Incident
//! ids (by id, by number, or by words of the title), facets, and taxonomy values
//! (by slug, label or synonym) for the prompts' and the resource templates'
//! arguments.

use rmcp::model::{CompleteRequestParams, CompletionInfo, Reference};

use incident_core::index::squash;

use super::Library;

impl Library {
    /// The values `request`'s argument may take, starting with what is typed.
    pub(super) fn complete(&self, request: &CompleteRequestParams) -> CompletionInfo {
        let typed = request.argument.value.trim();
        let context = |name: &str| {
            request
                .context
                .as_ref()
                .and_then(|c| c.get_argument(name))
                .map(String::as_str)
        };
        let values = match (&request.r#ref, request.argument.name.as_str()) {
            (Reference::Prompt(_), "lang") => ["ko", "en"]
                .iter()
                .filter(|l| l.starts_with(typed))
                .map(|l| l.to_string())
                .collect(),
            (Reference::Prompt(p), "id") if p.name == "check_my_system" => self.ids_like(typed),
            (Reference::Resource(r), "id") if r.uri == "incident://{id}" => self.ids_like(typed),
            (Reference::Resource(r), "facet") if r.uri == "topic://{facet}/{slug}" => self
                .index
                .meta
                .facets
                .iter()
                .map(|f| f.key.clone())
                .filter(|k| k.starts_with(typed))
                .collect(),
            (Reference::Resource(r), "slug") if r.uri == "topic://{facet}/{slug}" => {
                self.slugs_like(context("facet"), typed)
            }
            _ => Vec::new(),
        };
        let total = values.len();
        let shown: Vec<String> = values.into_iter().take(CompletionInfo::MAX_VALUES).collect();
        let more = total > shown.len();
        CompletionInfo::with_pagination(shown, Some(total as u32), more).unwrap_or_default()
    }

    /// Incident ids for what is typed: the start of an id (`IL-01`, `il-01`), the
    /// start of its number (`13` → IL-0013, IL-0130 …), or words of the title.
    fn ids_like(&self, typed: &str) -> Vec<String> {
        let upper = typed.to_uppercase();
        let digits = typed.trim_start_matches('0');
        let words = squash(typed);
        self.index
            .meta
            .ids
            .iter()
            .enumerate()
            .filter(|&(d, id)| {
                let number = id.trim_start_matches("IL-").trim_start_matches('0');
                id.starts_with(&upper)
                    || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && number.starts_with(digits))
                    || (words.chars().count() >= 2 && squash(self.index.title(d)).contains(&words))
            })
            .map(|(_, id)| id.clone())
            .collect()
    }

    /// Taxonomy slugs (of `facet` when given) whose slug starts with what is typed,
    /// or whose label or a synonym holds it.
    fn slugs_like(&self, facet: Option<&str>, typed: &str) -> Vec<String> {
        let lower = typed.to_lowercase();
        let words = squash(typed);
        self.index
            .meta
            .facets
            .iter()
            .filter(|f| facet.is_none_or(|k| f.key == k))
            .flat_map(|f| f.values.iter())
            .filter(|v| {
                v.slug.starts_with(&lower)
                    || (!words.is_empty()
                        && (squash(&v.ko).contains(&words)
                            || squash(&v.en).contains(&words)
                            || v.synonyms.iter().any(|s| squash(s).contains(&words))))
            })
            .map(|v| v.slug.clone())
            .collect()
    }
}
