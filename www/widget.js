// <incident-search>: related incidents from a deployed Incident Library on any page.
//
//   <script type="module" src="https://incidents.example.org/widget.js"></script>
//   <incident-search base="https://incidents.example.org/" component="cdn-edge" limit="5"></incident-search>
//
// Attributes: base (the library's URL, with or without a trailing slash; defaults to
// where this script came from), query, one per facet of the library: cause /
// component / symptom / factor / org (slugs, comma-separated), limit, layout
// (compact | list | search), lang (ko | en), heading (the title; empty for none),
// theme (light | dark | auto, the default: the host page's own dark mode, then the OS).
// The module and index load on first view or focus, once per page for all widgets.
// Everything renders inside a shadow root: page styles do not reach in, and the
// widget's styles do not leak out. Record text is only ever set as text.

const TEXT = {
  ko: {
    title: "관련 사례", search: "사례 검색", loading: "불러오는 중…", none: "맞는 사례가 없습니다.", noneFiltered: "이 필터 안에서 맞는 사례가 없습니다.",
    failed: (base) => `${base} 에서 사례 라이브러리를 불러오지 못했습니다. base 주소가 라이브러리를 가리키는지, 페이지의 Content-Security-Policy 가 widget.js 의 출처를 script-src 에, base 의 출처를 connect-src 에 허용하는지 확인하세요.`,
    csp: "이 페이지의 Content-Security-Policy 가 WebAssembly 실행을 막아 사례를 불러오지 못했습니다. script-src 에 'wasm-unsafe-eval' 을 더하세요.",
    more: "라이브러리에서 더 보기", total: (shown, total) => `${total}건 중 ${shown}건`, filter: "필터",
    remove: (label) => `${label} 필터 풀기`,
    badFilter: (message) => `이 위젯의 필터 값을 라이브러리가 알지 못합니다 (${message}). 분류 값은 라이브러리의 API vocab.json 에 있습니다.`,
    reload: "라이브러리가 새로 배포되었습니다. 페이지를 새로 고치세요.",
    unavailable: "라이브러리의 색인 파일을 받지 못했습니다. 연결을 확인하고 다시 시도하세요.",
  },
  en: {
    title: "Related incidents", search: "Search incidents", loading: "Loading…", none: "No matching incidents.", noneFiltered: "No matching incidents within these filters.",
    failed: (base) => `Could not load the incident library from ${base}. Check that base points at a library and that the page's Content-Security-Policy allows the origin of widget.js in script-src and that of base in connect-src.`,
    csp: "This page's Content-Security-Policy blocks WebAssembly, so incidents cannot load. Add 'wasm-unsafe-eval' to script-src.",
    more: "More in the library", total: (shown, total) => `${shown} of ${total}`, filter: "Filter",
    remove: (label) => `Remove the ${label} filter`,
    badFilter: (message) => `The library does not know a filter value of this widget (${message}). Its values are in the library's API, vocab.json.`,
    reload: "The library was deployed anew. Reload the page.",
    unavailable: "Could not fetch the library's index files. Check the connection and try again.",
  },
};
const here = new URL(".", import.meta.url);
const libraries = new Map();

// A Content-Security-Policy without 'wasm-unsafe-eval' refuses to compile the module;
// the browser reports it here (blockedURI "wasm-eval"), whatever error the loader sees.
let wasmBlocked = false;
document.addEventListener("securitypolicyviolation", (e) => {
  if (e.blockedURI === "wasm-eval" || /wasm/i.test(e.blockedURI)) wasmBlocked = true;
});
const isCspError = (e) =>
  wasmBlocked || (typeof WebAssembly === "object" && e instanceof WebAssembly.CompileError) || /wasm-unsafe-eval|unsafe-eval|Content Security Policy/i.test(String(e?.message ?? e));

