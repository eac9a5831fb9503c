// Measures the search in headless chromium, through the wasm module and the loader
// of a built bundle, for every query of the given sets. Prints figures; asserts
// nothing unless given a budget.
//
// * First search: what a visitor downloads before the first answer to a query,
//   gzip: the wasm module and the search page's JS, then every index file the
//   loader fetched for that query on a fresh start (meta.bin, the vocabulary
//   blocks of its words, the listings of its first page of ten).
//   p50, p95 and the largest over every fourth query (a fresh start each costs
//   time; `first_search` of crates/build/examples reads every query natively). With
//   `--budget BYTES`, exits 1 when the largest is over it.
// * Query time: every query again with its files loaded (analysis, matching,
//   ranking, facet counts and the flow graph, as the search page asks for them),
//   five rounds after a warm-up. Mean, p50 and p95 in milliseconds.
//
//   node tests/relevance/bench-browser.mjs [--budget 150000] dist tests/relevance/queries.toml …
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { launch } from "../e2e/helpers.mjs";
import { percentile as at, readQueries, staticServer } from "./common.mjs";

const args = process.argv.slice(2);
let budget = null;
if (args[0] === "--budget") {
  budget = Number(args[1]);
  args.splice(0, 2);
}
const [dist, ...queryFiles] = args;
if (!queryFiles.length || (budget !== null && !(budget > 0))) {
  console.error("usage: node tests/relevance/bench-browser.mjs [--budget BYTES] <dist> <queries.toml>…");
  process.exit(2);
}
const queries = readQueries(queryFiles);
const server = await staticServer(dist);
const url = server.url;

const gz = new Map();
const gzipOf = (path) => {
  if (!gz.has(path)) gz.set(path, gzipSync(readFileSync(join(dist, path)), { level: 9 }).length);
  return gz.get(path);
};
// What the search page loads besides the index, as the build's size report counts it.
const shell = ["pkg/incident_library_bg.wasm", "app.js", "graph.js", "pkg/library.js", "pkg/incident_library.js"];
const shellBytes = shell.reduce((s, p) => s + gzipOf(p), 0);

const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(url + "about/");
  const sampled = queries.filter((_, i) => i % 4 === 0);
  const { fetched, times } = await page.evaluate(async ({ url, queries, sampled }) => {
    const seen = [];
    const plain = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const u = new URL(input instanceof Request ? input.url : input, location.href);
      if (u.pathname.includes("/index/")) seen.push(u.pathname.slice(u.pathname.indexOf("/index/") + 1));
      return plain(input, init);
    };
    const { IncidentLibrary } = await import(url + "pkg/library.js");
    const fetched = [];
    for (const q of sampled) {
      seen.length = 0;
      const fresh = await IncidentLibrary.open(url);
      await fresh.search(q, { perPage: 10, prefix: true });
      fetched.push([...new Set(seen)]);
    }
    const lib = await IncidentLibrary.open(url);
    const request = (query) => ({ query, filters: [], page: 1, per_page: 10, prefix: true, graph: ["cause", "component", "symptom"] });
    for (const q of queries) {
      await lib.search(q, { perPage: 10, prefix: true });
      let r = lib.core.search(request(q));
      while (r.missing) {
        await lib.fetchFiles(r.missing);
        r = lib.core.search(request(q));
      }
    }
    const times = [];
    for (let round = 0; round < 5; round++) {
      for (const q of queries) {
        const t = performance.now();
        lib.core.search(request(q));
        times.push(performance.now() - t);
      }
    }
    return { fetched, times };
  }, { url, queries, sampled });

  const sizes = fetched.map((names) => shellBytes + names.reduce((s, n) => s + gzipOf(n), 0));
  const order = sizes.map((s, i) => [s, i]).sort((a, b) => a[0] - b[0]);
  const files = fetched.map((f) => f.length).sort((a, b) => a - b);
  const [largest, worst] = order[order.length - 1];
  console.log(
    `first search in chromium (${sampled.length} queries, gzip): wasm + JS ${shellBytes} B, with the index files fetched: ` +
      `p50 ${at(order, 0.5)[0]} B, p95 ${at(order, 0.95)[0]} B, max ${largest} B (${JSON.stringify(sampled[worst])}); ` +
      `files fetched p50 ${at(files, 0.5)}, max ${files[files.length - 1]}`,
  );
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  console.log(`query time in chromium: ${queries.length} queries x 5 rounds: mean ${mean.toFixed(3)} ms, p50 ${at(times, 0.5).toFixed(3)} ms, p95 ${at(times, 0.95).toFixed(3)} ms, max ${at(times, 1).toFixed(3)} ms`);
  if (budget !== null && largest > budget) {
    console.error(`first search: ${largest} bytes gzip for ${JSON.stringify(sampled[worst])}, OVER the budget of ${budget}`);
    process.exitCode = 1;
  } else if (budget !== null) {
    console.log(`first search: every query within the budget of ${budget} bytes gzip`);
  }
} finally {
  await browser.close();
  server.close();
}
