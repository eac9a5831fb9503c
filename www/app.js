// The Incident Library in the browser. Every page loads this module: it registers
// the service worker (offline use) and shows when the page is offline. On the search
// page it loads the wasm search and the index and turns the static list into a
// faceted search whose whole state lives in the URL.
//
// Untrusted text (records, queries) is only ever put into the page as text nodes.
//
// One file, though longer than the 500 lines the project keeps its files to: every
// page loads it in one request, and a first search on a phone is bound by round
// trips and held to a byte budget (first_search.rs), which each further module
// would cost a request and a gzip frame of its own. Its parts, in this order: the
// page element ids; offline and a new build; the service worker; state and URL;
// the search page (loading, rendering, facets, hits, graph, paging); start-up.

// The bundle root, as an absolute URL: pages live at different depths.
const base = new URL(document.body.dataset.root || "./", location.href);
const at = (path) => new URL(path, base).href;
// Assets of this page's own build: the page names its build, so cached copies of
// another build are never mixed in.
const version = document.body.dataset.version || "";
const asset = (path) => at(path) + (version ? "?v=" + version : "");
const PER_PAGE = 10;
// Ends the task: on a phone, work after it is a task of its own.
const pause = () => new Promise((resolve) => setTimeout(resolve));
// A phone's width (app.css's breakpoint): the filters start folded, and the flow
// graph, whose labels cannot be read there, is not offered.
const NARROW = matchMedia("(max-width: 52rem)");

// The ids of the page elements this script looks up, named here only: the build
// reads this block when it is compiled (crates/build/src/dom_ids.rs) and writes the
// pages with these ids. One `name: "id",` a line.
const ID = Object.freeze({
  offline: "offline",
  newBuild: "new-build",
  reload: "reload",
  search: "search",
  searchForm: "search-form",
  q: "q",
  qComplete: "q-complete",
  understood: "understood",
  facetPanel: "facet-panel",
  facetSummary: "facet-summary",
  facets: "facets",
  applied: "applied",
  notice: "notice",
  suggested: "suggested",
  tabs: "tabs",
  count: "count",
  range: "range",
  top: "top",
  graph: "graph",
  list: "list",
  pager: "pager",
  back: "back",
});

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// ---------------------------------------------------------------- offline
function watchConnection() {
  const badge = document.getElementById(ID.offline);
  const show = () => { if (badge) badge.hidden = navigator.onLine; };
  addEventListener("online", show);
  addEventListener("offline", show);
  show();
}

// ---------------------------------------------------------------- a new build
// The site was deployed anew while this page was open: says so and offers to load
// the page again. (The search itself goes on with the new build as a whole.)
function offerReload() {
  const bar = document.getElementById(ID.newBuild);
  if (!bar || !bar.hidden) return;
  document.getElementById(ID.reload)?.addEventListener("click", () => location.reload(), { once: true });
  bar.hidden = false;
}

// The service worker names its build once it serves this page: another build than
// the page's own is a deploy since the page loaded, and the search page's library
// then asks the site for it.
function watchBuild() {
  navigator.serviceWorker?.addEventListener("message", (e) => {
    const build = e.data?.build;
    if (!version || typeof build !== "string" || build === version) return;
    offerReload();
    const lib = window.incidentSearch?.lib;
    if (lib && lib.core.build !== build) lib.refresh().catch((err) => console.warn("could not load the new build:", err));
  });
}

// Registers the service worker, or asks the known one to look for a new build.
// Called once the page has what it needs: the worker's first install fetches the
// same files, and two fetches of one file at once can wait on each other.
function startServiceWorker() {
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    // Ask for a newer service worker on every page load: a new build then replaces
    // the offline copy as soon as the visitor comes back online.
    const sw = navigator.serviceWorker;
    sw.getRegistration(at("./"))
      .then((reg) => {
        // A known registration is checked for a new build; registering again
        // would not check.
        if (reg) return reg.update();
        return sw.register(at("sw.js"));
      })
      .catch((e) => console.warn("service worker:", e.message));
  }
}

