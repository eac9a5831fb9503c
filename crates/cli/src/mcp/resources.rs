//! The library as MCP resources, to attach as context: every incident
//! (`incident://IL-0001`), every topic (`topic://cause/config-change`) and the
//! taxonomy (`taxonomy://vocab`), each a Markdown text. Incidents are the same text
//! as the site's `incidents/<id>/index.md` ([`incident_build::markdown`]). Under a
//! site URL an incident or topic page's https address reads as its resource too.
//! Links inside the texts point to the site when its URL is known, else to the
//! resources themselves.

use rmcp::model::{
    Annotations, ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource, ResourceContents,
    ResourceTemplate,
};
use serde_json::Value;

use incident_build::markdown::{self, Links};
use incident_core::index::FACETS;

use super::Library;

/// Resources a `resources/list` page holds at most.
pub const PAGE: usize = 100;
/// The taxonomy's resource.
pub const TAXONOMY: &str = "taxonomy://vocab";
/// The media type of every resource.
const MARKDOWN: &str = "text/markdown";

/// What a resource URI names.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    Incident(String),
    Topic(String, String),
    Taxonomy,
}

/// The links of the resources' texts.
struct ResourceLinks<'a>(&'a Library);

impl Links for ResourceLinks<'_> {
    fn url(&self, path: &str) -> String {
        if self.0.site.is_some() {
            return self.0.web(path);
        }
        let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        match parts.as_slice() {
            ["incidents", id] => format!("incident://{id}"),
            ["topics", facet, slug] => format!("topic://{facet}/{slug}"),
            _ => path.to_string(),
        }
    }

    fn label(&self, facet: &str, slug: &str) -> String {
        self.0.label(facet, slug)
    }
}

impl Library {
    /// The Korean label of a taxonomy value, or its slug.
    pub(super) fn label(&self, facet: &str, slug: &str) -> String {
        self.index
            .facet_position(facet)
            .and_then(|f| self.index.meta.facets[f].values.iter().find(|v| v.slug == slug))
            .map_or_else(|| slug.to_string(), |v| v.ko.clone())
    }

    fn annotated(&self, resource: Resource) -> Resource {
        let mut annotations = Annotations::default();
        annotations.last_modified = (!self.generated_at.is_empty()).then(|| self.generated_at.clone());
        resource.with_mime_type(MARKDOWN).with_annotations(annotations)
    }

    /// How many resources there are: every incident, every topic, the taxonomy.
    fn resource_count(&self) -> usize {
        let topics: usize = self.index.meta.facets.iter().map(|f| f.values.len()).sum();
        self.index.len() + topics + 1
    }

    /// Resource `i` in the order of `resources/list`: incidents by id, topics by
    /// facet, the taxonomy last. Made on demand, so a page costs only its own.
    fn resource_at(&self, i: usize) -> Resource {
        let resource = if i < self.index.len() {
            let l = self.index.listing(i);
            Resource::new(format!("incident://{}", l.id), l.id.clone())
                .with_title(l.title.clone())
                .with_description(format!(
                    "{} · {}. {}",
                    self.label("org", &l.org),
                    l.date_label,
                    l.summary
                ))
        } else {
            let mut t = i - self.index.len();
            let topic = self
                .index
                .meta
                .facets
                .iter()
                .find_map(|facet| match facet.values.get(t) {
                    Some(v) => Some((facet, v)),
                    None => {
                        t -= facet.values.len();
                        None
                    }
                });
            match topic {
                Some((facet, v)) => {
                    let name = FACETS.iter().find(|f| f.key == facet.key).map_or("", |f| f.ko);
                    Resource::new(
                        format!("topic://{}/{}", facet.key, v.slug),
                        format!("{}/{}", facet.key, v.slug),
                    )
                    .with_title(format!("{} ({name})", v.ko))
                    .with_description(format!("{} 주제: {}, 그 사례 목록", name, v.en))
                }
                None => Resource::new(TAXONOMY, "taxonomy")
                    .with_title("분류 체계 (taxonomy)")
                    .with_description(
                        "every facet and value: slug, Korean and English labels, synonyms, incident count",
                    ),
            }
        };
        self.annotated(resource)
    }

    /// A page of the resources: from the cursor's position, [`PAGE`] of them.
    pub(super) fn resource_page(&self, cursor: Option<&str>) -> Result<ListResourcesResult, String> {
        let total = self.resource_count();
        let start = match cursor {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .ok()
                .filter(|&s| s > 0 && s < total)
                .ok_or("cursor is not one this server gave; list again without a cursor")?,
        };
        let end = (start + PAGE).min(total);
        let mut page = ListResourcesResult::with_all_items((start..end).map(|i| self.resource_at(i)).collect());
        page.next_cursor = (end < total).then(|| end.to_string());
        Ok(page)
    }