// theme="auto" (and no theme): the host page's own dark mode, as docs frameworks
// mark it (VitePress html.dark, Docusaurus data-theme, Material for MkDocs
// data-md-color-scheme, Bootstrap data-bs-theme, CSS color-scheme), then the OS.
const darkQuery = matchMedia("(prefers-color-scheme: dark)");
function hostIsDark() {
  for (const el of [document.documentElement, document.body]) {
    if (!el) continue;
    if (el.classList.contains("dark")) return true;
    if (el.classList.contains("light")) return false;
    const md = el.getAttribute("data-md-color-scheme");
    if (md) return md === "slate" || /dark/i.test(md);
    const theme = el.getAttribute("data-theme") || el.getAttribute("data-bs-theme");
    if (theme) return /dark/i.test(theme);
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme.trim();
  if (scheme === "dark") return true;
  if (scheme === "light") return false;
  return darkQuery.matches;
}
const widgets = new Set();
function followHostTheme() {
  const dark = hostIsDark();
  for (const w of widgets) w.toggleAttribute("data-host-dark", dark);
}
const themeWatch = new MutationObserver(followHostTheme);
const watched = new WeakSet();
function watchHostTheme() {
  for (const el of [document.documentElement, document.body]) {
    if (el && !watched.has(el)) {
      watched.add(el);
      themeWatch.observe(el, { attributes: true, attributeFilter: ["class", "style", "data-theme", "data-bs-theme", "data-md-color-scheme"] });
    }
  }
}
darkQuery.addEventListener("change", followHostTheme);

// One loaded library per base URL, shared by every widget on the page. Code comes
// only from where this script came from: `base` names data (the index, listings
// and passages), never a script to run, so markup that sets it cannot run another
// site's code in the host page.
function library(base, query) {
  const key = base.href;
  if (!libraries.has(key)) {
    libraries.set(key, import(new URL("pkg/library.js", here).href).then((m) => m.IncidentLibrary.open(base, { query })));
  }
  return libraries.get(key);
}

const STYLE = `
:host { all: initial; display: block; contain: content; font: 15px/1.55 "Pretendard", "Noto Sans KR", "Noto Sans CJK KR", "Apple SD Gothic Neo", system-ui, sans-serif;
  --fg: #1d2330; --muted: #5b6474; --bg: #ffffff; --line: #d9dee6; --accent: #1f5fbf; --tag: #e8f0fc; --mark: #ffe58a; color: var(--fg); }
:host([theme="dark"]), :host(:not([theme="light"]):not([theme="dark"])[data-host-dark]) { --fg: #e8ebf0; --muted: #a4adbb; --bg: #171b22; --line: #2e3542; --accent: #8ab4f8; --tag: #23304a; --mark: #5c4a00; }
.box { background: var(--bg); border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; word-break: keep-all; overflow-wrap: anywhere; }
h2 { font-size: 15px; margin: 0 0 8px; }
input { box-sizing: border-box; width: 100%; font: inherit; color: inherit; background: transparent; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; margin-bottom: 8px; }
ol { list-style: none; margin: 0; padding: 0; }
li { padding: 6px 0; border-top: 1px solid var(--line); }
li:first-child { border-top: 0; }
a { color: var(--accent); text-decoration: none; font-weight: 600; }
a:hover, a:focus-visible { text-decoration: underline; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.meta, .note { color: var(--muted); font-size: 13px; }
.summary { margin: 2px 0 0; font-size: 14px; }
.summary .section { font-weight: 600; }
mark { background: var(--mark); color: inherit; border-radius: 2px; }
.tags { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; }
.tag { background: var(--tag); border-radius: 999px; padding: 0 8px; font-size: 12px; }
.chips { display: flex; flex-wrap: wrap; gap: 4px; margin: 0 0 8px; }
button.chip { border: 0; font: inherit; font-size: 12px; color: inherit; cursor: pointer; line-height: 1.6; }
.foot { display: flex; justify-content: space-between; gap: 8px; flex-wrap: wrap; margin: 8px 0 0; }
.foot a { font-weight: 400; }
:host([layout="compact"]) .summary, :host([layout="compact"]) .tags { display: none; }
`;

class IncidentSearch extends HTMLElement {
  // The facet attributes are known once the library is loaded: a MutationObserver
  // follows them (see activate).
  static observedAttributes = ["base", "query", "limit", "layout", "lang", "heading"];

  connectedCallback() {
    widgets.add(this);
    watchHostTheme();
    followHostTheme();
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: "open" });
    // A constructed style sheet: a Content-Security-Policy without 'unsafe-inline' in
    // style-src refuses a <style> element, not an adopted sheet.
    if ("adoptedStyleSheets" in ShadowRoot.prototype && "replaceSync" in CSSStyleSheet.prototype) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLE);
      root.adoptedStyleSheets = [sheet];
    } else {
      const style = document.createElement("style");
      style.textContent = STYLE;
      root.append(style);
    }
    this.box = document.createElement("section");
    this.box.className = "box";
    this.box.part = "box";
    root.append(this.box);
    this.renderShell();
    this.setStatus(this.t.loading);
    // Load lazily: the first time the widget is in view, or gets focus.
    const start = () => this.activate();
    this.addEventListener("focusin", start, { once: true });
    if ("IntersectionObserver" in window) {
      this.observer = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) { this.observer.disconnect(); start(); }
      }, { rootMargin: "200px" });
      this.observer.observe(this);
    } else {
      start();
    }
  }

  disconnectedCallback() {
    this.observer?.disconnect();
    widgets.delete(this);
  }

  attributeChangedCallback(name) {
    if (name === "heading" && this.box) this.renderShell();
    if (this.lib) this.run();
  }

  get t() {
    return TEXT[this.getAttribute("lang") === "en" ? "en" : "ko"];
  }

  get base() {
    const url = new URL(this.getAttribute("base") || here.href, document.baseURI);
    // `https://host/library` names the folder, as `https://host/library/` does.
    if (!url.pathname.endsWith("/")) url.pathname += "/";
    url.search = "";
    url.hash = "";
    return url;
  }

  // Vue (VitePress) sets an attribute that a custom element has as a property as
  // that property: a setter keeps it an attribute.
  set base(value) {
    this.setAttribute("base", value);
  }

  renderShell() {
    this.box.replaceChildren();
    const search = this.getAttribute("layout") === "search";
    const title = this.hasAttribute("heading") ? this.getAttribute("heading") : search ? this.t.search : this.t.title;
    if (title) {
      const heading = document.createElement("h2");
      heading.textContent = title;
      heading.part = "heading";
      this.box.append(heading);
    }
    if (this.getAttribute("layout") === "search") {
      this.input = document.createElement("input");
      this.input.type = "search";
      this.input.part = "input";
      this.input.setAttribute("aria-label", this.t.search);
      this.input.placeholder = this.t.search;
      this.input.value = this.getAttribute("query") || "";
      this.input.addEventListener("input", () => this.run());
      this.input.addEventListener("keydown", (e) => {
        if (e.key === "ArrowDown") { const first = this.links()[0]; if (first) { e.preventDefault(); first.focus(); } }
      });
      this.chips = document.createElement("div");
      this.chips.className = "chips";
      this.chips.setAttribute("aria-label", this.t.filter);
      this.box.append(this.input, this.chips);
    }
    this.list = document.createElement("ol");
    this.list.part = "list";
    // Arrow keys move between the results (and back up to the search box).
    this.list.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
      const links = this.links();
      const at = links.indexOf(this.shadowRoot.activeElement);
      if (at < 0) return;
      e.preventDefault();
      const next = at + (e.key === "ArrowDown" ? 1 : -1);
      if (next >= 0 && next < links.length) links[next].focus();
      else if (next < 0 && this.input) this.input.focus();
    });
    this.status = document.createElement("p");
    this.status.className = "note";
    this.status.setAttribute("role", "status");
    this.foot = document.createElement("p");
    this.foot.className = "foot";
    this.foot.part = "foot";
    this.foot.hidden = true;
    this.box.append(this.status, this.list, this.foot);
  }

  links() {
    return [...this.list.querySelectorAll("li > a")];
  }

  setStatus(text) {
    this.status.textContent = text;
    this.status.hidden = !text;
  }

  async activate() {
    if (this.loading) return;
    this.loading = true;
    try {
      // The first widget's query: its words' blocks come while the module loads.
      this.lib = await library(this.base, this.input ? this.input.value : this.getAttribute("query") || "");
      const facets = this.lib.facets();
      this.facetKeys = facets.map((f) => f.key);
      // The facets whose values a hit shows as tags, as the index says.
      this.hitFacets = facets.filter((f) => f.on_hits).map((f) => f.key);
      this.labels = Object.fromEntries(facets.map((f) => [f.key, Object.fromEntries(f.values.map((v) => [v.slug, v]))]));
      new MutationObserver(() => this.run()).observe(this, { attributeFilter: this.facetKeys });
      await this.run();
      this.dataset.ready = "true";
    } catch (e) {
      console.warn("incident-search:", e);
      const csp = isCspError(e);
      this.setStatus(csp ? this.t.csp : this.t.failed(this.base.href));
      this.dataset.ready = csp ? "csp" : "failed";
    }
  }

  async run() {
    const filters = {};
    // A preset filter the reader removed stays off in this widget; the page's markup
    // is not changed.
    this.removed ??= new Set();
    for (const f of this.facetKeys) {
      const v = this.getAttribute(f);
      const slugs = v ? v.split(",").map((s) => s.trim()).filter((s) => s && !this.removed.has(`${f}:${s}`)) : [];
      if (slugs.length) filters[f] = slugs;
    }
    const query = this.input ? this.input.value : this.getAttribute("query") || "";
    const limit = Math.max(1, Math.min(50, parseInt(this.getAttribute("limit") || "5", 10) || 5));
    let result;
    try {
      const generation = (this.generation = (this.generation ?? 0) + 1);
      result = await this.lib.search(query, { filters, perPage: limit, prefix: Boolean(this.input), excerpts: false });
      if (generation !== this.generation) return;
      this.show(result, filters, query);
      // Then where each hit's words occur, filled in when they arrive.
      if (!query.trim() || !result.hits.length) return;
      await this.lib.excerpts(result.hits);
      if (generation !== this.generation) return;
    } catch (e) {
      // The kind of failure, by the error's name (pkg/library.js, the wasm binding).
      const says = { FilterError: () => this.t.badFilter(e.message), NewBuildError: () => this.t.reload }[e.name];
      this.setStatus(says ? says() : this.t.unavailable);
      if (!says) console.warn("incident-search:", e);
      this.list.replaceChildren();
      return;
    }
    for (const [i, h] of result.hits.entries()) {
      const p = this.list.children[i]?.querySelector(".summary");
      if (p && h.excerpt) p.replaceChildren(...excerptNodes(h.excerpt));
    }
  }

  // Renders a result: the chips, the status, the total and the hits with their
  // summaries.
  show(result, filters, query) {
    const en = this.getAttribute("lang") === "en";
    const label = (facet, slug) => { const v = this.labels[facet]?.[slug]; return v ? (en ? v.en : v.ko) : slug; };
    const preset = Object.entries(filters).flatMap(([f, slugs]) => slugs.map((s) => [f, s]));
    if (this.chips) {
      // The preset filters, shown: a query outside them is not "no results" by surprise.
      // Each removable: a reader searching beyond them is not stuck inside them.
      this.chips.replaceChildren(...preset.map(([f, s]) => {
        const chip = document.createElement("button");
        chip.type = "button";
        chip.className = "tag chip";
        chip.part = "chip";
        chip.textContent = `${label(f, s)} ×`;
        chip.setAttribute("aria-label", this.t.remove(label(f, s)));
        chip.addEventListener("click", () => {
          this.removed.add(`${f}:${s}`);
          this.run();
          this.input?.focus();
        });
        return chip;
      }));
      this.chips.hidden = !preset.length;
    }
    this.setStatus(result.hits.length ? "" : preset.length ? this.t.noneFiltered : this.t.none);
    // The total, and the full search with the same query and filters.
    const state = new URLSearchParams();
    if (query.trim()) state.set("q", query.trim());
    for (const [f, s] of preset) state.append(f, s);
    const more = document.createElement("a");
    const qs = state.toString();
    more.href = new URL(qs ? `?${qs}` : "./", this.base).href;
    more.target = "_blank";
    more.rel = "noopener";
    more.textContent = this.t.more;
    const count = document.createElement("span");
    count.className = "meta";
    count.textContent = this.t.total(result.hits.length, result.total);
    this.foot.replaceChildren(count, more);
    this.foot.hidden = !result.hits.length && !query.trim();
    this.list.replaceChildren(...result.hits.map((h) => {
      const li = document.createElement("li");
      li.part = "item";
      const a = document.createElement("a");
      a.part = "title";
      a.href = this.lib.pageOf(h.id);
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = h.title;
      const meta = document.createElement("div");
      meta.className = "meta";
      meta.part = "meta";
      meta.textContent = `${h.id} · ${label("org", h.org)} · ${h.date_label || h.date}`;
      const summary = document.createElement("p");
      summary.className = "summary";
      summary.part = "summary";
      summary.textContent = h.summary;
      const tags = document.createElement("div");
      tags.className = "tags";
      for (const f of this.hitFacets) {
        for (const s of h.facets[f] || []) {
          const tag = document.createElement("span");
          tag.className = "tag";
          tag.part = "tag";
          tag.textContent = label(f, s);
          tags.append(tag);
        }
      }
      li.append(a, meta, summary, tags);
      return li;
    }));
  }
}

// An excerpt as nodes: its section, linking to the section on the incident page,
// then its text with the matches in <mark> (text nodes only: never HTML).
function excerptNodes({ section, url, text, marks }) {
  const link = document.createElement("a");
  link.className = "section";
  link.href = url;
  link.target = "_blank";
  link.rel = "noopener";
  link.textContent = section;
  const out = [link, document.createTextNode(" · ")];
  let at = 0;
  for (const [s, e] of marks) {
    if (s > at) out.push(document.createTextNode(text.slice(at, s)));
    const m = document.createElement("mark");
    m.part = "mark";
    m.textContent = text.slice(s, e);
    out.push(m);
    at = e;
  }
  if (at < text.length) out.push(document.createTextNode(text.slice(at)));
  return out;
}

if (!customElements.get("incident-search")) customElements.define("incident-search", IncidentSearch);
