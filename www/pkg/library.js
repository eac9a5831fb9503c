// The Incident Library as an ES module: open a deployed library by its URL, then
// search it, list its facets and read whole records, all in the browser.
//
//   import { IncidentLibrary } from "https://incidents.example.org/pkg/library.js";
//   const lib = await IncidentLibrary.open("https://incidents.example.org/");
//   const { hits } = await lib.search("재시도를", { filters: { component: ["cloud-load-balancer"] } });

// The wasm binding, loaded and started once per version (see `open`). Without a
// version the import and the module's URL stay literals, which bundlers follow.
const bindings = {};
const binding = (v) =>
  (bindings[v] ??= (v ? import(new URL("incident_library.js" + v, import.meta.url).href) : import("./incident_library.js")).then(async (m) => {
    const wasm = new URL("incident_library_bg.wasm", import.meta.url);
    wasm.search = v;
    await m.default({ module_or_path: wasm });
    return m.IncidentLibrary;
  }));

export class IncidentLibrary {
  /** Loads the module and the index of the library at `baseUrl` (its site root).
   *  With `version`, every file it fetches carries `?v=<version>`: a page of one
   *  build then never meets a cached file of another. */
  static async open(baseUrl, { version } = {}) {
    const base = new URL(baseUrl, globalThis.location?.href);
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    const v = version ? "?v=" + encodeURIComponent(version) : "";
    const Core = await binding(v);
    const bytes = async (name) => {
      const url = new URL("index/" + name + v, base);
      const r = await fetch(url);
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      return new Uint8Array(await r.arrayBuffer());
    };
    const meta = await bytes("meta.bin");
    const files = {};
    await Promise.all(Core.chunkFiles(meta).map(async (n) => { files[n] = await bytes(n); }));
    return new IncidentLibrary(base, new Core(meta, files), bytes);
  }

  constructor(base, core, bytes) {
    this.base = base;
    this.core = core;
    this.bytes = bytes;
  }

  /** Ranked incidents for `query` (may be empty), with facet counts. The titles and
   *  summaries of the hits are fetched on first use, one small file per incident. */
  async search(query, { filters = {}, sort, page = 1, perPage = 10, prefix = false } = {}) {
    const pairs = Object.entries(filters).flatMap(([facet, slugs]) => [].concat(slugs).map((s) => [facet, s]));
    const request = { query, filters: pairs, sort, page, per_page: perPage, prefix };
    const result = this.core.search(request);
    if (!result.missing) return result;
    await this.fetchListings(result.missing);
    return this.core.search(request);
  }

  /** Fetches the listing files a response of `core.search` names in `missing`
   *  (titles and summaries) and adds them to the index. */
  async fetchListings(names) {
    const loaded = await Promise.all(names.map(async (n) => [n, await this.bytes(n)]));
    for (const [n, b] of loaded) this.core.addListing(n, b);
  }

  /** Every facet with its values, labels, synonyms and counts. */
  facets() {
    return this.core.facets();
  }

  /** One incident in full, from the library's static API. */
  async get(id) {
    const r = await fetch(new URL(`api/v1/incidents/${encodeURIComponent(id)}.json`, this.base));
    if (!r.ok) throw new Error(`no incident ${id} (HTTP ${r.status})`);
    return (await r.json()).data;
  }

  /** The page of an incident on the library's site. */
  pageOf(id) {
    return new URL(`incidents/${encodeURIComponent(id)}/`, this.base).href;
  }

  /** Number of incidents. */
  get size() {
    return this.core.size;
  }
}
