// <incident-search>: related incidents from a deployed Incident Library on any page.
//
//   <script type="module" src="https://incidents.example.org/widget.js"></script>
//   <incident-search base="https://incidents.example.org/" component="cdn-edge" limit="5"></incident-search>
//
// Attributes: base (the library's URL; defaults to where this script came from),
// query, one per facet of the library: cause / component / symptom / factor / org
// (slugs, comma-separated), limit, layout (compact | list | search), lang (ko | en),
// theme (light | dark | auto).
// The module and index load on first view or focus, once per page for all widgets.
// Everything renders inside a shadow root: page styles do not reach in, and the
// widget's styles do not leak out. Record text is only ever set as text.

const TEXT = {
  ko: { title: "관련 사례", search: "사례 검색", loading: "불러오는 중…", none: "맞는 사례가 없습니다.", failed: "사례를 불러오지 못했습니다.", more: "더 보기" },
  en: { title: "Related incidents", search: "Search incidents", loading: "Loading…", none: "No matching incidents.", failed: "Could not load incidents.", more: "More" },
};
const here = new URL(".", import.meta.url);
const libraries = new Map();

// One loaded library per base URL, shared by every widget on the page.
function library(base) {
  const key = base.href;
  if (!libraries.has(key)) {
    libraries.set(key, import(new URL("pkg/library.js", base).href).then((m) => m.IncidentLibrary.open(base)));
  }
  return libraries.get(key);
}

const STYLE = `
:host { all: initial; display: block; contain: content; font: 15px/1.55 "Pretendard", "Noto Sans KR", "Noto Sans CJK KR", "Apple SD Gothic Neo", system-ui, sans-serif;
  --fg: #1d2330; --muted: #5b6474; --bg: #ffffff; --line: #d9dee6; --accent: #1f5fbf; --tag: #e8f0fc; color: var(--fg); }
:host([theme="dark"]) { --fg: #e8ebf0; --muted: #a4adbb; --bg: #171b22; --line: #2e3542; --accent: #8ab4f8; --tag: #23304a; }
@media (prefers-color-scheme: dark) { :host([theme="auto"]) { --fg: #e8ebf0; --muted: #a4adbb; --bg: #171b22; --line: #2e3542; --accent: #8ab4f8; --tag: #23304a; } }
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
.tags { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; }
.tag { background: var(--tag); border-radius: 999px; padding: 0 8px; font-size: 12px; }
:host([layout="compact"]) .summary, :host([layout="compact"]) .tags { display: none; }
`;

class IncidentSearch extends HTMLElement {
  // The facet attributes are known once the library is loaded: a MutationObserver
  // follows them (see activate).
  static observedAttributes = ["base", "query", "limit", "layout", "lang"];

  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = STYLE;
    this.box = document.createElement("section");
    this.box.className = "box";
    root.append(style, this.box);
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
  }

  attributeChangedCallback() {
    if (this.lib) this.run();
  }

  get t() {
    return TEXT[this.getAttribute("lang") === "en" ? "en" : "ko"];
  }

  get base() {
    return new URL(this.getAttribute("base") || here.href, document.baseURI);
  }

  renderShell() {
    this.box.replaceChildren();
    const heading = document.createElement("h2");
    heading.textContent = this.t.title;
    this.box.append(heading);
    if (this.getAttribute("layout") === "search") {
      this.input = document.createElement("input");
      this.input.type = "search";
      this.input.setAttribute("aria-label", this.t.search);
      this.input.placeholder = this.t.search;
      this.input.value = this.getAttribute("query") || "";
      this.input.addEventListener("input", () => this.run());
      this.box.append(this.input);
    }
    this.list = document.createElement("ol");
    this.status = document.createElement("p");
    this.status.className = "note";
    this.status.setAttribute("role", "status");
    this.box.append(this.status, this.list);
  }

  setStatus(text) {
    this.status.textContent = text;
    this.status.hidden = !text;
  }

  async activate() {
    if (this.loading) return;
    this.loading = true;
    try {
      this.lib = await library(this.base);
      const facets = this.lib.facets();
      this.facetKeys = facets.map((f) => f.key);
      this.labels = Object.fromEntries(facets.map((f) => [f.key, Object.fromEntries(f.values.map((v) => [v.slug, v]))]));
      new MutationObserver(() => this.run()).observe(this, { attributeFilter: this.facetKeys });
      await this.run();
      this.dataset.ready = "true";
    } catch (e) {
      console.warn("incident-search:", e);
      this.setStatus(this.t.failed);
      this.dataset.ready = "failed";
    }
  }

  async run() {
    const filters = {};
    for (const f of this.facetKeys) {
      const v = this.getAttribute(f);
      if (v) filters[f] = v.split(",").map((s) => s.trim()).filter(Boolean);
    }
    const query = this.input ? this.input.value : this.getAttribute("query") || "";
    const limit = Math.max(1, Math.min(50, parseInt(this.getAttribute("limit") || "5", 10) || 5));
    let result;
    try {
      const generation = (this.generation = (this.generation ?? 0) + 1);
      result = await this.lib.search(query, { filters, perPage: limit, prefix: Boolean(this.input) });
      if (generation !== this.generation) return;
    } catch (e) {
      this.setStatus(String(e.message || e));
      this.list.replaceChildren();
      return;
    }
    const en = this.getAttribute("lang") === "en";
    const label = (facet, slug) => { const v = this.labels[facet]?.[slug]; return v ? (en ? v.en : v.ko) : slug; };
    this.setStatus(result.hits.length ? "" : this.t.none);
    this.list.replaceChildren(...result.hits.map((h) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = this.lib.pageOf(h.id);
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = h.title;
      const meta = document.createElement("div");
      meta.className = "meta";
      meta.textContent = `${h.id} · ${label("org", h.org)} · ${h.date_label || h.date}`;
      const summary = document.createElement("p");
      summary.className = "summary";
      summary.textContent = h.summary;
      const tags = document.createElement("div");
      tags.className = "tags";
      for (const f of ["cause", "component", "symptom"]) {
        for (const s of h.facets[f] || []) {
          const tag = document.createElement("span");
          tag.className = "tag";
          tag.textContent = label(f, s);
          tags.append(tag);
        }
      }
      li.append(a, meta, summary, tags);
      return li;
    }));
  }
}

if (!customElements.get("incident-search")) customElements.define("incident-search", IncidentSearch);
