//! `incident-library mcp`: an MCP server over stdio (official Rust SDK, rmcp) with
//! five read-only tools over a built bundle: `search_incidents`, `get_incident`,
//! `list_incidents`, `get_topic` and `vocab`. Searches run the same code as the
//! browser and the CLI; records, topics and the vocabulary come from the bundle's
//! static API files. Bad arguments come back as tool errors (`isError`) that say
//! what to do next; the server logs only to stderr and ends when stdin closes.

use std::path::{Path, PathBuf};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult, ContentBlock,
    GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Map, Value};

use incident_build::error::{Error, Result};
use incident_build::mcp_tools::McpTool;

mod args;
mod complete;
mod error;
mod prompts;
mod resources;
mod schema;
mod shape;
mod stdio;
mod wire;

pub use error::{Outcome, ToolError};

use args::{Filters, GetIncidentArgs, GetTopicArgs, ListArgs, SearchArgs, VocabArgs};
use incident_core::index::{Index, FACETS};
use incident_core::query;
use incident_core::search::{self, Request};

/// Most hits a `search_incidents` call returns: its result then stays under
/// 20,000 tokens (README, "MCP"), the default of 10 under 8,000.
pub const SEARCH_LIMIT: usize = 20;
/// Most incidents a `list_incidents` call returns, within the same budget.
pub const LIST_LIMIT: usize = 40;

/// What search and list take besides their words and limit.
struct Narrowing {
    filters: Option<Filters>,
    sort: Option<incident_core::search::Sort>,
    cursor: Option<String>,
}

/// The server: a loaded bundle.
pub struct Library {
    index: Index,
    api: PathBuf,
    root: PathBuf,
    /// The site's public URL, when given: links are then absolute.
    site: Option<String>,
    /// When the library's data last changed (the API's `generated_at`).
    generated_at: String,
}

impl Library {
    /// Opens the bundle at `bundle` (`dist/`): its index and its `api/v1/` files.
    /// With `site` (the site's public URL), every link it gives is absolute.
    pub fn open(bundle: &Path, site: Option<String>) -> Result<Library> {
        let index = incident_build::open::load_index(bundle)?;
        let api = bundle.join("api/v1");
        if !api.join("vocab.json").is_file() {
            return Err(Error::msg(format!(
                "{}: no API files\n  hint: run `incident-library build` first",
                api.display()
            )));
        }
        let mut library = Library {
            index,
            api,
            root: bundle.to_path_buf(),
            site,
            generated_at: String::new(),
        };
        library.generated_at = library
            .api_file("index.json")
            .ok()
            .and_then(|v| v["generated_at"].as_str().map(str::to_string))
            .unwrap_or_default();
        Ok(library)
    }

    /// The link to `path` (relative to the site's root): absolute under the site's
    /// URL when given, else as it is.
    pub fn web(&self, path: &str) -> String {
        match &self.site {
            Some(site) => format!("{site}{path}"),
            None => path.to_string(),
        }
    }

    /// Calls a tool by name with JSON arguments.
    pub fn call(&self, name: &str, args: &Map<String, Value>) -> Outcome {
        match McpTool::parse(name) {
            Some(tool) => self.run_tool(tool, args),
            None => Err(format!("unknown tool {:?}; the tools are {}", shown(name), McpTool::names()).into()),
        }
    }

    /// Runs `tool` with JSON arguments.
    fn run_tool(&self, tool: McpTool, args: &Map<String, Value>) -> Outcome {
        match tool {
            McpTool::SearchIncidents => self.search_incidents(args),
            McpTool::ListIncidents => self.list_incidents(args),
            McpTool::GetIncident => self.get_incident(args),
            McpTool::GetTopic => self.get_topic(args),
            McpTool::Vocab => self.vocab(args),
        }
    }

