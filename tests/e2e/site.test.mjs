// The site around the search: pages without JavaScript, typography, accessible
// controls, `serve` rebuilding on corpus edits, and a new build replacing the
// offline caches.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, start, launch, openPage, ready, shippedData, native, screenshots } from "./helpers.mjs";

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

test("every page is readable without JavaScript", async () => {
  const { context, page } = await openPage(browser, { javaScriptEnabled: false });
  await page.goto(server.url);
  // The search page lists the newest 20; "다음" walks the static pages through the rest.
  const total = native(server, "", "--limit", "100000").total;
  let seen = await page.locator("#list .hit").count();
  assert.equal(seen, Math.min(20, total));
  while (await page.locator('a[rel="next"]').count()) {
    await page.locator('a[rel="next"]').first().click();
    seen += await page.locator("ol.hits .hit").count();
  }
  assert.equal(seen, total, "the static pages list every incident");
  await page.goto(server.url);
  assert.ok(await page.locator("#facets a", { hasText: "재시도 증폭" }).count());
  await page.locator("#list .hit a").first().click();
  assert.match(page.url(), /incidents\/IL-\d{4}\/$/);
  // Every section the page on reading a record names, in its order, then the sources.
  const incident = page.url();
  await page.goto(server.url + "about/");
  const sections = await page.locator("article.about dl dt").allInnerTexts();
  await page.goto(incident);
  const headings = await page.locator("article h2").allInnerTexts();
  const order = sections.filter((s) => headings.includes(s));
  assert.deepEqual(order, headings.filter((h) => sections.includes(h)), "the page follows the reading order");
  assert.ok(order.length >= sections.length - 2, `${headings}`);
  for (const heading of ["출처", "관련 사례"]) assert.ok(headings.includes(heading), heading);
  for (const label of ["심각도", "영향 범위", "영향 사용자", "지역", "감지까지", "복구까지"]) {
    assert.ok(await page.locator("dl.meta dt", { hasText: label }).count(), label);
  }
  await page.locator("a.tag").first().click();
  assert.match(page.url(), /topics\/[a-z]+\/[a-z0-9-]+\/$/);
  assert.ok(await page.locator(".description").innerText());
  assert.ok(await page.locator("ol.hits li").count() >= 1);
  await page.goto(server.url + "about/");
  assert.match(await page.locator("h1").innerText(), /읽는 법/);
  await context.close();
});

