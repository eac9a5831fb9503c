//! The browser binding: the shared search behind a small JavaScript API.
//!
//! ```js
//! import init, { IncidentLibrary } from "./pkg/incident_library.js";
//! await init();
//! const lib = new IncidentLibrary(new Uint8Array(await (await fetch("index/meta.bin")).arrayBuffer()));
//! const request = { query: "재시도를", filters: [["cause", "retry-amplification"]] };
//! let result = lib.search(request);
//! // The vocabulary blocks, near-term buckets and listing files a search needs are
//! // fetched as it names them, then the same request is run again:
//! while (result.missing) {
//!   for (const name of result.missing) lib.addFile(name, /* fetch index/name */);
//!   result = lib.search(request);
//! }
//! ```

use serde::Serialize;
use wasm_bindgen::prelude::*;

// talc instead of the default dlmalloc: a smaller module, and faster.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use incident_core::format;
use incident_core::index::Index;
use incident_core::search::{self, Request, Sort};

/// A loaded index.
#[wasm_bindgen]
pub struct IncidentLibrary {
    index: Index,
}

/// What went wrong, as a JS `Error` whose `name` says which kind, so that the page
/// and the widget act on the kind rather than on the words of the message:
/// `FormatError` (an index file that is damaged, or not of this format),
/// `OtherBuildError` (a file of another build than `meta.bin`), `FilterError` (a
/// filter the index does not know) and `RequestError` (a request that is not well
/// formed).
fn fail(name: &str, message: impl std::fmt::Display) -> JsValue {
    let error = js_sys::Error::new(&message.to_string());
    error.set_name(name);
    error.into()
}

/// A request that is not well formed.
fn bad_request(message: impl std::fmt::Display) -> JsValue {
    fail("RequestError", message)
}

/// An index file that could not be read: of another build, or damaged.
fn unreadable(e: incident_core::index::LoadError) -> JsValue {
    let name = match e.error {
        format::FormatError::OtherBuild { .. } => "OtherBuildError",
        _ => "FormatError",
    };
    fail(name, e)
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(bad_request)
}

#[wasm_bindgen]
impl IncidentLibrary {
    /// Opens the index from `meta.bin`. Searches name the other files they need
    /// in `missing`; `addFile` adds them.
    #[wasm_bindgen(constructor)]
    pub fn new(meta: Vec<u8>) -> Result<IncidentLibrary, JsValue> {
        let index = Index::open(|name| {
            if name == "meta.bin" {
                Ok(meta.clone())
            } else {
                Err("not given")
            }
        })
        .map_err(unreadable)?;
        Ok(IncidentLibrary { index })
    }

    /// Makes the next of the lookup tables a search otherwise makes on first use;
    /// true while one is left. The loader makes them one per task, so that no task
    /// of a phone's is long.
    #[wasm_bindgen(js_name = makeNextTable)]
    pub fn make_next_table(&self) -> bool {
        self.index.make_next_table()
    }

    /// Adds an index file that a response named in `missing` (a vocabulary block, a
    /// near-term bucket or a listing file) with its bytes.
    #[wasm_bindgen(js_name = addFile)]
    pub fn add_file(&mut self, name: &str, bytes: &[u8]) -> Result<(), JsValue> {
        self.index.add_file(name, bytes).map_err(unreadable)
    }

