// Excerpts in chromium: the search page and the widget show, under each hit, the
// sentence where the query's words occur with the matches marked (for a query with
// particles and for an English one), exactly as the native search cuts them; the
// sections they come from link to anchors that exist; only the shown hits'
// passages files are fetched, after their listings; and text stays text.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { serve, launch, openPage, ready, native, screenshots, hostPages } from "./helpers.mjs";

let server, browser, host, hostUrl;
const pages = {};
before(async () => {
  server = await serve();
  browser = await launch();
  host = await hostPages(pages);
  hostUrl = host.url;
  pages["/widget.html"] = `<!doctype html><html lang="ko"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>#w { --accent: rgb(200, 0, 0); } #w::part(mark) { outline: 2px solid rgb(1, 2, 3); }</style>
<script type="module" src="${server.url}widget.js"></script></head><body>
<incident-search id="w" base="${server.url}" query="재시도를" limit="3"></incident-search></body></html>`;
});
after(async () => {
  await browser?.close();
  server?.stop();
  host?.close();
});

// The best excerpt of a native hit, as the page shows it: section, then the text
// with its marks in brackets.
function bracketed(e) {
  const chars = [...e.text];
  let out = "", at = 0;
  for (const [s, t] of e.marks) {
    out += chars.slice(at, s).join("") + "[" + chars.slice(s, t).join("") + "]";
    at = t;
  }
  return out + chars.slice(at).join("");
}
const bestOf = (hit) => hit.excerpts.reduce((best, e) => (!best || e.found > best.found ? e : best), null);

// What the page shows in each hit's snippet, marks in brackets, once excerpts are in.
const shownExcerpts = (page) =>
  page.locator("#list .hit .snippet").evaluateAll((ps) => ps.map((p) => [...p.childNodes].map((n) => (n.nodeName === "MARK" ? `[${n.textContent}]` : n.textContent)).join("")));