test("Korean typography and accessible controls", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(server.url);
  await ready(page);
  const style = await page.evaluate(() => ({ wb: getComputedStyle(document.body).wordBreak, font: getComputedStyle(document.body).fontFamily, lang: document.documentElement.lang }));
  assert.equal(style.wb, "keep-all");
  assert.match(style.font, /Noto Sans (KR|CJK KR)/);
  assert.equal(style.lang, "ko");
  // The query box has a label; the facet options are labelled checkboxes.
  await page.getByRole("combobox", { name: "사례 검색" }).fill("배포");
  await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "배포");
  // The results of 배포 are drawn (the facet list is drawn anew with them): only then
  // is the first checkbox the one that stays.
  const want = native(server, "배포");
  await page.waitForFunction((n) => document.querySelector("#count")?.textContent === `사례 ${n}건` && !document.querySelector('#list[aria-busy="true"]'), want.total);
  const box = page.getByRole("checkbox").first();
  await box.focus();
  await page.keyboard.press("Space");
  await page.waitForFunction(() => document.querySelectorAll("#applied .chip").length === 1);
  // Tabs follow the arrow keys.
  await page.getByRole("tab", { name: "사례" }).focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => new URL(location.href).searchParams.get("tab") === "cause");
  assert.equal(await page.getByRole("tab", { name: "원인" }).getAttribute("aria-selected"), "true");
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("serve rebuilds when a record changes, and a new build replaces the offline caches", async () => {
  const data = join(mkdtempSync(join(tmpdir(), "il-watch-")), "data");
  cpSync(shippedData, data, { recursive: true });
  const out = join(mkdtempSync(join(tmpdir(), "il-watch-out-")), "dist");
  const watched = await start(["--data", data, "--out", out], out);
  const url = watched.url;
  try {
    const { context, page } = await openPage(browser);
    await page.goto(url);
    await ready(page);
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    const swBefore = await (await fetch(url + "sw.js")).text();
    const cacheBefore = "incident-library-" + swBefore.match(/VERSION = "(\w+)"/)[1];

    // Edit a record: a word no record had.
    const file = join(data, "incidents", "IL-0001.md");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^title = "/m, 'title = "무지개송어 뒤에 '));
    let rebuilt = false;
    for (let i = 0; i < 200 && !rebuilt; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rebuilt = (await (await fetch(url + "incidents/IL-0001/")).text()).includes("무지개송어 뒤에");
    }
    assert.ok(rebuilt, "serve rebuilt the bundle:\n" + watched.log);
    assert.notEqual(await (await fetch(url + "sw.js")).text(), swBefore, "the service worker's version changed");

    // The browser picks up the new service worker, drops the old cache and finds the word.
    let found = false;
    // Pages name their build's assets, so the very next visit searches the new index,
    // even before the new service worker has taken over.
    await page.goto(url + "?q=" + encodeURIComponent("무지개송어"));
    await ready(page);
    const want = native({ out }, "무지개송어");
    assert.ok(want.total >= 1 && want.hits[0].id === "IL-0001", JSON.stringify(want.hits));
    assert.equal(await page.locator("#count").innerText(), `사례 ${want.total}건`, "the new index is searched after a new build");
    // The browser installs the new service worker on its own schedule; ask for it
    // now, as it would, and check that the new one replaces the old cache. Installing
    // keeps every index file first, which takes a while on a loaded machine: the wait
    // is bounded by time, not by a count of tries.
    let stale = [];
    let workers = {};
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      ({ stale, workers } = await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        if (!reg.installing && !reg.waiting) await reg.update().catch(() => {});
        await new Promise((r) => setTimeout(r, 500));
        const state = (w) => w?.state ?? null;
        return {
          stale: (await caches.keys()).filter((k) => k.startsWith("incident-library-")),
          workers: { installing: state(reg.installing), waiting: state(reg.waiting), active: state(reg.active) },
        };
      }));
      if (stale.length === 1 && stale[0] !== cacheBefore) break;
    }
    assert.equal(stale.length, 1, `stale caches remain: ${stale} (the old one: ${cacheBefore}; workers: ${JSON.stringify(workers)})`);
    const newVersion = (await (await fetch(url + "sw.js")).text()).match(/VERSION = "(\w+)"/)[1];
    assert.equal(stale[0], "incident-library-" + newVersion);
    // A fetch the old worker still had in flight does not make its cache again.
    await page.reload();
    await ready(page);
    const kept = await page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith("incident-library-")));
    assert.deepEqual(kept, stale, "only the new build's cache is left");
    assert.deepEqual(page.errors, []);
    await context.close();
  } finally {
    watched.stop();
  }
});