    /// The resource templates: an incident by id, a topic by facet and slug.
    pub(super) fn resource_templates() -> ListResourceTemplatesResult {
        ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("incident://{id}", "incident")
                .with_title("사례 (incident)")
                .with_description("One incident as Markdown: classification, sections in reading order, read-only checks, related incidents, sources. Ids look like IL-0001.")
                .with_mime_type(MARKDOWN),
            ResourceTemplate::new("topic://{facet}/{slug}", "topic")
                .with_title("주제 (topic)")
                .with_description("A taxonomy value as Markdown: description, synonyms, its incidents. facet is cause, component, symptom, factor or org.")
                .with_mime_type(MARKDOWN),
        ])
    }

    /// What `uri` names: `incident://IL-0001`, `topic://cause/dns`,
    /// `taxonomy://vocab`, or under the site's URL an incident or topic page
    /// (`…/incidents/IL-0001/`, its `index.md`, `…/topics/cause/dns/`).
    fn target(&self, uri: &str) -> Option<Target> {
        if uri == TAXONOMY {
            return Some(Target::Taxonomy);
        }
        let path = if let Some(id) = uri.strip_prefix("incident://") {
            format!("incidents/{id}")
        } else if let Some(rest) = uri.strip_prefix("topic://") {
            format!("topics/{rest}")
        } else {
            let site = self.site.as_deref()?;
            uri.strip_prefix(site)?
                .split(['?', '#'])
                .next()?
                .trim_end_matches("index.md")
                .to_string()
        };
        let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        match parts.as_slice() {
            ["incidents", id] => Some(Target::Incident(id.to_uppercase())),
            ["topics", facet, slug] => Some(Target::Topic(facet.to_string(), slug.to_string())),
            _ => None,
        }
    }

    /// The Markdown of resource `uri`, or why there is none.
    pub(super) fn read(&self, uri: &str) -> Result<ReadResourceResult, String> {
        let text = match self.target(uri) {
            Some(Target::Incident(id)) => self.incident_markdown(&id)?,
            Some(Target::Topic(facet, slug)) => self.topic_markdown(&facet, &slug)?,
            Some(Target::Taxonomy) => self.taxonomy_markdown()?,
            None => {
                return Err(format!(
                    "{}: not a resource of this library; resources are incident://IL-0001, topic://<facet>/<slug> and {TAXONOMY}",
                    super::shown(uri)
                ))
            }
        };
        let mut contents = ResourceContents::text(text, uri);
        if let ResourceContents::TextResourceContents { mime_type, .. } = &mut contents {
            *mime_type = Some(MARKDOWN.into());
        }
        Ok(ReadResourceResult::new(vec![contents]))
    }

    /// The Markdown of incident `id` (a merged id: of the incident it became).
    pub(super) fn incident_markdown(&self, id: &str) -> Result<String, String> {
        if !incident_build::corpus::is_incident_id(id) {
            return Err(format!(
                "{}: not an incident id; ids look like IL-0001",
                super::shown(id)
            ));
        }
        let mut record = self
            .api_data(&format!("incidents/{id}.json"))
            .map_err(|_| format!("no incident {id}; find incidents with search_incidents"))?;
        if let Some(to) = record["moved_to"].as_str().map(str::to_string) {
            record = self.api_data(&format!("incidents/{to}.json"))?;
        }
        Ok(markdown::incident(&record, &ResourceLinks(self)))
    }

    fn topic_markdown(&self, facet: &str, slug: &str) -> Result<String, String> {
        let known = self
            .index
            .facet_position(facet)
            .is_some_and(|f| self.index.meta.facets[f].values.iter().any(|v| v.slug == slug));
        if !known {
            return Err(format!(
                "no topic {}/{}; the vocab tool and {TAXONOMY} list every facet value",
                super::shown(facet),
                super::shown(slug)
            ));
        }
        let topic = self.api_data(&format!("topics/{facet}/{slug}.json"))?;
        let title = |id: &str| {
            let doc = self.index.meta.ids.iter().position(|i| i == id)?;
            Some(self.index.title(doc).to_string())
        };
        Ok(markdown::topic(&topic, &ResourceLinks(self), &title))
    }

    fn taxonomy_markdown(&self) -> Result<String, String> {
        let vocab = self.api_data("vocab.json")?;
        let mut out = String::from("# 분류 체계 (taxonomy)\n\nEach value: `slug` — 한국어 (English), incidents; synonyms after 같은 말. Filter with the slug.\n");
        for facet in vocab["facets"].as_array().into_iter().flatten() {
            let s = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_string();
            out.push_str(&format!(
                "\n## {} ({}): `{}`\n\n",
                s(facet, "ko"),
                s(facet, "en"),
                s(facet, "key")
            ));
            for v in facet["values"].as_array().into_iter().flatten() {
                let synonyms: Vec<&str> = v["synonyms"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                out.push_str(&format!(
                    "- `{}` — {} ({}), {}건",
                    s(v, "slug"),
                    s(v, "ko"),
                    s(v, "en"),
                    v["count"]
                ));
                if !synonyms.is_empty() {
                    out.push_str(&format!("; 같은 말: {}", synonyms.join(", ")));
                }
                out.push('\n');
            }
        }
        Ok(out)
    }
}