for (const [kind, query, marked] of [
  ["a query with particles", "재시도를 너무 많이 해서", /\[재시도\]/],
  ["an English query", "certificate expired", /\[(인증서|만료|certificate)\]/i],
]) {
  test(`search page: excerpts for ${kind} match the native search, with marks and section links`, async () => {
    const { context, page } = await openPage(browser);
    const fetched = [];
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto(server.url + "?q=" + encodeURIComponent(query));
    await ready(page);
    const want = native(server, query);
    const expected = want.hits.map((h) => {
      const e = bestOf(h);
      return e ? `${e.section} · ${bracketed(e)}` : null;
    });
    assert.ok(expected.filter(Boolean).length >= 3, `the native search finds excerpts for most hits of ${query}`);
    await page.waitForSelector("#list .snippet.excerpt");
    await page.waitForFunction((n) => document.querySelectorAll("#list .snippet.excerpt").length === n, expected.filter(Boolean).length);
    const shown = await shownExcerpts(page);
    for (const [i, e] of expected.entries()) {
      if (e) assert.equal(shown[i], e, `hit ${i + 1} of ${query}`);
    }
    assert.match(shown.find((s) => s.includes("[")), marked);
    // Marks hold only matched words, and no HTML ever comes from the text.
    const marks = await page.locator("#list mark").allTextContents();
    assert.ok(marks.length > 0 && marks.every((m) => m.trim().length > 0));
    assert.equal(await page.locator("#list .snippet img, #list .subs img, #list .snippet script").count(), 0);

    // Only the shown hits' passages files, each after the hit's listing.
    const passages = fetched.filter((p) => p.includes("/passages/"));
    assert.equal(passages.length, want.hits.length, passages.join(" "));
    for (const h of want.hits) assert.ok(passages.some((p) => p.endsWith(`/passages/${h.id}.json`)), h.id);
    const firstPassage = fetched.findIndex((p) => p.includes("/passages/"));
    const lastListing = fetched.findLastIndex((p) => p.includes("/listing-"));
    assert.ok(firstPassage > lastListing, "the answer is drawn before any passages file is asked for");

    // A section link leads to that section of the incident page.
    const link = page.locator("#list .snippet .section").first();
    const href = await link.getAttribute("href");
    const { hash } = new URL(href);
    assert.match(hash, /^#s-(summary|symptoms|cause|trigger|detection|response|followup|lessons)$/);
    await link.click();
    await page.waitForURL((u) => u.hash === hash);
    assert.equal(await page.locator(hash).count(), 1, `${href} has its anchor`);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}

test("search page: other sections where the words occur are listed under the hit", async () => {
  const { context, page } = await openPage(browser);
  await page.setViewportSize({ width: 1100, height: 1400 });
  const query = "재시도를 너무 많이 해서";
  await page.goto(server.url + "?q=" + encodeURIComponent(query));
  await ready(page);
  await page.waitForSelector("#list .subs li");
  const want = native(server, query);
  const first = want.hits[0];
  const best = bestOf(first);
  const others = first.excerpts.filter((e) => e !== best).slice(0, 2).map((e) => `${e.section} · ${bracketed(e)}`);
  const subs = await page.locator("#list .hit").first().locator(".subs li").evaluateAll((lis) =>
    lis.map((li) => [...li.childNodes].map((n) => (n.nodeName === "MARK" ? `[${n.textContent}]` : n.textContent)).join("")));
  assert.deepEqual(subs, others);
  await page.screenshot({ path: join(screenshots, "search-excerpts.png") });
  await context.close();
});

test("widget: excerpts with marks replace the summaries once they arrive", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(hostUrl + "/widget.html");
  await page.waitForFunction(() => document.getElementById("w").shadowRoot?.querySelector(".summary mark"));
  const want = native(server, "재시도를", "--limit", "3");
  const summaries = await page.evaluate(() =>
    [...document.getElementById("w").shadowRoot.querySelectorAll("li .summary")].map((p) => [...p.childNodes].map((n) => (n.nodeName === "MARK" ? `[${n.textContent}]` : n.textContent)).join("")));
  const expected = want.hits.map((h) => {
    const e = bestOf(h);
    return e ? `${e.section} · ${bracketed(e)}` : h.summary;
  });
  assert.deepEqual(summaries, expected);
  assert.ok(summaries.some((s) => s.includes("[재시도]")));
  // The section link opens the incident page at that section.
  const href = await page.evaluate(() => document.getElementById("w").shadowRoot.querySelector(".summary a.section").href);
  assert.match(href, new RegExp(`^${server.url}incidents/IL-\\d{4}/#s-[a-z]+$`));
  // The styling API: custom properties on the element, parts from outside.
  const styled = await page.evaluate(() => {
    const root = document.getElementById("w").shadowRoot;
    return { title: getComputedStyle(root.querySelector("li > a")).color, mark: getComputedStyle(root.querySelector("mark")).outlineColor };
  });
  assert.deepEqual(styled, { title: "rgb(200, 0, 0)", mark: "rgb(1, 2, 3)" });
  assert.deepEqual(page.errors, []);
  await page.locator("#w").screenshot({ path: join(screenshots, "widget-excerpts.png") });
  await context.close();
});

test("a malformed passages file: that hit keeps its summary, the others their excerpts, and the page keeps working", async () => {
  const broken = await serve();
  try {
    const q = "재시도를 너무 많이 해서";
    const want = native(broken, q);
    const withExcerpts = want.hits.filter((h) => bestOf(h)).length;
    assert.ok(withExcerpts >= 3, q);
    const victim = want.hits.find((h) => bestOf(h)).id;
    writeFileSync(join(broken.out, "passages", `${victim}.json`), '{"sections":[[1,2]]}');
    const { context, page } = await openPage(browser);
    await page.goto(broken.url + "?q=" + encodeURIComponent(q));
    await ready(page);
    await page.waitForFunction((n) => document.querySelectorAll("#list .snippet.excerpt").length === n, withExcerpts - 1);
    const index = want.hits.findIndex((h) => h.id === victim);
    const hit = page.locator("#list .hit").nth(index);
    assert.equal(await hit.locator(".snippet.excerpt").count(), 0, "the broken hit shows no excerpt");
    assert.ok((await hit.locator(".snippet").textContent()).trim().length > 0, "it keeps its summary");
    // The module is not marked failed: the next query is answered.
    const next = native(broken, "인증서 만료");
    await page.goto(broken.url + "?q=" + encodeURIComponent("인증서 만료"));
    await ready(page);
    assert.equal(await page.locator("#count").innerText(), `사례 ${next.total}건`);
    assert.deepEqual(page.errors, []);
    await context.close();
  } finally {
    broken.stop();
  }
});