test("a deploy under an open tab: its search goes on with the new build as a whole, and the page offers to reload", async () => {
  // With no service worker (the network alone) and with one (which then claims the
  // tab for the new build).
  for (const serviceWorkers of ["block", "allow"]) {
    const data = join(mkdtempSync(join(tmpdir(), "il-deploy-")), "data");
    cpSync(shippedData, data, { recursive: true });
    const out = join(mkdtempSync(join(tmpdir(), "il-deploy-out-")), "dist");
    const deployed = await start(["--data", data, "--out", out], out);
    try {
      const { context, page } = await openPage(browser, { serviceWorkers });
      await page.goto(deployed.url);
      await ready(page);
      if (serviceWorkers === "allow") await page.evaluate(async () => { await navigator.serviceWorker.ready; });
      const words = ["무지개송어", "재연결", "재배포", "DNS", "인증서 만료"];
      const old = Object.fromEntries(words.map((q) => [q, native({ out }, q)]));
      assert.equal(old["무지개송어"].total, 0);

      // The deploy: a record between two others, so the incident numbers after it
      // shift and no file of the old build lines up with the new one.
      const swBefore = await (await fetch(deployed.url + "sw.js")).text();
      const record = readFileSync(join(data, "incidents", "IL-0001.md"), "utf8")
        .replace(/^id = "IL-0001"/m, 'id = "IL-0319"')
        .replace(/^title = "/m, 'title = "무지개송어 재연결 재배포 ')
        .replaceAll('"https://', '"https://example.org/deploy/');
      writeFileSync(join(data, "incidents", "IL-0319.md"), record);
      let rebuilt = false;
      for (let i = 0; i < 300 && !rebuilt; i++) {
        await new Promise((r) => setTimeout(r, 100));
        rebuilt = (await (await fetch(deployed.url + "sw.js")).text()) !== swBefore;
      }
      assert.ok(rebuilt, "serve rebuilt the bundle:\n" + deployed.log);
      if (serviceWorkers === "allow") {
        // The browser looks for a new service worker on its own schedule: ask now.
        await page.evaluate(async () => { await (await navigator.serviceWorker.getRegistration()).update(); });
        await page.waitForSelector("#new-build", { state: "visible", timeout: 30_000 });
      }

      // The open tab, never reloaded, answers as the new build does.
      for (const q of words) {
        const want = native({ out }, q);
        await page.fill("#q", q);
        await page.waitForFunction(([c, ids]) =>
          document.getElementById("count")?.innerText === c &&
          !document.getElementById("list").hasAttribute("aria-busy") &&
          JSON.stringify([...document.querySelectorAll("#list .hit h3")].map((h) => h.textContent)) === ids,
        [`사례 ${want.total}건`, JSON.stringify(want.hits.map((h) => h.title))], { timeout: 20_000 })
          .catch(async (e) => {
            throw new Error(`${serviceWorkers}: ${q}: the tab shows ${await page.locator("#count").innerText()} (old build ${old[q].total}, new ${want.total}): ${e.message}\n${page.errors.join("\n")}`);
          });
      }
      assert.ok(native({ out }, "무지개송어").total >= 1);
      assert.ok(await page.locator("#new-build").isVisible(), "the page offers to reload");
      assert.deepEqual(page.errors, [], serviceWorkers);
      // Reloading gives the new build's page.
      await Promise.all([page.waitForNavigation(), page.click("#reload")]);
      await ready(page);
      assert.ok(await page.locator("#new-build").isHidden());
      await context.close();
    } finally {
      deployed.stop();
    }
  }
});

test("a missing page at any depth is the styled 404, at the root and under a subpath", async () => {
  // What a host does: the folder under a path, and 404.html for what is not there.
  const { execFileSync } = await import("node:child_process");
  const { createServer } = await import("node:http");
  const { existsSync, statSync } = await import("node:fs");
  const { binary, repo } = await import("./helpers.mjs");
  const out = join(mkdtempSync(join(tmpdir(), "il-404-")), "dist");
  execFileSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg"), "--site-url", "https://example.org/lib/"], { stdio: "ignore" });
  const types = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
  const host = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = path.startsWith("/lib/") ? join(out, path.slice(5)) : null;
    if (file && existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (file && !file.includes("..") && existsSync(file) && statSync(file).isFile()) {
      res.writeHead(200, { "content-type": types[file.slice(file.lastIndexOf("."))] || "application/octet-stream" });
      return res.end(readFileSync(file));
    }
    res.writeHead(404, { "content-type": types[".html"] });
    res.end(readFileSync(join(out, "404.html")));
  });
  await new Promise((r) => host.listen(0, "127.0.0.1", r));
  const subpath = `http://127.0.0.1:${host.address().port}/lib/`;
  try {
    for (const [base, missing] of [[subpath, "incidents/IL-9999/"], [subpath, "a/b/c/"], [server.url, "incidents/IL-9999/"], [server.url, "a/b/c/"]]) {
      const { context, page } = await openPage(browser);
      const failed = [];
      page.on("response", (r) => { if (r.status() >= 400 && r.url() !== base + missing) failed.push(`${r.status()} ${r.url()}`); });
      const response = await page.goto(base + missing);
      assert.equal(response.status(), 404, base + missing);
      assert.equal(await page.locator("h1").innerText(), "페이지를 찾을 수 없다");
      // Styled: the stylesheet loaded and applies (the header's rule), and nothing else failed.
      await page.waitForLoadState("networkidle");
      assert.deepEqual(failed, [], `${base + missing}: ${failed.join(", ")}`);
      assert.match(await page.evaluate(() => getComputedStyle(document.body).fontFamily), /Pretendard/, base + missing);
      // Its way back leads to the search page of the same site.
      await page.getByRole("link", { name: "검색으로 돌아가기" }).click();
      await page.waitForURL(base);
      assert.equal(await page.locator("h1").innerText(), "사례 검색");
      await context.close();
    }
  } finally {
    host.close();
  }
});