// ---------------------------------------------------------------- back to the results
// An incident page opened from a search: its link to the search page takes the
// visitor back to those results, which that page's URL holds whole. The link has
// its place from the server, so only its words and target change.
function linkBackToResults() {
  const link = document.getElementById(ID.back);
  if (!link || !document.referrer) return;
  const from = new URL(document.referrer);
  if (from.origin !== base.origin || !from.search || (from.pathname !== base.pathname && from.pathname !== base.pathname + "index.html")) return;
  link.href = from.href;
  link.lastElementChild.textContent = link.dataset.results;
}

// ---------------------------------------------------------------- state <-> URL
// `keys`: the index's facet keys; `tabs`: the graph's tabs (see graph.js).
// `aliases`: old slugs of merged values, by facet, read as the values they became.
function readState(keys, tabs, aliases = {}) {
  const p = new URLSearchParams(location.search);
  const filters = [];
  for (const key of keys) for (const v of p.getAll(key)) if (v) filters.push([key, aliases[key]?.get(v) ?? v]);
  const sort = p.get("sort");
  const tab = p.get("tab");
  return {
    q: p.get("q") || "",
    filters,
    sort: sort === "recent" || sort === "relevance" ? sort : null,
    // Clamped: a page past the last shows the last (see run), and no number may
    // overflow what the module reads.
    page: Math.min(100000, Math.max(1, parseInt(p.get("page") || "1", 10) || 1)),
    // Own keys only: `__proto__` or `toString` are in every object.
    tab: !NARROW.matches && Object.hasOwn(tabs, tab ?? "") ? tab : "list",
  };
}

function stateUrl(s) {
  const p = new URLSearchParams();
  if (s.q) p.set("q", s.q);
  for (const [k, v] of s.filters) p.append(k, v);
  if (s.sort) p.set("sort", s.sort);
  if (s.page > 1) p.set("page", String(s.page));
  if (s.tab !== "list") p.set("tab", s.tab);
  const qs = p.toString();
  return location.pathname + (qs ? "?" + qs : "");
}

// ---------------------------------------------------------------- highlighting
// The terms a response read its words as, longest first, as one pattern: made once
// per answer, since a pattern of many terms takes a phone a while to compile.
function highlightPattern(response) {
  const terms = new Set();
  for (const w of response.words) for (const a of w.alternatives) for (const t of a.terms) if (t.length > 1 || /[가-힣]/.test(t)) terms.add(t);
  if (!terms.size) return null;
  const escaped = [...terms].sort((a, b) => b.length - a.length).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp("(" + escaped.join("|") + ")", "giu");
}

