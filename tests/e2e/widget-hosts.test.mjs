// The widget on the kind of pages docs sites are: a library deployed under a subpath
// and named without its trailing slash, a host page that switches to dark mode the
// way VitePress and Material for MkDocs do, pages with a Content-Security-Policy
// with and without the directives the README names, and keyboard use.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync, existsSync, statSync } from "node:fs";
import { join, extname, normalize } from "node:path";
import { serve, launch, openPage, native, screenshots } from "./helpers.mjs";

const TYPES = { ".js": "text/javascript", ".wasm": "application/wasm", ".bin": "application/octet-stream", ".json": "application/json", ".html": "text/html; charset=utf-8", ".css": "text/css" };

let library, deployed, host, browser, hostUrl, subBase;
const pages = {};
const csp = {};

before(async () => {
  library = await serve();
  browser = await launch();
  // The built library deployed under /docs/incidents/ on its own origin, with CORS,
  // as a static host serves it.
  deployed = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const rest = path.startsWith("/docs/incidents/") ? path.slice("/docs/incidents/".length) : null;
    let file = rest === null ? null : join(library.out, normalize(rest).replace(/^(\.\.[/\\])+/, ""));
    if (file && existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!file || !existsSync(file)) {
      res.writeHead(404, { "access-control-allow-origin": "*" });
      return res.end();
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream", "access-control-allow-origin": "*" });
    res.end(readFileSync(file));
  });
  await new Promise((r) => deployed.listen(0, "127.0.0.1", r));
  subBase = `http://127.0.0.1:${deployed.address().port}/docs/incidents`;
  host = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const body = pages[path];
    const headers = { "content-type": "text/html; charset=utf-8" };
    if (csp[path]) headers["content-security-policy"] = csp[path];
    res.writeHead(body ? 200 : 404, headers);
    res.end(body || "");
  });
  await new Promise((r) => host.listen(0, "127.0.0.1", r));
  hostUrl = `http://localhost:${host.address().port}`;
  const lib = library.url;
  const libOrigin = new URL(lib).origin;
  const page = (head, body) => `<!doctype html><html lang="ko"><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}</head><body>${body}</body></html>`;
  pages["/subpath.html"] = page(`<script type="module" src="${subBase}/widget.js"></script>`,
    `<incident-search id="w" base="${subBase}" layout="search" query="냉각기" limit="3"></incident-search>`);
  // VitePress marks dark mode with html.dark; Material for MkDocs with data-md-color-scheme.
  pages["/vitepress.html"] = page(`<script type="module" src="${lib}widget.js"></script>`,
    `<incident-search id="w" base="${lib}" query="냉각기" limit="3"></incident-search>`);
  pages["/material.html"] = page(`<script type="module" src="${lib}widget.js"></script>`,
    `<incident-search id="w" base="${lib}" query="냉각기" limit="3" theme="auto"></incident-search>`).replace("<body>", '<body data-md-color-scheme="default">');
  const widgetPage = page(`<script type="module" src="${lib}widget.js"></script>`,
    `<incident-search id="w" base="${lib}" layout="search" query="재시도" cause="retry-amplification" limit="4"></incident-search>`);
  pages["/csp-ok.html"] = widgetPage;
  csp["/csp-ok.html"] = `default-src 'self'; script-src 'self' ${libOrigin} 'wasm-unsafe-eval'; connect-src ${libOrigin}; style-src 'self'`;
  pages["/csp-blocked.html"] = widgetPage;
  csp["/csp-blocked.html"] = `default-src 'self'; script-src 'self' ${libOrigin}; connect-src ${libOrigin}; style-src 'self'`;
  pages["/keys.html"] = widgetPage;
  pages["/nowhere.html"] = page(`<script type="module" src="${lib}widget.js"></script>`,
    `<incident-search id="w" base="${hostUrl}/no-library-here/" query="냉각기"></incident-search>`);
});
after(async () => {
  await browser?.close();
  library?.stop();
  deployed?.close();
  host?.close();
});

const inShadow = (page, sel) => page.evaluate((sel) => [...document.getElementById("w").shadowRoot.querySelectorAll(sel)].map((e) => e.textContent), sel);
const ready = (page) => page.waitForFunction(() => document.getElementById("w")?.dataset.ready);
const boxColor = (page) => page.evaluate(() => getComputedStyle(document.getElementById("w").shadowRoot.querySelector(".box")).backgroundColor);