    fn vocab(&self, args: &Map<String, Value>) -> Outcome {
        let VocabArgs { facet, cursor } = args::read(args)?;
        let start = match cursor {
            None => 0,
            Some(c) => shape::vocab_cursor(&c, facet.as_deref())?,
        };
        let page = shape::vocab_page(&self.api_data("vocab.json")?, facet.as_deref(), start)?;
        Ok(json!(page))
    }

    /// A whole file of the API (`api/v1/<relative>`), envelope and all.
    fn api_file(&self, relative: &str) -> Outcome {
        let path = self.api.join(relative);
        let damaged = |e: &dyn std::fmt::Display| ToolError::Bundle(format!("{}: {e}", path.display()));
        let text = std::fs::read_to_string(&path).map_err(|e| damaged(&e))?;
        serde_json::from_str(&text).map_err(|e| damaged(&e))
    }

    fn api_data(&self, relative: &str) -> Outcome {
        let path = self.api.join(relative);
        let mut v = self.api_file(relative)?;
        // A file without its object of data is damaged, not empty.
        match v.get_mut("data").map(Value::take) {
            Some(data @ (Value::Object(_) | Value::Array(_))) => Ok(data),
            _ => Err(ToolError::Bundle(format!(
                "{}: the file holds no data object; the bundle is damaged, build it again",
                path.display()
            ))),
        }
    }

    fn search_incidents(&self, args: &Map<String, Value>) -> Outcome {
        let SearchArgs {
            query,
            filters,
            sort,
            limit,
            cursor,
        } = args::read(args)?;
        if query.trim().is_empty() {
            return Err(
                "query is empty; give words to search for, or call list_incidents to list incidents by filters alone"
                    .into(),
            );
        }
        let narrowing = Narrowing { filters, sort, cursor };
        self.run(narrowing, query, limit, SEARCH_LIMIT, McpTool::SearchIncidents)
    }

    fn list_incidents(&self, args: &Map<String, Value>) -> Outcome {
        let ListArgs {
            filters,
            sort,
            limit,
            cursor,
        } = args::read(args)?;
        let narrowing = Narrowing { filters, sort, cursor };
        self.run(narrowing, String::new(), limit, LIST_LIMIT, McpTool::ListIncidents)
    }

    fn run(&self, narrowing: Narrowing, query: String, limit: Option<u64>, max: usize, tool: McpTool) -> Outcome {
        let Narrowing { filters, sort, cursor } = narrowing;
        let filters = filters.unwrap_or_default().0;
        let limit = match limit {
            None => 10,
            Some(n) if (1..=max as u64).contains(&n) => n as usize,
            Some(_) => return Err(format!("limit must be a whole number from 1 to {max}").into()),
        };
        // The cursor names the page and the request it belongs to.
        let fingerprint = format!(
            "{:016x}",
            incident_core::hash::checksum(format!("{}|{query}|{filters:?}|{sort:?}|{limit}", tool.name()).as_bytes())
        );
        let page = match cursor {
            None => 1,
            Some(c) => page_of(&c, &fingerprint)?,
        };
        let request = Request {
            query,
            filters,
            sort,
            page,
            per_page: limit,
            ..Default::default()
        };
        let response = search::search(&self.index, &request)
            .map_err(|e| format!("filters: {e} (the vocab tool lists every value with its labels and synonyms)"))?;
        let pages = response.total.div_ceil(limit);
        if page > 1 && page > pages {
            return Err("cursor points past the last page (the results changed); call again without a cursor".into());
        }
        Ok(json!(shape::Results {
            total: response.total,
            full: response.full,
            page,
            sort: response.sort,
            hits: self.hits(&response),
            understood: understood(&response),
            note: response.cut.then(|| {
                format!(
                    "the query was cut to its first {} words of at most {} characters",
                    query::MAX_WORDS,
                    query::MAX_WORD_CHARS
                )
            }),
            next_cursor: (page < pages).then(|| format!("{}:{fingerprint}", page + 1)),
        }))
    }