test("the not-found page offers the search with what the address held, and links a record it names", async () => {
  const { context, page } = await openPage(browser, { viewport: { width: 390, height: 844 } });
  const box = page.locator("#lost-q");
  const record = page.locator("#lost-record");
  // A record's id in a mistyped path: its page, linked, once the site says it is there.
  await page.goto(server.url + "incident/il-4");
  await page.waitForFunction(() => !document.getElementById("lost-record").hidden);
  assert.equal(await record.innerText(), "IL-0004 사례로 가기");
  assert.equal(await record.evaluate((a) => a.href), server.url + "incidents/IL-0004/");
  assert.equal(await box.inputValue(), "");
  // An id the library does not have: searched for, not linked.
  await page.goto(server.url + "incidents/IL-9999/");
  await page.waitForLoadState("networkidle");
  assert.equal(await box.inputValue(), "IL-9999");
  assert.equal(await record.isVisible(), false);
  // The same without the trailing slash, with a query, or with an extra zero.
  for (const [path, want] of [["incidents/IL-9999", "IL-9999"], ["incidents/IL-9999/?utm=1", "IL-9999"], ["archive/IL-09999.html", "IL-9999 archive"]]) {
    await page.goto(server.url + path);
    await page.waitForLoadState("networkidle");
    assert.equal(await box.inputValue(), want, path);
    assert.equal(await record.isVisible(), false, path);
  }
  await page.goto(server.url + "IL-00004");
  await page.waitForFunction(() => !document.getElementById("lost-record").hidden);
  assert.equal(await record.evaluate((a) => a.href), server.url + "incidents/IL-0004/");
  // A slug or words: split into the words of a search, which the form runs.
  await page.goto(server.url + "topics/component/dns-recods/");
  assert.equal(await box.inputValue(), "component dns recods");
  await page.goto(server.url + "%ED%81%B4%EB%9D%BC%EC%9A%B0%EB%93%9C%ED%94%8C%EB%A0%88%EC%96%B4_%EC%9E%A5%EC%95%A0.html");
  assert.equal(await box.inputValue(), "클라우드플레어 장애");
  await page.getByRole("button", { name: "검색" }).click();
  await page.waitForURL(/\?q=/);
  await ready(page);
  assert.equal(await page.locator("#q").inputValue(), "클라우드플레어 장애");
  assert.ok((await page.locator("#list .hit").count()) > 0);
  // A malformed escape is read as it is, and the page still works.
  await page.goto(server.url + "a/%E0%A4%A/b");
  assert.equal(await box.inputValue(), "a %E0%A4%A b");
  assert.deepEqual(page.errors.filter((e) => !/404/.test(e)), []);
  await context.close();
});

test("an incident page prints as the record alone, with each link's target written out", async () => {
  const { context, page } = await openPage(browser, { viewport: { width: 800, height: 1100 } });
  await page.goto(server.url + "incidents/IL-0004/");
  await page.emulateMedia({ media: "print" });
  for (const chrome of ["header.site", "footer.site", "aside.machine"]) {
    assert.equal(await page.locator(chrome).isVisible(), false, chrome);
  }
  assert.ok(await page.locator("h1").isVisible());
  // A source link prints its address after it.
  const source = page.locator('[aria-labelledby="s-sources"] a').first();
  const href = await source.getAttribute("href");
  const after = await source.evaluate((a) => getComputedStyle(a, "::after").content);
  assert.equal(after, `" (${href})"`);
  await page.screenshot({ path: join(screenshots, "incident-print.png"), fullPage: true });
  // On the screen, none of it.
  await page.emulateMedia({ media: "screen" });
  assert.ok(await page.locator("header.site").isVisible());
  assert.equal(await source.evaluate((a) => getComputedStyle(a, "::after").content), "none");
  await context.close();
});