function highlighted(text, pattern) {
  if (!pattern) return [document.createTextNode(text)];
  const out = [];
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
    out.push(el("mark", {}, m[0]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

// An excerpt's text with its mark ranges (UTF-16 offsets) as <mark> elements.
// Words typed without spaces between them, with the words they were read as
// (`카카오톡장애` → 카카오톡 · 장애), in query order.
function spacedReadings(r) {
  const groups = new Map();
  for (const w of r.words) {
    if (!w.glued) continue;
    if (!groups.has(w.glued)) groups.set(w.glued, []);
    groups.get(w.glued).push(w.keyboard || w.input);
  }
  return [...groups];
}

// The spaced reading tried, for the no-result message.
function spacedNote(r) {
  const read = spacedReadings(r);
  return read.length ? ` 띄어 읽은 검색어: ${read.map(([, pieces]) => pieces.join(" ")).join(", ")}` : "";
}

function markedText({ text, marks }) {
  const out = [];
  let at = 0;
  for (const [s, e] of marks) {
    if (s > at) out.push(document.createTextNode(text.slice(at, s)));
    out.push(el("mark", {}, text.slice(s, e)));
    at = e;
  }
  if (at < text.length) out.push(document.createTextNode(text.slice(at)));
  return out;
}

// The other sections where a hit's words occur, two at most, each linking to its
// place on the incident page.
function subResults(h) {
  const rest = (h.sub_results || []).filter((e) => e !== h.excerpt).slice(0, 2);
  if (!rest.length) return null;
  return el("ul", { class: "subs" }, rest.map((e) => el("li", {}, el("a", { class: "section", href: e.url }, e.section), " · ", ...markedText(e))));
}

// The columns that each tab of the flow graph shows, by tab, from the index's facet
// keys: every facet but the organisation (no step of an incident's flow) has a tab,
// which starts at its facet and goes on with the next two, in the facets' order and
// round again: cause → component → symptom, …, factor → cause → component.
function graphTabs(keys) {
  const flow = keys.filter((k) => k !== "org");
  return Object.fromEntries(flow.map((k, i) => [k, [...flow.slice(i), ...flow.slice(0, i)].slice(0, 3)]));
}

// ---------------------------------------------------------------- the search page
// The package's loader (pkg/library.js), asked for the files of this page's build.
async function loadLibrary() {
  const { IncidentLibrary } = await import(asset("pkg/library.js"));
  // The URL's query: its words' blocks come while the module loads.
  return IncidentLibrary.open(base, { version, query: new URLSearchParams(location.search).get("q") || "" });
}

class SearchPage {
  constructor(lib) {
    this.lib = lib;
    // The flow graph's module (graph.js).
    this.setFacets(lib.facets());
    this.state = readState(this.keys, this.tabs, this.aliases);
    this.input = document.getElementById(ID.q);
    this.composing = false;
    this.submitAfterComposition = false;
    this.bind();
    // The page comes with the filters folded, so that on a phone the results come
    // first and nothing moves when the script starts; beside the results they open.
    const panel = document.getElementById(ID.facetPanel);
    if (!NARROW.matches) panel.open = true;
    // Folded, its values are written when it is opened (see renderFacets).
    panel.addEventListener("toggle", () => { if (panel.open && this.folded) this.renderFacets(this.folded); });
    // What the notice and suggestions rows say before a query, as the page came
    // with them.
    this.noticeIdle = [...document.getElementById(ID.notice).childNodes];
    this.suggestedIdle = [...document.getElementById(ID.suggested).childNodes];
    this.input.value = this.state.q;
    this.ready = this.render();
  }

  replaceLibrary(lib) {
    this.lib = lib;
    this.setFacets(lib.facets());
    this.render();
  }

  // The facets of the index (every facet, with its labels and values) name the
  // filters that the URL may hold and the tabs of the graph.
  setFacets(facets) {
    this.facets = facets;
    this.keys = facets.map((f) => f.key);
    // The facets whose values a hit shows as tags, as the index says.
    this.hitFacets = facets.filter((f) => f.on_hits).map((f) => f.key);
    // The columns that each tab of the graph shows, by tab.
    this.tabs = graphTabs(this.keys);
    this.labels = {};
    this.aliases = {};
    for (const f of facets) {
      this.labels[f.key] = { ko: f.ko, values: Object.fromEntries(f.values.map((v) => [v.slug, v.ko])) };
      this.aliases[f.key] = new Map(f.values.flatMap((v) => (v.aliases ?? []).map((a) => [a, v.slug])));
    }
  }

  label(facet, slug) {
    return this.labels[facet]?.values[slug] ?? slug;
  }

  bind() {
    const form = document.getElementById(ID.searchForm);
    // Results follow every keystroke, also while a Korean syllable is being
    // composed; the input's value is never written while the user types.
    this.input.addEventListener("input", (e) => {
      this.composing = e.isComposing;
      this.update({ q: this.input.value, page: 1 }, "replace");
    });
    this.input.addEventListener("compositionstart", () => { this.composing = true; });
    this.input.addEventListener("compositionend", () => {
      this.composing = false;
      this.update({ q: this.input.value, page: 1 }, this.submitAfterComposition ? "push" : "replace");
      this.submitAfterComposition = false;
    });
    this.input.addEventListener("keydown", (e) => {
      // Enter that ends a composition also submits: one press is enough.
      if (e.key === "Enter" && (e.isComposing || this.composing)) this.submitAfterComposition = true;
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.update({ q: this.input.value, page: 1 }, "push");
    });
    addEventListener("popstate", () => {
      this.state = readState(this.keys, this.tabs, this.aliases);
      this.input.value = this.state.q;
      this.render();
    });
  }

  update(change, history) {
    const before = stateUrl(this.state);
    this.state = { ...this.state, ...change };
    const url = stateUrl(this.state);
    if (url !== before || history === "push") {
      if (history === "push" && url !== before) window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    }
    this.render();
  }

  toggle(facet, slug) {
    const has = this.state.filters.some(([f, s]) => f === facet && s === slug);
    const filters = has ? this.state.filters.filter(([f, s]) => !(f === facet && s === slug)) : [...this.state.filters, [facet, slug]];
    this.update({ filters, page: 1 }, "push");
  }

  // The request of the current state. While typing, the last word also matches as
  // the start of a longer term.
  request() {
    const s = this.state;
    const request = { query: s.q, filters: s.filters, sort: s.sort ?? undefined, page: s.page, per_page: PER_PAGE, prefix: true };
    if (s.tab !== "list") request.graph = this.tabs[s.tab];
    return request;
  }

  // Replaces the state (as the URL holds it) without a new history entry.
  restate(state) {
    this.state = state;
    window.history.replaceState(null, "", stateUrl(this.state));
  }

  // Renders the state: the loader runs the search, fetching the index files it
  // names round by round (pkg/library.js, `run`). A newer render started meanwhile
  // wins. Listing files that cannot be fetched leave their hits untitled; index
  // files that cannot be, or that belong to a build this page cannot read, show a
  // notice instead of results that would be wrong.
  async render() {
    const generation = (this.generation = (this.generation ?? 0) + 1);
    const list = document.getElementById(ID.list);
    const s = this.state;
    list.setAttribute("aria-busy", "true");
    let r;
    try {
      r = await this.lib.run(this.request(), { untitled: true });
    } catch (e) {
      if (generation !== this.generation) return;
      // A filter from an old or edited link that the index does not know: drop it.
      if (e.name === "FilterError") {
        const known = s.filters.filter(([f, v]) => Object.hasOwn(this.labels, f) && Object.hasOwn(this.labels[f].values, v));
        if (known.length !== s.filters.length) {
          this.restate({ ...s, filters: known });
          return this.render();
        }
      }
      console.warn("index files unavailable:", e);
      const newBuild = e.name === "NewBuildError";
      if (newBuild) offerReload();
      list.removeAttribute("aria-busy");
      this.showUnavailable(newBuild);
      return;
    }
    if (generation !== this.generation) return;
    // A page past the last (an old or edited link): show the last page.
    const last = Math.max(1, Math.ceil(r.total / PER_PAGE));
    if (s.page > last) {
      this.restate({ ...s, page: last });
      return this.render();
    }
    list.removeAttribute("aria-busy");
    this.show(r);
    // Then where each hit's words occur: one small file per hit, so the answer
    // above never waits for them. Asking for ten files takes a phone a while: it
    // is a task of its own.
    if (this.state.q && this.state.tab === "list" && r.hits.length) {
      await pause();
      if (generation !== this.generation) return;
      await this.lib.excerpts(r.hits);
      if (generation === this.generation && r.hits.some((h) => h.excerpt)) this.renderHits(r, highlightPattern(r));
    }
  }

  // The index files a query needs could not be fetched, or belong to a build this
  // page cannot read: says so where the results go.
  showUnavailable(newBuild = false) {
    const list = document.getElementById(ID.list);
    list.hidden = false;
    document.getElementById(ID.graph).hidden = true;
    list.replaceChildren(el("p", { class: "notice", role: "alert" }, newBuild
      ? "사이트가 새로 배포되어 이 페이지로는 검색할 수 없다. 페이지를 새로 고쳐라."
      : "이 검색에 필요한 색인 파일을 받지 못했다. 연결을 확인하고 다시 시도하라."));
  }

  show(r) {
    const pattern = highlightPattern(r);
    this.renderUnderstood(r);
    this.renderFacets(r);
    this.renderApplied();
    this.renderNotice(r);
    this.renderSuggestions(r);
    this.renderTabs();
    this.renderCounts(r);
    this.renderTop(r);
    const graph = document.getElementById(ID.graph);
    const list = document.getElementById(ID.list);
    if (this.state.tab === "list") {
      graph.hidden = true;
      list.hidden = false;
      this.renderHits(r, pattern);
    } else {
      list.hidden = true;
      graph.hidden = false;
      this.renderGraph(r);
    }
    this.renderPager(r);
    // A one-line row that overflows scrolls sideways: then, and only then, it is a
    // tab stop, so that a keyboard can scroll it. Read in the frame that lays the
    // answer out, not by a layout of its own.
    requestAnimationFrame(() => {
      for (const id of [ID.understood, ID.notice, ID.suggested]) {
        const row = document.getElementById(id);
        if (row.scrollWidth > row.clientWidth) row.tabIndex = 0;
        else row.removeAttribute("tabindex");
      }
    });
    document.title = (this.state.q ? `${this.state.q} - ` : "") + "사례 검색 · Incident Library";
  }

  renderUnderstood(r) {
    const node = document.getElementById(ID.understood);
    node.replaceChildren();
    const notes = [];
    const parts = [];
    const shown = (a) => (a.facet ? `${this.labels[a.facet.facet]?.ko ?? a.facet.facet}: ${a.facet.ko}` : a.terms.join(" "));
    for (const [typed, pieces] of spacedReadings(r)) parts.push(el("span", { class: "word" }, typed, " → ", pieces.join(" · "), " (띄어 읽음)"));
    for (const w of r.words) {
      if (w.keyboard && !w.glued) notes.push(`${w.keyboard}(으)로 검색했습니다`);
      if (!w.alternatives.length) {
        parts.push(el("span", { class: "word missing" }, w.input, " → 찾지 못함"));
        continue;
      }
      const first = w.alternatives[0];
      const kinds = { typo: " (오타로 보고 고침)", initials: " (초성)", prefix: "…", segmented: " (띄어 읽음)", joined: " (붙여 읽음)" };
      const readings = [...new Set(w.alternatives.slice(0, 4).map(shown))];
      const label = readings.join(", ") + (w.alternatives.length > 4 ? "…" : "") + (kinds[first.derivation] ?? "");
      if (readings.length > 1 || readings[0] !== w.input || w.keyboard) parts.push(el("span", { class: "word" }, w.input, " → ", label));
    }
    if (notes.length) node.append(el("strong", {}, notes.join(", ")), parts.length ? " · " : "");
    if (parts.length) node.append("이렇게 찾았습니다: ", ...parts.flatMap((p, i) => (i ? [", ", p] : [p])));
    const list = document.getElementById(ID.qComplete);
    if (list) list.replaceChildren(...r.completions.map((c) => el("option", { value: this.completeWith(c) })));
  }

  // The query with its last word replaced by a completion.
  completeWith(term) {
    const q = this.state.q;
    const cut = q.search(/\S+$/);
    return (cut >= 0 ? q.slice(0, cut) : q) + term;
  }

  renderFacets(r) {
    const n = this.state.filters.length;
    document.getElementById(ID.facetSummary).textContent = n ? `분류로 거르기 (${n}개 적용)` : "분류로 거르기";
    // A folded panel (a phone's first view) gets its hundreds of values when it is
    // opened: a first search on a slow phone does not wait for them.
    this.folded = document.getElementById(ID.facetPanel).open ? null : r;
    if (this.folded) return;
    const aside = document.getElementById(ID.facets);
    aside.replaceChildren();
    for (const f of this.facets) {
      const counts = r.facets[f.key] || [];
      const shown = counts.filter((c) => c.count > 0 || c.selected);
      const box = el("fieldset", { class: "facet" }, el("legend", {}, f.ko));
      if (!shown.length) box.append(el("p", { class: "muted" }, "해당 없음"));
      for (const c of shown) {
        const id = `f-${f.key}-${c.slug}`;
        box.append(
          el("div", { class: "opt" },
            el("input", { type: "checkbox", id, checked: c.selected, onchange: () => this.toggle(f.key, c.slug) }),
            el("label", { for: id }, c.ko, " ", el("span", { class: "count" }, c.count)),
          ),
        );
      }
      aside.append(box);
    }
  }

  renderApplied() {
    const node = document.getElementById(ID.applied);
    node.replaceChildren();
    if (!this.state.filters.length) return;
    node.append(el("span", { class: "applied-label" }, "적용된 필터"));
    for (const [f, s] of this.state.filters) {
      node.append(
        el("span", { class: "chip" },
          el("span", { class: "chip-facet" }, this.labels[f]?.ko ?? f), " ", this.label(f, s),
          el("button", { type: "button", class: "chip-x", "aria-label": `${this.label(f, s)} 필터 풀기`, onclick: () => this.toggle(f, s) }, "×"),
        ),
      );
    }
    node.append(el("button", { type: "button", class: "clear", onclick: () => this.update({ filters: [], page: 1 }, "push") }, "모두 풀기"));
  }

  renderNotice(r) {
    const node = document.getElementById(ID.notice);
    node.replaceChildren();
    if (!this.state.q.trim()) {
      if (this.state.filters.length) node.append("검색어 없이 고른 필터로만 추린 목록입니다. 가장 최근 사례가 먼저 나옵니다.");
      else node.append(...this.noticeIdle);
      return;
    }
    const sortButton = (value, text) =>
      el("button", { type: "button", class: "sort", "aria-pressed": r.sort === value ? "true" : "false", onclick: () => this.update({ sort: value, page: 1 }, "push") }, text);
    node.append("정렬: ", sortButton("relevance", "관련도순"), " ", sortButton("recent", "최근순"));
  }

  renderSuggestions(r) {
    const node = document.getElementById(ID.suggested);
    if (!this.state.q.trim()) {
      node.replaceChildren(...this.suggestedIdle);
      return;
    }
    node.replaceChildren(el("span", { class: "suggested-label" }, "추천 필터"));
    if (!r.suggestions.length) {
      node.append(el("span", { class: "muted" }, " 검색어에서 찾은 분류 값이 없습니다."));
      return;
    }
    for (const s of r.suggestions) {
      node.append(" ", el("button", { type: "button", class: "suggestion", onclick: () => this.toggle(s.facet, s.slug) }, `${this.labels[s.facet]?.ko ?? s.facet}: ${s.ko}`));
    }
  }

  renderTabs() {
    const node = document.getElementById(ID.tabs);
    node.replaceChildren();
    const tabs = [...Object.keys(this.tabs).map((key) => [key, this.labels[key].ko]), ["list", "사례"]];
    for (const [key, text] of tabs) {
      const selected = this.state.tab === key;
      node.append(
        el("button", {
          type: "button", role: "tab", id: `tab-${key}`, "aria-selected": selected ? "true" : "false",
          "aria-controls": key === "list" ? ID.list : ID.graph, tabindex: selected ? "0" : "-1",
          onclick: () => this.update({ tab: key }, "push"),
          onkeydown: (e) => {
            const i = tabs.findIndex(([k]) => k === key);
            const next = e.key === "ArrowRight" ? tabs[(i + 1) % tabs.length] : e.key === "ArrowLeft" ? tabs[(i + tabs.length - 1) % tabs.length] : null;
            if (next) { e.preventDefault(); this.update({ tab: next[0] }, "push"); document.getElementById(`tab-${next[0]}`)?.focus(); }
          },
        }, text),
      );
    }
  }

  renderCounts(r) {
    document.getElementById(ID.count).textContent = `사례 ${r.total}건`;
    const first = r.total ? (r.page - 1) * r.per_page + 1 : 0;
    const last = Math.min(r.total, r.page * r.per_page);
    const cut = r.cut ? " · 검색어가 길어 앞부분만 찾았습니다" : "";
    document.getElementById(ID.range).textContent = r.total ? `${r.total}건 중 ${first}~${last}번째${cut}`
      : r.unsearchable ? "검색할 수 있는 낱말이 없습니다. 글자나 숫자로 된 낱말을 넣어 보세요."
      : "맞는 사례가 없습니다. 낱말을 줄이거나 필터를 풀어 보세요." + spacedNote(r);
  }

  renderTop(r) {
    const node = document.getElementById(ID.top);
    node.replaceChildren();
    if (!r.total) return;
    // Ties keep the taxonomy's order (a stable sort): comparing labels by locale
    // took a phone a tenth of a second per answer.
    const top = (key) => (r.facets[key] || []).filter((c) => c.in_results > 0).sort((a, b) => b.in_results - a.in_results).slice(0, 3);
    const comps = top("component");
    const causes = top("cause");
    const names = (list) => list.map((c) => `${c.ko}(${c.in_results})`).join(", ");
    node.append(`이 ${r.total}건에서 가장 많이 나오는 구성 요소: ${names(comps) || "–"} · 원인: ${names(causes) || "–"}`);
  }

  renderHits(r, pattern) {
    const list = document.getElementById(ID.list);
    const item = (h) => {
      const tags = el("ul", { class: "tags" });
      for (const key of this.hitFacets) {
        for (const slug of h.facets[key] || []) tags.append(el("li", { class: `tag ${key}` }, this.label(key, slug)));
      }
      return el("li", { class: h.full ? "hit" : "hit partial" },
        el("h3", {}, el("a", { href: at(`incidents/${encodeURIComponent(h.id)}/`) }, ...highlighted(h.title || h.id, pattern))),
        el("p", { class: "kicker" }, `${h.id} · ${this.label("org", h.org)} · `, el("time", { datetime: h.date.split("/")[0] }, h.date_label || h.date),
          h.full ? null : el("span", { class: "missing" }, ` · 빠진 단어: ${h.missing.join(", ")}`)),
        tags,
        h.excerpt
          ? el("p", { class: "snippet excerpt" }, el("a", { class: "section", href: h.excerpt.url }, h.excerpt.section), " · ", ...markedText(h.excerpt))
          : el("p", { class: "snippet" }, ...highlighted(h.summary, pattern)),
        subResults(h),
      );
    };
    // Hits that match every word come first; the rest follow a line that says so,
    // and which words the library has nowhere.
    const first = (r.page - 1) * r.per_page + 1;
    const cut = r.hits.findIndex((h) => !h.full);
    const full = cut < 0 ? r.hits : r.hits.slice(0, cut);
    const parts = [];
    if (full.length) parts.push(el("ol", { class: "hits", start: first }, full.map(item)));
    if (cut >= 0) {
      const nowhere = r.words.filter((w) => !w.alternatives.length).map((w) => w.input);
      const note = r.full ? "일부 단어만 맞는 사례" : "모든 단어가 맞는 사례는 없습니다 · 일부 단어만 맞는 사례";
      parts.push(el("p", { class: "partial-note", id: "partial-note" }, note + (nowhere.length ? ` · 없는 단어: ${nowhere.join(", ")}` : "")));
      parts.push(el("ol", { class: "hits", start: first + cut }, r.hits.slice(cut).map(item)));
    }
    list.replaceChildren(...parts);
    // On a phone the hits past the third are laid out after the frame that draws
    // the first three (app.css).
    list.dataset.drawing = "";
    requestAnimationFrame(() => setTimeout(() => list.removeAttribute("data-drawing")));
  }

  renderGraph(r) {
    // A node applies its value as a filter, unless it is applied already.
    const apply = (facet, slug) => {
      if (!this.state.filters.some(([f, s]) => f === facet && s === slug)) this.toggle(facet, slug);
    };
    // The graph's code is fetched when a graph is first shown, not before the first
    // answer.
    const node = document.getElementById(ID.graph);
    const generation = this.generation;
    import(asset("graph.js")).then((g) => {
      if (generation === this.generation) g.drawGraph(node, r.graph, this.labels, apply);
    }, (e) => console.warn("graph unavailable:", e));
  }

  renderPager(r) {
    const nav = document.getElementById(ID.pager);
    nav.replaceChildren();
    const pages = Math.ceil(r.total / r.per_page);
    if (pages <= 1 || this.state.tab !== "list") return;
    const go = (p) => { this.update({ page: p }, "push"); document.getElementById(ID.count).scrollIntoView({ block: "start" }); };
    nav.append(el("button", { type: "button", disabled: r.page <= 1, onclick: () => go(r.page - 1) }, "이전"));
    for (let p = 1; p <= pages; p++) {
      nav.append(el("button", { type: "button", class: "page", "aria-current": p === r.page ? "page" : null, onclick: () => go(p) }, p));
    }
    nav.append(el("button", { type: "button", disabled: r.page >= pages, onclick: () => go(r.page + 1) }, "다음"));
  }
}

watchConnection();
watchBuild();
linkBackToResults();
if (document.getElementById(ID.search)) {
  loadLibrary()
    .finally(startServiceWorker)
    .then(async (lib) => {
      window.incidentSearch = new SearchPage(lib);
      await window.incidentSearch.ready;
      document.body.dataset.ready = "true";
      // A deploy since the page loaded: the search goes on with the new build (its
      // facets may differ), and the page offers to load itself again.
      lib.addEventListener("newbuild", () => {
        offerReload();
        window.incidentSearch.replaceLibrary(lib);
      });
    })
    .catch((e) => {
      console.warn("search unavailable:", e);
      const note = document.getElementById(ID.notice);
      if (note) note.textContent = "검색 모듈을 불러오지 못했습니다. 아래 목록은 모든 사례입니다.";
      document.body.dataset.ready = "failed";
    });
} else if (document.readyState === "complete") {
  startServiceWorker();
} else {
  addEventListener("load", startServiceWorker, { once: true });
}
