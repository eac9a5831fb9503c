//! The browser binding: the shared search behind a small JavaScript API.
//!
//! ```js
//! import init, { IncidentLibrary } from "./pkg/incident_library.js";
//! await init();
//! const meta = new Uint8Array(await (await fetch("index/meta.bin")).arrayBuffer());
//! const files = {};
//! for (const name of IncidentLibrary.chunkFiles(meta)) files[name] = /* fetch name */;
//! const lib = new IncidentLibrary(meta, files);
//! let result = lib.search({ query: "재시도를", filters: [["cause", "retry-amplification"]] });
//! // Titles and summaries of the hits shown are fetched as they are needed:
//! for (const name of result.missing ?? []) lib.addListing(name, /* fetch name */);
//! if (result.missing) result = lib.search(/* the same request */);
//! ```

use serde::Serialize;
use wasm_bindgen::prelude::*;

// talc instead of the default dlmalloc: a smaller module, and faster.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use incident_core::format::{self, Kind};
use incident_core::index::{Index, Meta};
use incident_core::search::{self, Request, Sort};

/// A loaded index.
#[wasm_bindgen]
pub struct IncidentLibrary {
    index: Index,
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

#[wasm_bindgen]
impl IncidentLibrary {
    /// The filter files that `meta.bin` refers to: what the constructor needs.
    #[wasm_bindgen(js_name = chunkFiles)]
    pub fn chunk_files(meta: &[u8]) -> Result<Vec<String>, JsError> {
        let meta: Meta = format::decode(Kind::Meta, meta).map_err(|e| JsError::new(&format!("meta.bin: {e}")))?;
        Ok(meta.chunks.iter().map(|c| c.filters.clone()).collect())
    }

    /// Opens the index from `meta.bin` and an object mapping the filter file names
    /// of [`IncidentLibrary::chunk_files`] to their bytes (`Uint8Array`). Listing
    /// files are added with `addListing` as search results name them in `missing`.
    #[wasm_bindgen(constructor)]
    pub fn new(meta: Vec<u8>, files: &js_sys::Object) -> Result<IncidentLibrary, JsError> {
        let index = Index::open(|name| {
            if name == "meta.bin" {
                return Ok(meta.clone());
            }
            let value = js_sys::Reflect::get(files, &JsValue::from_str(name)).map_err(|_| "not given".to_string())?;
            if value.is_undefined() {
                return Err("not given".to_string());
            }
            Ok(js_sys::Uint8Array::new(&value).to_vec())
        })
        .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(IncidentLibrary { index })
    }

    /// Adds a listing file (a name from a response's `missing`) and its bytes.
    #[wasm_bindgen(js_name = addListing)]
    pub fn add_listing(&mut self, name: &str, bytes: &[u8]) -> Result<(), JsError> {
        self.index
            .add_listings(name, bytes)
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// Runs a search. `request` is `{query, filters: [[facet, slug]…], sort:
    /// "relevance"|"recent", page, per_page, graph: [facet…]}`, every field optional.
    pub fn search(&self, request: JsValue) -> Result<JsValue, JsError> {
        let request = parse_request(&request)?;
        let response = search::search(&self.index, &request).map_err(|e| JsError::new(&e.to_string()))?;
        to_js(&response)
    }

    /// The facets and their values (labels, synonyms, incident counts).
    pub fn facets(&self) -> Result<JsValue, JsError> {
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

    /// Number of incidents.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.index.len()
    }
}

/// Reads a request object field by field. Done by hand rather than with serde so
/// that the module carries no generic deserializer (and its number formatting).
fn parse_request(value: &JsValue) -> Result<Request, JsError> {
    let mut request = Request::default();
    if value.is_undefined() || value.is_null() {
        return Ok(request);
    }
    let get = |key: &str| js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    let strings = |v: JsValue, what: &str| -> Result<Vec<String>, JsError> {
        if v.is_undefined() || v.is_null() {
            return Ok(Vec::new());
        }
        if !js_sys::Array::is_array(&v) {
            return Err(JsError::new(&format!("{what} must be an array of strings")));
        }
        js_sys::Array::from(&v)
            .iter()
            .map(|s| {
                s.as_string()
                    .ok_or_else(|| JsError::new(&format!("{what} must be an array of strings")))
            })
            .collect()
    };
    let number = |v: JsValue, what: &str| -> Result<usize, JsError> {
        match v.as_f64() {
            None if v.is_undefined() || v.is_null() => Ok(0),
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= 1e9 => Ok(n as usize),
            _ => Err(JsError::new(&format!("{what} must be a whole number"))),
        }
    };
    let query = get("query");
    if !query.is_undefined() && !query.is_null() {
        request.query = query
            .as_string()
            .ok_or_else(|| JsError::new("query must be a string"))?;
    }
    let filters = get("filters");
    if !filters.is_undefined() && !filters.is_null() {
        if !js_sys::Array::is_array(&filters) {
            return Err(JsError::new("filters must be an array of [facet, slug] pairs"));
        }
        for pair in js_sys::Array::from(&filters).iter() {
            let pair = strings(pair, "each filter")?;
            match <[String; 2]>::try_from(pair) {
                Ok([facet, slug]) => request.filters.push((facet, slug)),
                Err(_) => return Err(JsError::new("each filter is a [facet, slug] pair")),
            }
        }
    }
    request.sort = match get("sort").as_string() {
        None => None,
        Some(name) => Some(name.parse::<Sort>().map_err(|e| JsError::new(&e))?),
    };
    request.page = number(get("page"), "page")?;
    request.per_page = number(get("per_page"), "per_page")?;
    request.graph = strings(get("graph"), "graph")?;
    request.prefix = get("prefix").as_bool().unwrap_or(false);
    Ok(request)
}