test("an incident page has a table of contents of the sections it has, each link reaching its section", async () => {
  const { context, page } = await openPage(browser, { viewport: { width: 390, height: 844 } });
  await page.goto(server.url + "incidents/IL-0004/");
  const links = page.locator('nav[aria-label="이 사례의 차례"] a');
  const targets = await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
  assert.ok(targets.length >= 5, JSON.stringify(targets));
  for (const [name, href] of targets) {
    const heading = page.locator(`${href}`);
    assert.equal(await heading.innerText(), name, href);
  }
  // Only the sections the record has: none of them says it is missing.
  const headings = await page.locator("article h2").allInnerTexts();
  assert.deepEqual(targets.map(([name]) => name), headings.filter((h) => targets.some(([n]) => n === h)));
  await links.filter({ hasText: "출처" }).click();
  await page.waitForFunction(() => location.hash === "#s-sources");
  const box = await page.locator("#s-sources").boundingBox();
  assert.ok(box.y > -2 && box.y < 844, `the section is in view at y=${box.y}`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("the site's icon: SVG, PNG and the ICO a client asks for by itself, named by every page", async () => {
  const { context, page } = await openPage(browser);
  for (const path of ["", "incidents/IL-0004/", "topics/org/github/", "api/"]) {
    await page.goto(server.url + path);
    const icons = await page.locator('link[rel="icon"], link[rel="apple-touch-icon"]').evaluateAll((ls) => ls.map((l) => l.href));
    assert.equal(icons.length, 3, path);
    const sizes = await page.evaluate(async (urls) => Promise.all(urls.map((u) => new Promise((resolve) => {
      const img = new Image();
      img.onload = () => resolve(img.naturalWidth);
      img.onerror = () => resolve(0);
      img.src = u;
    }))), icons);
    assert.ok(sizes.every((w) => w > 0), `${path}: ${icons} → ${sizes}`);
  }
  const ico = await page.request.get(server.url + "favicon.ico");
  assert.equal(ico.status(), 200);
  assert.deepEqual([...(await ico.body()).subarray(0, 4)], [0, 0, 1, 0]);
  await context.close();
});

test("with the site's URL, Atom feeds of the newest incidents and of every topic, named by their pages", async () => {
  const { execFileSync } = await import("node:child_process");
  const { existsSync } = await import("node:fs");
  const { binary, repo } = await import("./helpers.mjs");
  const out = join(mkdtempSync(join(tmpdir(), "il-feed-")), "dist");
  execFileSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg"), "--site-url", "https://example.org/lib/"], { stdio: "ignore" });
  const { context, page } = await openPage(browser);
  await page.goto(server.url + "about/");
  const ATOM = "http://www.w3.org/2005/Atom";
  const read = (xml) => page.evaluate(([xml, ns]) => {
    const doc = new DOMParser().parseFromString(xml, "application/xml");
    if (doc.querySelector("parsererror")) return { error: doc.querySelector("parsererror").textContent };
    const feed = doc.documentElement;
    const one = (el, name) => el.getElementsByTagNameNS(ns, name)[0]?.textContent;
    return {
      root: feed.namespaceURI + " " + feed.localName,
      id: one(feed, "id"), title: one(feed, "title"), updated: one(feed, "updated"),
      entries: [...feed.getElementsByTagNameNS(ns, "entry")].map((e) => ({ id: one(e, "id"), title: one(e, "title"), updated: one(e, "updated"), summary: one(e, "summary"), categories: e.getElementsByTagNameNS(ns, "category").length })),
    };
  }, [xml, ATOM]);
  const site = read(readFileSync(join(out, "feed.xml"), "utf8"));
  const feed = await site;
  assert.equal(feed.error, undefined, feed.error);
  assert.equal(feed.root, `${ATOM} feed`);
  assert.equal(feed.id, "https://example.org/lib/feed.xml");
  assert.match(feed.updated, /^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
  assert.equal(feed.entries.length, 50);
  for (const e of feed.entries) {
    assert.match(e.id, /^https:\/\/example\.org\/lib\/incidents\/IL-\d{4}\/$/);
    assert.ok(e.title && e.summary && e.categories > 0 && /T00:00:00Z$/.test(e.updated), JSON.stringify(e));
  }
  // One topic's feed holds exactly its incidents (up to 50), and its page names it.
  const topic = await read(readFileSync(join(out, "topics", "org", "github", "feed.xml"), "utf8"));
  assert.equal(topic.error, undefined);
  assert.ok(topic.entries.length > 0 && topic.entries.length <= 50);
  const api = JSON.parse(readFileSync(join(out, "api", "v1", "topics", "org", "github.json"), "utf8")).data;
  assert.equal(topic.entries.length, Math.min(50, api.incidents.length));
  const html = readFileSync(join(out, "topics", "org", "github", "index.html"), "utf8");
  assert.match(html, /<link rel="alternate" type="application\/atom\+xml" href="feed.xml"/);
  assert.match(readFileSync(join(out, "index.html"), "utf8"), /<a href="feed.xml" type="application\/atom\+xml">새 사례 구독 \(Atom\)<\/a>/);
  // Without the URL, no feed rather than one of relative ids.
  assert.equal(existsSync(join(server.out, "feed.xml")), false);
  await context.close();
});

test("with the site's URL, every incident page names its link-preview image, a 1200×630 PNG under 60 KB", async (t) => {
  const { execFileSync } = await import("node:child_process");
  const { existsSync, readdirSync, rmSync } = await import("node:fs");
  const { binary, repo } = await import("./helpers.mjs");
  const site = "https://example.org/lib/";
  const dir = mkdtempSync(join(tmpdir(), "il-preview-"));
  const out = join(dir, "dist");
  try {
    execFileSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg"), "--site-url", site], { stdio: "ignore" });
    const meta = (html, key) => html.match(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`))?.[1];
    const records = readdirSync(join(shippedData, "incidents")).filter((f) => f.endsWith(".md")).length;
    const sizes = [];
    for (const id of readdirSync(join(out, "incidents"))) {
      const html = readFileSync(join(out, "incidents", id, "index.html"), "utf8");
      if (html.includes('http-equiv="refresh"')) continue; // a merged id's redirect
      const image = meta(html, "og:image");
      assert.equal(image, `${site}incidents/${id}/preview.png`, id);
      assert.equal(meta(html, "og:image:width"), "1200", id);
      assert.equal(meta(html, "og:image:height"), "630", id);
      assert.equal(meta(html, "og:image:alt"), meta(html, "og:title"), id);
      assert.equal(meta(html, "twitter:card"), "summary_large_image", id);
      assert.equal(meta(html, "twitter:image"), image, id);
      const png = readFileSync(join(out, ...image.slice(site.length).split("/")));
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${id}: PNG signature`);
      assert.equal(png.toString("latin1", 12, 16), "IHDR", id);
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630], id);
      assert.ok(png.length < 60 * 1024, `${id}: ${png.length} bytes`);
      sizes.push(png.length);
    }
    assert.equal(sizes.length, records);
    sizes.sort((a, b) => a - b);
    t.diagnostic(`${sizes.length} previews: min ${sizes[0]} B, median ${sizes[sizes.length >> 1]} B, max ${sizes.at(-1)} B`);
    // Other pages keep the small card, with no image.
    const search = readFileSync(join(out, "index.html"), "utf8");
    assert.equal(meta(search, "twitter:card"), "summary");
    assert.equal(meta(search, "og:image"), undefined);
    // Without the URL the pages name no image, and none is drawn.
    assert.equal(existsSync(join(server.out, "incidents", "IL-0004", "preview.png")), false);
    assert.doesNotMatch(readFileSync(join(server.out, "incidents", "IL-0004", "index.html"), "utf8"), /og:image/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
