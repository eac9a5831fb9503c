// What a chat app or a search engine reads from the pages of a build with
// --site-url, read back in chromium from every built page: the canonical link, the
// OpenGraph and Twitter tags, and the structured data (JSON-LD).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { binary, repo, shippedData, launch, openPage } from "./helpers.mjs";

const SITE = "https://example.org/lib/";
let out, host, local, browser;

before(async () => {
  out = join(mkdtempSync(join(tmpdir(), "il-links-")), "dist");
  execFileSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg"), "--site-url", SITE], { stdio: "ignore" });
  // The build served under /lib/, as the site URL says it is.
  const types = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript", ".png": "image/png", ".json": "application/json" };
  host = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = path.startsWith("/lib/") && !path.includes("..") ? join(out, path.slice(5)) : null;
    if (file && existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!file || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); return res.end(); }
    res.writeHead(200, { "content-type": types[file.slice(file.lastIndexOf("."))] || "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise((r) => host.listen(0, "127.0.0.1", r));
  local = `http://127.0.0.1:${host.address().port}/lib/`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  host?.close();
  if (out) rmSync(join(out, ".."), { recursive: true, force: true });
});

/** Every page of the build, as its path under the site (`incidents/IL-0001/`). */
function pages(dir = out) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return pages(path);
    if (e.name !== "index.html") return [];
    const folder = relative(out, dir);
    return [folder ? folder.split(sep).join("/") + "/" : ""];
  });
}

test("every page names its canonical URL and a link preview, read back from the page", async () => {
  const paths = pages();
  assert.ok(paths.length > 300, `${paths.length} pages`);
  const { context, page } = await openPage(browser);
  await page.goto(local);
  // Each page read as a browser parses it.
  const heads = await page.evaluate(async (paths) => {
    const meta = (doc, attr, name) => doc.querySelector(`meta[${attr}="${name}"]`)?.getAttribute("content") ?? null;
    return Promise.all(paths.map(async (path) => {
      const doc = new DOMParser().parseFromString(await (await fetch(path)).text(), "text/html");
      const og = (p) => meta(doc, "property", `og:${p}`);
      const ld = doc.querySelector('script[type="application/ld+json"]')?.textContent ?? null;
      return {
        path,
        refresh: doc.querySelector('meta[http-equiv="refresh"]')?.getAttribute("content") ?? null,
        canonical: doc.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? null,
        description: meta(doc, "name", "description"),
        h1: doc.querySelector("h1")?.textContent.trim() ?? null,
        published: doc.querySelector("dl.meta .published time")?.getAttribute("datetime") ?? null,
        updated: doc.querySelector("dl.meta .updated time")?.getAttribute("datetime") ?? null,
        og: { type: og("type"), url: og("url"), title: og("title"), description: og("description"), image: og("image"), width: og("image:width"), height: og("image:height"), alt: og("image:alt"), site: og("site_name"), locale: og("locale") },
        twitter: { card: meta(doc, "name", "twitter:card"), image: meta(doc, "name", "twitter:image") },
        ld,
      };
    }));
  }, paths);
  const problems = [];
  const check = (ok, path, what) => { if (!ok) problems.push(`${path}: ${what}`); };
  let articles = 0;
  for (const h of heads) {
    const url = SITE + h.path;
    const incident = /^incidents\/IL-\d+\/$/.test(h.path);
    // A moved record's or merged value's page sends the reader on, and names the
    // page it sends to as the canonical one.
    if (h.refresh) {
      const target = new URL(h.refresh.replace(/^0; url=/, ""), url).href;
      check(h.canonical === target, h.path, `a redirect's canonical ${h.canonical}, to ${target}`);
      check(h.og.url === null, h.path, "a redirect has no preview");
      continue;
    }
    check(h.canonical === url, h.path, `canonical ${h.canonical}`);
    check(h.og.url === url, h.path, `og:url ${h.og.url}`);
    check(h.og.site === "Incident Library" && h.og.locale === "ko_KR", h.path, "og:site_name, og:locale");
    check(typeof h.og.title === "string" && h.og.title.length > 0, h.path, "og:title");
    check(h.og.description === h.description, h.path, `og:description ${h.og.description} ≠ description ${h.description}`);
    if (!incident) {
      check(h.og.type === "website" && h.twitter.card === "summary", h.path, `a page that is not an incident: ${h.og.type}, ${h.twitter.card}`);
      continue;
    }
    articles += 1;
    check(h.og.type === "article", h.path, `og:type ${h.og.type}`);
    check(h.og.title === h.h1, h.path, "og:title is the page's title");
    check(h.twitter.card === "summary_large_image" && h.twitter.image === h.og.image, h.path, "twitter card with the preview");
    check(h.og.image === url + "preview.png" && h.og.width === "1200" && h.og.height === "630" && h.og.alt === h.h1, h.path, `og:image ${h.og.image}`);
    check(existsSync(join(out, h.path, "preview.png")), h.path, "the preview image is in the build");
    // The structured data parses, names the page's article and where it sits.
    let graph = [];
    try { graph = JSON.parse(h.ld)["@graph"]; } catch (e) { check(false, h.path, `JSON-LD: ${e.message}`); continue; }
    const article = graph.find((n) => n["@type"] === "Article");
    const crumbs = graph.find((n) => n["@type"] === "BreadcrumbList");
    check(article?.headline === h.h1 && article?.url === url, h.path, "JSON-LD Article");
    check(article?.datePublished === h.published && h.published, h.path, `datePublished ${article?.datePublished} ≠ 처음 실음 ${h.published}`);
    check(article?.dateModified === h.updated && h.updated, h.path, `dateModified ${article?.dateModified} ≠ 최종 수정 ${h.updated}`);
    const items = crumbs?.itemListElement ?? [];
    check(items.length === 3 && items.at(-1).item === url && items.every((i) => i.item.startsWith(SITE)), h.path, "BreadcrumbList");
    for (const i of items) check(existsSync(join(out, i.item.slice(SITE.length), "index.html")), h.path, `breadcrumb ${i.item} is a page of the build`);
  }
  assert.deepEqual(problems, []);
  assert.ok(articles >= 300, `${articles} incident pages`);
  await context.close();
});