    /// Runs a search. `request` is `{query, filters: [[facet, slug]…], sort:
    /// "relevance"|"recent", page, per_page, graph: [facet…]}`, every field optional.
    pub fn search(&self, request: JsValue) -> Result<JsValue, JsValue> {
        let request = parse_request(&request)?;
        let response = search::search(&self.index, &request).map_err(|e| fail("FilterError", e))?;
        if response.incomplete {
            // The loader reads only what to fetch from a response that still misses
            // files: converting the rest (every facet value's count, the words, the
            // provisional hits) into JS objects cost a phone more than the search.
            #[derive(Serialize)]
            struct Incomplete<'a> {
                incomplete: bool,
                missing: &'a [String],
                likely: &'a [String],
            }
            return to_js(&Incomplete {
                incomplete: true,
                missing: &response.missing,
                likely: &response.likely,
            });
        }
        to_js(&response)
    }

    /// The facets and their values (labels, synonyms, incident counts).
    pub fn facets(&self) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        struct Value<'a> {
            slug: &'a str,
            ko: &'a str,
            en: &'a str,
            synonyms: &'a [String],
            aliases: &'a [String],
            count: usize,
        }
        #[derive(Serialize)]
        struct Facet<'a> {
            key: &'a str,
            ko: &'a str,
            en: &'a str,
            /// A hit in a result list shows its values ([`incident_core::facets::FacetDef::on_hits`]).
            on_hits: bool,
            values: Vec<Value<'a>>,
        }
        let facets: Vec<Facet> = self
            .index
            .meta
            .facets
            .iter()
            .map(|f| Facet {
                key: &f.key,
                ko: &f.ko,
                en: &f.en,
                on_hits: incident_core::facets::on_hits(&f.key),
                values: f
                    .values
                    .iter()
                    .map(|v| Value {
                        slug: &v.slug,
                        ko: &v.ko,
                        en: &v.en,
                        synonyms: &v.synonyms,
                        aliases: &v.aliases,
                        count: v.docs.len(),
                    })
                    .collect(),
            })
            .collect();
        to_js(&facets)
    }

    /// The excerpts of one hit: for each section of `sections` (`[[name, text]…]`,
    /// as a passages file holds them) where one of `terms` (the hit's `terms`)
    /// occurs, its best sentence with the occurrences marked, in reading order:
    /// `[{section, anchor, text, marks: [[start, end]…]}]`. Marks are in UTF-16
    /// code units of `text`, as JavaScript strings count.
    pub fn excerpts(&self, terms: JsValue, sections: JsValue) -> Result<JsValue, JsValue> {
        let terms = string_array(&terms, "terms")?;
        let mut pairs: Vec<(String, String)> = Vec::new();
        if !js_sys::Array::is_array(&sections) {
            return Err(bad_request("sections must be an array of [name, text] pairs"));
        }
        for pair in js_sys::Array::from(&sections).iter() {
            match <[String; 2]>::try_from(string_array(&pair, "each section")?) {
                Ok([name, text]) => pairs.push((name, text)),
                Err(_) => return Err(bad_request("each section is a [name, text] pair")),
            }
        }
        let mut found = incident_core::excerpt::excerpts(&pairs, &terms);
        for e in &mut found {
            // Characters to UTF-16 code units: they differ only past the BMP.
            let mut units = Vec::with_capacity(e.text.len() + 1);
            let mut at = 0u32;
            for c in e.text.chars() {
                units.push(at);
                at += c.len_utf16() as u32;
            }
            units.push(at);
            for m in &mut e.marks {
                *m = [units[m[0] as usize], units[m[1] as usize]];
            }
        }
        to_js(&found)
    }

    /// Number of incidents.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.index.len()
    }

    /// The build of this index (16 hex digits): the bundle's version, which every
    /// file it adds must carry.
    #[wasm_bindgen(getter)]
    pub fn build(&self) -> String {
        format!("{:016x}", self.index.build)
    }
}

/// `value` as an array of strings; `what` names it in the error.
fn string_array(value: &JsValue, what: &str) -> Result<Vec<String>, JsValue> {
    let wrong = || bad_request(format!("{what} must be an array of strings"));
    if !js_sys::Array::is_array(value) {
        return Err(wrong());
    }
    js_sys::Array::from(value)
        .iter()
        .map(|s| s.as_string().ok_or_else(wrong))
        .collect()
}

/// Reads a request object field by field. Done by hand rather than with serde so
/// that the module carries no generic deserializer (and its number formatting).
fn parse_request(value: &JsValue) -> Result<Request, JsValue> {
    let mut request = Request::default();
    if value.is_undefined() || value.is_null() {
        return Ok(request);
    }
    let get = |key: &str| js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    let strings = |v: JsValue, what: &str| -> Result<Vec<String>, JsValue> {
        if v.is_undefined() || v.is_null() {
            return Ok(Vec::new());
        }
        if !js_sys::Array::is_array(&v) {
            return Err(bad_request(format!("{what} must be an array of strings")));
        }
        js_sys::Array::from(&v)
            .iter()
            .map(|s| {
                s.as_string()
                    .ok_or_else(|| bad_request(format!("{what} must be an array of strings")))
            })
            .collect()
    };
    let number = |v: JsValue, what: &str| -> Result<usize, JsValue> {
        match v.as_f64() {
            None if v.is_undefined() || v.is_null() => Ok(0),
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 1e9 => Ok(n as usize),
            _ => Err(bad_request(format!("{what} must be a whole number"))),
        }
    };
    let query = get("query");
    if !query.is_undefined() && !query.is_null() {
        request.query = query.as_string().ok_or_else(|| bad_request("query must be a string"))?;
    }
    let filters = get("filters");
    if !filters.is_undefined() && !filters.is_null() {
        if !js_sys::Array::is_array(&filters) {
            return Err(bad_request("filters must be an array of [facet, slug] pairs"));
        }
        for pair in js_sys::Array::from(&filters).iter() {
            let pair = strings(pair, "each filter")?;
            match <[String; 2]>::try_from(pair) {
                Ok([facet, slug]) => request.filters.push((facet, slug)),
                Err(_) => return Err(bad_request("each filter is a [facet, slug] pair")),
            }
        }
    }
    request.sort = match get("sort").as_string() {
        None => None,
        Some(name) => Some(name.parse::<Sort>().map_err(bad_request)?),
    };
    request.page = number(get("page"), "page")?;
    request.per_page = number(get("per_page"), "per_page")?;
    request.graph = strings(get("graph"), "graph")?;
    request.prefix = get("prefix").as_bool().unwrap_or(false);
    Ok(request)
}
