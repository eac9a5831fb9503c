// The embeddable widget on a page of another origin: results render, presets
// apply, one loaded copy serves several widgets, loading waits until a widget is
// in view, a click opens the library's incident page, and no style crosses the
// shadow boundary either way.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { serve, launch, openPage, native, repo, hostPages, fixtureCorpus } from "./helpers.mjs";

let library, host, browser, hostUrl;
const pages = {};
before(async () => {
  library = await serve();
  browser = await launch();
  host = await hostPages(pages);
  hostUrl = host.url;
  const lib = library.url;
  pages["/docs.html"] = `<!doctype html><html lang="ko"><head><meta charset="utf-8">
<link rel="icon" href="data:,"><style>a { color: rgb(255, 0, 0) !important; font-size: 40px !important; } p { color: rgb(0, 128, 0); } .tag, li { display: none !important; }</style>
<script type="module" src="${lib}widget.js"></script></head><body>
<p id="host-p">호스트 문단 <a id="host-a" href="#x">호스트 링크</a></p>
<incident-search id="w1" base="${lib}" component="cdn-edge" limit="3"></incident-search>
<incident-search id="w2" base="${lib}" layout="search" query="재시도" cause="retry-amplification" lang="en" theme="dark" limit="5"></incident-search>
</body></html>`;
  // The shipped example docs page, served from the other origin and pointed at the library.
  pages["/embed.html"] = readFileSync(join(repo, "www/examples/embed.html"), "utf8").replaceAll('"../', `"${lib}`);
  pages["/bad-filter.html"] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="${lib}widget.js"></script></head>
<body><incident-search id="ko" base="${lib}" cause="no-such-cause"></incident-search><incident-search id="en" lang="en" base="${lib}" cause="no-such-cause"></incident-search></body></html>`;
  pages["/lazy.html"] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="${lib}widget.js"></script></head>
<body><div style="height: 4000px">위</div><incident-search id="far" base="${lib}" query="냉각기"></incident-search></body></html>`;
});
after(async () => {
  await browser?.close();
  library?.stop();
  host?.close();
});

const shadowTexts = (page, id, sel) => page.evaluate(([id, sel]) => [...document.getElementById(id).shadowRoot.querySelectorAll(sel)].map((e) => e.textContent), [id, sel]);
/** Waits until widget `id` lists `titles` (its hits' links), and says what it shows when it does not. */
const showsTitles = (page, id, titles, what = "") =>
  page
    .waitForFunction(([id, t]) => JSON.stringify([...document.getElementById(id).shadowRoot.querySelectorAll("li > a")].map((a) => a.textContent)) === t, [id, JSON.stringify(titles)], { timeout: 15_000 })
    .catch(async () => assert.deepEqual(await shadowTexts(page, id, "li > a"), titles, what));