    /// The search's own hits: what matched, how, and what is missing, each with
    /// where its terms occur (the best sentence, then the other sections).
    fn hits(&self, response: &search::Response) -> Vec<Value> {
        response
            .hits
            .iter()
            .map(|h| {
                let mut v = serde_json::to_value(h).unwrap_or(Value::Null);
                if let Some(map) = v.as_object_mut() {
                    map.remove("terms");
                    let found = incident_build::passages::excerpts(&self.root, h);
                    if !found.is_empty() {
                        map.insert(
                            "excerpts".into(),
                            json!(shape::excerpts(&found, &h.id, &|p| self.web(p))),
                        );
                    }
                }
                v
            })
            .collect()
    }

    fn get_incident(&self, args: &Map<String, Value>) -> Outcome {
        let GetIncidentArgs { id, format, sections } = args::read(args)?;
        let wanted = args::Sections::or_default(sections);
        let id = id.trim().to_uppercase();
        if id.is_empty() {
            return Err("id is required, e.g. \"IL-0004\"".into());
        }
        if !incident_build::corpus::is_incident_id(&id) {
            return Err(format!("\"{}\" is not an incident id; ids look like \"IL-0004\" (find them with search_incidents or list_incidents)", shown(&id)).into());
        }
        if !self.index.meta.ids.contains(&id) {
            // A merged id keeps its API file, which names the record it moved to.
            if let Ok(moved) = self.api_data(&format!("incidents/{id}.json")) {
                return Ok(moved);
            }
            return Err(format!(
                "no incident {id}; ids run from {} to {}; find incidents with search_incidents",
                self.index.meta.ids.first().map_or("-", String::as_str),
                self.index.meta.ids.last().map_or("-", String::as_str)
            )
            .into());
        }
        let mut record = shape::record(self.api_data(&format!("incidents/{id}.json"))?, format, &wanted);
        record["url"] = json!(self.web(&format!("incidents/{id}/")));
        Ok(record)
    }

    fn get_topic(&self, args: &Map<String, Value>) -> Outcome {
        let GetTopicArgs { facet, slug, name } = args::read(args)?;
        let keys: Vec<&str> = FACETS.iter().map(|f| f.key).collect();
        if let Some(f) = &facet {
            if !keys.contains(&f.as_str()) {
                return Err(format!("facet {:?} is not known; use one of {}", shown(f), keys.join(", ")).into());
            }
        }
        let (f, s) = match (facet, slug, name) {
            (Some(f), Some(s), _) => {
                let pos = self.index.facet_position(&f).unwrap_or(0);
                let values = &self.index.meta.facets[pos].values;
                // An old slug of a merged value answers with the value it became.
                let s = match values.iter().find(|v| v.aliases.contains(&s)) {
                    Some(v) => v.slug.clone(),
                    None => s,
                };
                if !values.iter().any(|v| v.slug == s) {
                    let allowed: Vec<&str> = values.iter().map(|v| v.slug.as_str()).collect();
                    return Err(format!("{f} has no value {:?}; its values are: {}", shown(&s), allowed.join(", ")).into());
                }
                (f, s)
            }
            (facet, None, Some(name)) | (facet, Some(name), None) => {
                let q = incident_core::index::squash(&name);
                let found = self.index.names().iter().find(|n| n.squashed == q && facet.as_deref().is_none_or(|f| self.index.meta.facets[n.f].key == f));
                match found {
                    Some(n) => (self.index.meta.facets[n.f].key.clone(), self.index.meta.facets[n.f].values[n.v].slug.clone()),
                    None => return Err(format!("no topic is called {:?}; call vocab for every facet value with its labels and synonyms", shown(&name)).into()),
                }
            }
            _ => return Err("give facet and slug (e.g. facet \"component\", slug \"cdn-edge\"), or a name: a label or synonym such as \"메모리 부족\"".into()),
        };
        let mut topic = self.api_data(&format!("topics/{f}/{s}.json"))?;
        if self.site.is_some() {
            topic["page"] = json!(self.web(&format!("topics/{f}/{s}/")));
        }
        Ok(topic)
    }

