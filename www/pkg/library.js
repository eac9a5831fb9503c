// The Incident Library as an ES module: open a deployed library by its URL, then
// search it, list its facets and read whole records, all in the browser.
//
//   import { IncidentLibrary } from "https://incidents.example.org/pkg/library.js";
//   const lib = await IncidentLibrary.open("https://incidents.example.org/");
//   const { hits } = await lib.search("재시도를", { filters: { component: ["cloud-load-balancer"] } });
import init, { IncidentLibrary as Core } from "./incident_library.js";

let ready;

export class IncidentLibrary {
  /** Loads the module and the index of the library at `baseUrl` (its site root). */
  static async open(baseUrl) {
    const base = new URL(baseUrl, globalThis.location?.href);
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    ready ??= init({ module_or_path: new URL("incident_library_bg.wasm", import.meta.url) });
    await ready;
    const bytes = async (name) => {
      const r = await fetch(new URL("index/" + name, base));
      if (!r.ok) throw new Error(`${new URL("index/" + name, base)}: HTTP ${r.status}`);
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
    const loaded = await Promise.all(result.missing.map(async (n) => [n, await this.bytes(n)]));
    for (const [n, b] of loaded) this.core.addListing(n, b);
    return this.core.search(request);
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