test("widgets on another origin: presets, one shared copy, no style leakage", async () => {
  const { context, page } = await openPage(browser);
  let metaLoads = 0;
  page.on("request", (r) => { if (r.url().includes("/index/meta.bin")) metaLoads++; });
  await page.goto(hostUrl + "/docs.html");
  const before = await page.evaluate(() => ({ sheets: document.styleSheets.length, p: getComputedStyle(document.getElementById("host-p")).color, a: getComputedStyle(document.getElementById("host-a")).color }));
  await page.waitForFunction(() => ["w1", "w2"].every((id) => document.getElementById(id).dataset.ready));
  assert.equal(await page.evaluate(() => document.getElementById("w1").dataset.ready), "true", page.errors.join("; "));

  // Presets: the first widget shows exactly what the library gives for its filter.
  const want = native(library, "", "--filter", "component=cdn-edge", "--limit", "3");
  const titles = await shadowTexts(page, "w1", "li > a");
  assert.deepEqual(titles, want.hits.map((h) => h.title));
  assert.ok(titles.length > 0);
  // The second: its own query box, English labels, a cause filter.
  const want2 = native(library, "재시도", "--filter", "cause=retry-amplification", "--limit", "5");
  assert.deepEqual(await shadowTexts(page, "w2", "li > a"), want2.hits.map((h) => h.title));
  // The search layout is headed as a search, in its language.
  assert.deepEqual(await shadowTexts(page, "w2", "h2"), ["Search incidents"]);
  assert.deepEqual(await shadowTexts(page, "w1", "h2"), ["관련 사례"]);
  assert.equal(metaLoads, 1, "several widgets share one loaded copy");

  // No leakage: host rules do not reach the widget; the widget does not restyle the host.
  const inside = await page.evaluate(() => {
    const a = document.getElementById("w1").shadowRoot.querySelector("li > a");
    const li = a.closest("li");
    return { color: getComputedStyle(a).color, size: getComputedStyle(a).fontSize, li: getComputedStyle(li).display };
  });
  assert.notEqual(inside.color, "rgb(255, 0, 0)");
  assert.notEqual(inside.size, "40px");
  assert.notEqual(inside.li, "none");
  const afterLoad = await page.evaluate(() => ({ sheets: document.styleSheets.length, p: getComputedStyle(document.getElementById("host-p")).color, a: getComputedStyle(document.getElementById("host-a")).color }));
  assert.deepEqual(afterLoad, before);

  // Typing in the search layout updates its results.
  await page.locator("#w2 input").fill("냉각기");
  await showsTitles(page, "w2", native(library, "냉각기", "--filter", "cause=retry-amplification", "--limit", "5").hits.map((h) => h.title));

  // Partial matches rank as natively too: a word no record has, and a Hangul name.
  for (const q of ["재시도 없는낱말", "클라우드플레어 재시도"]) {
    await page.locator("#w2 input").fill(q);
    await showsTitles(page, "w2", native(library, q, "--filter", "cause=retry-amplification", "--limit", "5").hits.map((h) => h.title), q);
  }

  // A facet attribute set later: the widget follows it.
  await page.evaluate(() => document.getElementById("w1").setAttribute("component", "app-database"));
  const want3 = native(library, "", "--filter", "component=app-database", "--limit", "3");
  await page.waitForFunction((t) => JSON.stringify([...document.getElementById("w1").shadowRoot.querySelectorAll("li > a")].map((a) => a.textContent)) === t, JSON.stringify(want3.hits.map((h) => h.title)));
  await page.evaluate(() => document.getElementById("w1").setAttribute("component", "cdn-edge"));
  await page.waitForFunction((t) => JSON.stringify([...document.getElementById("w1").shadowRoot.querySelectorAll("li > a")].map((a) => a.textContent)) === t, JSON.stringify(titles));

  // A click opens the incident page on the library's origin.
  const [popup] = await Promise.all([context.waitForEvent("page"), page.locator("#w1 li > a").first().click()]);
  await popup.waitForLoadState();
  assert.ok(popup.url().startsWith(library.url + "incidents/IL-"), popup.url());
  assert.match(await popup.locator("h1").innerText(), /\S/);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("the example docs page works from another origin", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(hostUrl + "/embed.html");
  await page.waitForFunction(() => [...document.querySelectorAll("incident-search")].every((w) => w.dataset.ready));
  const widgets = await page.evaluate(() => [...document.querySelectorAll("incident-search")].map((w) => ({ ready: w.dataset.ready, hits: w.shadowRoot.querySelectorAll("li > a").length, base: w.getAttribute("base") })));
  assert.equal(widgets.length, 2);
  for (const w of widgets) {
    assert.equal(w.ready, "true");
    assert.ok(w.hits > 0);
    assert.ok(w.base.startsWith(library.url));
  }
  assert.ok(!page.url().startsWith(library.url), "the page is on another origin");
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("a filter value the library does not know is said in the widget's language", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(hostUrl + "/bad-filter.html");
  // Once the widget has tried its search: its status says more than that it loads.
  const status = (id) =>
    page.waitForFunction((id) => {
      const el = document.getElementById(id);
      const text = el.shadowRoot?.querySelector("[role=status]")?.textContent;
      return el.dataset.ready && text && text;
    }, id).then((h) => h.jsonValue());
  assert.match(await status("ko"), /필터 값을 라이브러리가 알지 못합니다.*no-such-cause/);
  assert.match(await status("en"), /^The library does not know a filter value of this widget.*no-such-cause/);
  await context.close();
});

test("a widget loads only when it comes into view", async () => {
  const { context, page } = await openPage(browser);
  let loads = 0;
  page.on("request", (r) => { if (r.url().includes("/index/meta.bin")) loads++; });
  await page.goto(hostUrl + "/lazy.html");
  // Once the page and its network are idle, nothing has loaded the index.
  await page.waitForLoadState("networkidle");
  assert.equal(loads, 0, "nothing loads while the widget is out of view");
  await page.locator("#far").scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.getElementById("far").dataset.ready === "true");
  assert.equal(loads, 1);
  assert.match((await shadowTexts(page, "far", "li > a"))[0], /Australia East/);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("the widget's own JS stays small", () => {
  const js = ["widget.js", "pkg/library.js"].map((f) => readFileSync(join(library.out, f)));
  const gz = js.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
  assert.ok(gz <= 15_000, `widget JS is ${gz} bytes gzip`);
});

test("the shipped examples work: dist/examples/embed.html and the no-bundler page", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(library.url + "examples/embed.html");
  await page.waitForFunction(() => [...document.querySelectorAll("incident-search")].every((w) => w.dataset.ready === "true"));
  const counts = await page.evaluate(() => [...document.querySelectorAll("incident-search")].map((w) => w.shadowRoot.querySelectorAll("li").length));
  assert.equal(counts.length, 2);
  assert.ok(counts.every((n) => n > 0), String(counts));
  await page.goto(library.url + "examples/search.html");
  await page.waitForFunction(() => document.querySelectorAll("#hits li").length > 0);
  assert.match(await page.locator("#hits li").first().innerText(), /Sweden Central/);
  // The npm package: the same ranking, full and partial matches, as the CLI.
  for (const q of ["낙뢰로 냉각기가 멈춘 호주 리전 없는낱말", "certificate expiry", "깃허브 데이터베이스 페일오버"]) {
    const got = await page.evaluate(async ([base, q]) => {
      const { IncidentLibrary } = await import(base + "pkg/library.js");
      const lib = await IncidentLibrary.open(base);
      const r = await lib.search(q, { prefix: true });
      return { full: r.full, hits: r.hits.map((h) => [h.id, h.full, h.missing]) };
    }, [library.url, q]);
    const want = native(library, q);
    assert.equal(got.full, want.full, q);
    assert.deepEqual(got.hits, want.hits.map((h) => [h.id, h.full, h.missing]), q);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("a widget whose base is another site runs no script of that site: base is only where the data is", async () => {
  const other = await serve(fixtureCorpus(5));
  try {
    pages["/foreign.html"] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="${library.url}widget.js"></script></head>
<body><incident-search id="f" base="${other.url}" limit="3"></incident-search></body></html>`;
    const { context, page } = await openPage(browser);
    const scripts = [];
    page.on("request", (r) => {
      if (r.url().startsWith(other.url) && /\.(m?js|wasm)(\?|$)/.test(r.url())) scripts.push(r.url());
    });
    await page.goto(hostUrl + "/foreign.html");
    await page.waitForFunction(() => document.getElementById("f").shadowRoot?.querySelectorAll("li").length > 0, null, { timeout: 30_000 });
    assert.deepEqual(scripts, [], "no script or module is fetched from the base's origin");
    const want = native(other, "");
    const titles = await shadowTexts(page, "f", "li a");
    assert.ok(titles.length > 0 && titles.every((t) => want.hits.some((h) => t.includes(h.title) || h.title.includes(t))), titles.join(" | "));
    assert.deepEqual(page.errors, []);
    await context.close();
  } finally {
    other.stop();
  }
});