    /// The tool definitions, with input and output schemas ([`schema::tools`]).
    pub fn tools() -> Vec<Tool> {
        schema::tools()
    }
}

impl ServerHandler for Library {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_completions()
            .enable_prompts()
            .enable_resources()
            .enable_tools()
            .build();
        let mut info = ServerConfig::new(capabilities);
        info.server_info = Implementation::new("incident-library", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(
            "Korean public incident reports (postmortems). Use search_incidents for words, list_incidents for filters, get_incident for a full record with checks, get_topic and vocab for the taxonomy. Every incident (incident://IL-0001), topic (topic://cause/config-change) and the taxonomy (taxonomy://vocab) is also a Markdown resource, and three prompts turn the library into tasks: check_my_system, find_similar, review_postmortem. Everything is read-only.".into(),
        );
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(Library::tools()))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListResourcesResult, ErrorData> {
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        self.resource_page(cursor)
            .map_err(|m| ErrorData::invalid_params(m, None))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListResourceTemplatesResult, ErrorData> {
        Ok(Library::resource_templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ReadResourceResponse, ErrorData> {
        self.read(&request.uri)
            .map(Into::into)
            .map_err(|m| ErrorData::resource_not_found(m, Some(json!({"uri": shown(&request.uri)}))))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(prompts::prompts()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<GetPromptResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        self.prompt(&request.name, &args)
            .map(Into::into)
            .map_err(|m| ErrorData::invalid_params(m, None))
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<CompleteResult, ErrorData> {
        Ok(CompleteResult::new(Library::complete(self, &request)))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<CallToolResponse, ErrorData> {
        let Some(tool) = McpTool::parse(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool {:?}; the tools are {}",
                    shown(&request.name),
                    McpTool::names()
                ),
                None,
            ));
        };
        let args = request.arguments.unwrap_or_default();
        let result = match self.run_tool(tool, &args) {
            // The structure for the agent, a short summary as the text: not the same
            // JSON twice.
            Ok(value) => {
                let mut r = CallToolResult::success(vec![ContentBlock::text(shape::summary(tool, &value))]);
                r.structured_content = Some(value);
                r
            }
            Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
        };
        Ok(result.into())
    }
}

/// What an error message repeats of a caller's text: at most 80 characters, so a
/// 1 MB name is not echoed back whole, with control characters written as escapes
/// ([`crate::commands::printable`]), so that a client that prints the message shows
/// them instead of obeying them.
fn shown(s: &str) -> String {
    use crate::commands::printable;
    match s.char_indices().nth(80) {
        Some((at, _)) => format!("{}… ({} characters)", printable(&s[..at]), s.chars().count()),
        None => printable(s),
    }
}

/// The page a `cursor` names, checked against the call it belongs to (`fingerprint`).
fn page_of(cursor: &str, fingerprint: &str) -> std::result::Result<usize, String> {
    let (page, owner) = cursor
        .split_once(':')
        .ok_or("cursor is not one this server gave; call again without a cursor")?;
    if owner != fingerprint {
        return Err(
            "cursor belongs to another query, filter or limit; call again without a cursor to start over".into(),
        );
    }
    page.parse::<usize>()
        .ok()
        .filter(|&p| p >= 2)
        .ok_or_else(|| "cursor is not one this server gave; call again without a cursor".into())
}

/// How each query word was read: matched or not, and up to four readings.
fn understood(response: &search::Response) -> Vec<shape::Reading> {
    response
        .words
        .iter()
        .map(|w| shape::Reading {
            word: w.input.clone(),
            matched: !w.alternatives.is_empty(),
            read_as: w
                .alternatives
                .iter()
                .take(4)
                .map(|a| match &a.facet {
                    Some(f) => format!("{}:{}", f.facet, f.slug),
                    None => a.terms.join(" "),
                })
                .collect(),
        })
        .collect()
}
