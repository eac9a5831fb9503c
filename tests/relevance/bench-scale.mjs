// One row of the scale benchmark (scripts/bench-scale.sh): our engine and Pagefind
// on the same built site, in headless chromium. For a sample of queries, each on a
// fresh page with an empty cache:
//
// * first search: every byte the page fetched for the engine before it could show
//   the first ten results (code, index files, the ten results' text), each file
//   counted gzip-compressed as a server sends it (Pagefind's own files are gzip
//   already and count as they are);
// * excerpts: what ours fetches after that for the ten results' excerpts (their
//   passages files), which Pagefind's first search holds in its fragments;
// * query time, with every file of the sample loaded: p50 and p95 in ms (ours: the
//   wasm search as the search page runs it; Pagefind: `search()`), each engine
//   timed on a page of its own, so that neither one's garbage is collected in the
//   other's time.
//
// Prints one JSON object. The site must hold Pagefind's index (`pagefind --site`).
//
//   node tests/relevance/bench-scale.mjs <site> <queries.toml> [sample]
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { launch } from "../e2e/helpers.mjs";
import { percentile as at, readQueries, staticServer } from "./common.mjs";

const [site, queryFile, sampleArg] = process.argv.slice(2);
if (!queryFile || !existsSync(join(site, "pagefind/pagefind.js"))) {
  console.error("usage: node tests/relevance/bench-scale.mjs <site with a pagefind index> <queries.toml> [sample]");
  process.exit(2);
}
const all = readQueries([queryFile]);
const sample = Number(sampleArg || 80);
const step = Math.max(1, Math.floor(all.length / sample));
const queries = all.filter((_, i) => i % step === 0).slice(0, sample);

const sizes = new Map();
const sent = (path) => {
  if (!sizes.has(path)) {
    const raw = readFileSync(join(site, path));
    const gz = gzipSync(raw, { level: 9 }).length;
    sizes.set(path, Math.min(raw.length, gz));
  }
  return sizes.get(path);
};
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: at(s, 0.5), p95: at(s, 0.95), max: s[s.length - 1] };
};

const server = await staticServer(site);
const url = server.url;
const browser = await launch();

// The bytes one fresh page fetches for `run` (an in-page function of `q`), and
// those of the files that `later` picks.
async function firstSearch(q, run, counted, later = () => false) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const paths = new Set();
  const after = new Set();
  page.on("requestfinished", (r) => {
    const path = decodeURIComponent(new URL(r.url()).pathname).slice(1);
    if (counted(path)) paths.add(path);
    if (later(path)) after.add(path);
  });
  await page.goto(url + "about/");
  await page.evaluate(run, { url, q });
  await context.close();
  const total = (set) => [...set].reduce((s, p) => s + sent(p), 0);
  return [total(paths), total(after)];
}

const ours = async ({ url, q }) => {
  const { IncidentLibrary } = await import(url + "pkg/library.js");
  const lib = await IncidentLibrary.open(url);
  const { hits } = await lib.search(q, { perPage: 10, prefix: true, excerpts: false });
  await lib.excerpts(hits);
};
const theirs = async ({ url, q }) => {
  const pagefind = await import(url + "pagefind/pagefind.js");
  await pagefind.init();
  const search = await pagefind.search(q);
  await Promise.all(search.results.slice(0, 10).map((r) => r.data()));
};
const oursCounted = (p) => p.startsWith("index/") || p.startsWith("pkg/") || p === "app.js";
const oursLater = (p) => p.startsWith("passages/");
const theirsCounted = (p) => p.startsWith("pagefind/");

try {
  const oursBytes = [];
  const excerptBytes = [];
  const theirsBytes = [];
  for (const q of queries) {
    // app.js is the search page's (graph.js comes with the first graph); the sample
    // page loads neither.
    const [first, excerpts] = await firstSearch(q, ours, oursCounted, oursLater);
    oursBytes.push(first + sent("app.js"));
    excerptBytes.push(excerpts);
    theirsBytes.push((await firstSearch(q, theirs, theirsCounted))[0]);
  }
  // Each engine on a fresh page of its own: every file of the sample loaded first,
  // then three timed rounds.
  const timed = async (run) => {
    const page = await browser.newPage();
    await page.goto(url + "about/");
    const ms = await page.evaluate(run, { url, queries });
    await page.close();
    return ms;
  };
  const oursMs = await timed(async ({ url, queries }) => {
    const { IncidentLibrary } = await import(url + "pkg/library.js");
    const lib = await IncidentLibrary.open(url);
    const request = (query) => ({ query, filters: [], page: 1, per_page: 10, prefix: true });
    for (const q of queries) await lib.search(q, { perPage: 10, prefix: true, excerpts: false });
    const ms = [];
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        const t = performance.now();
        lib.core.search(request(q));
        ms.push(performance.now() - t);
      }
    }
    return ms;
  });
  const theirsMs = await timed(async ({ url, queries }) => {
    const pagefind = await import(url + "pagefind/pagefind.js");
    await pagefind.init();
    for (const q of queries) await pagefind.search(q);
    const ms = [];
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        const t = performance.now();
        await pagefind.search(q);
        ms.push(performance.now() - t);
      }
    }
    return ms;
  });
  const times = { ours: oursMs, theirs: theirsMs };
  const html = gzipSync(readFileSync(join(site, "index.html")), { level: 9 }).length;
  console.log(JSON.stringify({
    queries: queries.length,
    ours: { first_search: stats(oursBytes), excerpts: stats(excerptBytes), ms: stats(times.ours) },
    pagefind: { first_search: stats(theirsBytes), ms: stats(times.theirs) },
    search_page_html: html,
  }));
} finally {
  await browser.close();
  server.close();
}