test("a library under a subpath, named without its trailing slash", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(hostUrl + "/subpath.html");
  await ready(page);
  assert.equal(await page.evaluate(() => document.getElementById("w").dataset.ready), "true", page.errors.join("; "));
  assert.deepEqual(await inShadow(page, "li > a"), native(library, "냉각기", "--limit", "3").hits.map((h) => h.title));
  const links = await page.evaluate(() => [...document.getElementById("w").shadowRoot.querySelectorAll("a")].map((a) => a.href));
  assert.ok(links.every((h) => h.startsWith(subBase + "/")), links.join(" "));
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("theme auto follows the host page's dark mode as it is switched", async () => {
  const { context, page } = await openPage(browser, { colorScheme: "light" });
  await page.goto(hostUrl + "/vitepress.html");
  await ready(page);
  const light = await boxColor(page);
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await page.waitForFunction((light) => getComputedStyle(document.getElementById("w").shadowRoot.querySelector(".box")).backgroundColor !== light, light);
  const dark = await boxColor(page);
  assert.notEqual(dark, light);
  await page.screenshot({ path: join(screenshots, "widget-host-dark.png") });
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.waitForFunction((light) => getComputedStyle(document.getElementById("w").shadowRoot.querySelector(".box")).backgroundColor === light, light);

  // Material for MkDocs: the palette toggle sets data-md-color-scheme on the body.
  await page.goto(hostUrl + "/material.html");
  await ready(page);
  assert.equal(await boxColor(page), light);
  await page.evaluate(() => document.body.setAttribute("data-md-color-scheme", "slate"));
  await page.waitForFunction((dark) => getComputedStyle(document.getElementById("w").shadowRoot.querySelector(".box")).backgroundColor === dark, dark);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("under a Content-Security-Policy: works with the documented directives, says why without them", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(hostUrl + "/csp-ok.html");
  await ready(page);
  assert.equal(await page.evaluate(() => document.getElementById("w").dataset.ready), "true");
  assert.deepEqual(await inShadow(page, "li > a"), native(library, "재시도", "--filter", "cause=retry-amplification", "--limit", "4").hits.map((h) => h.title));
  await page.screenshot({ path: join(screenshots, "widget-csp.png") });
  await context.close();

  const blocked = await openPage(browser);
  await blocked.page.goto(hostUrl + "/csp-blocked.html");
  await ready(blocked.page);
  assert.equal(await blocked.page.evaluate(() => document.getElementById("w").dataset.ready), "csp");
  const [status] = await blocked.page.evaluate(() => [...document.getElementById("w").shadowRoot.querySelectorAll("[role=status]")].map((e) => e.textContent));
  assert.match(status, /Content-Security-Policy/);
  assert.match(status, /'wasm-unsafe-eval'/);
  await blocked.context.close();
});

test("a base that serves no library is named in the message", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(hostUrl + "/nowhere.html");
  await ready(page);
  assert.equal(await page.evaluate(() => document.getElementById("w").dataset.ready), "failed");
  const [status] = await inShadow(page, "[role=status]");
  assert.ok(status.includes(hostUrl + "/no-library-here/"), status);
  await context.close();
});

test("search layout: its heading, the preset as a chip, the total, a link to the full search, arrow keys", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(hostUrl + "/keys.html");
  await ready(page);
  assert.deepEqual(await inShadow(page, "h2"), ["사례 검색"]);
  assert.deepEqual(await inShadow(page, ".chips .tag"), ["재시도 증폭 ×"]);
  const want = native(library, "재시도", "--filter", "cause=retry-amplification", "--limit", "4");
  const [total] = await inShadow(page, ".foot .meta");
  assert.equal(total, `${want.total}건 중 ${want.hits.length}건`);
  const more = await page.evaluate(() => document.getElementById("w").shadowRoot.querySelector(".foot a").href);
  const url = new URL(more);
  assert.equal(url.origin + url.pathname, library.url);
  assert.equal(url.searchParams.get("q"), "재시도");
  assert.deepEqual(url.searchParams.getAll("cause"), ["retry-amplification"]);

  // From the box, ArrowDown reaches the first result, then the next; ArrowUp goes back.
  await page.locator("#w input").focus();
  await page.keyboard.press("ArrowDown");
  const focused = () => page.evaluate(() => document.getElementById("w").shadowRoot.activeElement?.textContent ?? null);
  assert.equal(await focused(), want.hits[0].title);
  await page.keyboard.press("ArrowDown");
  assert.equal(await focused(), want.hits[1].title);
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  assert.equal(await page.evaluate(() => document.getElementById("w").shadowRoot.activeElement?.tagName), "INPUT");

  // A heading attribute replaces the default one; an empty one removes it.
  await page.evaluate(() => document.getElementById("w").setAttribute("heading", "장애 사례"));
  assert.deepEqual(await inShadow(page, "h2"), ["장애 사례"]);
  await page.evaluate(() => document.getElementById("w").setAttribute("heading", ""));
  assert.deepEqual(await inShadow(page, "h2"), []);

  // The preset chip is a button that takes its filter off, in this widget only.
  const chip = page.locator("#w").locator("button.chip");
  assert.equal(await chip.getAttribute("aria-label"), "재시도 증폭 필터 풀기");
  await chip.click();
  const free = native(library, "재시도", "--limit", "4");
  await page.waitForFunction((t) => document.getElementById("w").shadowRoot.querySelector(".foot .meta")?.textContent === t, `${free.total}건 중 ${free.hits.length}건`);
  assert.deepEqual(await inShadow(page, ".chips .tag"), []);
  const after = new URL(await page.evaluate(() => document.getElementById("w").shadowRoot.querySelector(".foot a").href));
  assert.deepEqual(after.searchParams.getAll("cause"), []);
  assert.equal(await page.evaluate(() => document.getElementById("w").getAttribute("cause")), "retry-amplification");
  assert.deepEqual(page.errors, []);
  await context.close();
});
