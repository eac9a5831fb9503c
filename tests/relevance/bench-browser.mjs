// Times the search in headless chromium: every query of the given sets, through
// the wasm module of a built bundle (analysis, matching, ranking, facet counts and
// the flow graph, as the search page asks for them), after a warm-up round. Prints
// the mean, p50 and p95 in milliseconds; asserts nothing.
//
//   node tests/relevance/bench-browser.mjs dist tests/relevance/queries.toml tests/relevance/blind.toml
import { launch } from "../e2e/helpers.mjs";
import { readQueries, staticServer } from "./common.mjs";

const [dist, ...queryFiles] = process.argv.slice(2);
if (!queryFiles.length) {
  console.error("usage: node tests/relevance/bench-browser.mjs <dist> <queries.toml>…");
  process.exit(2);
}
const queries = readQueries(queryFiles);
const server = await staticServer(dist);
const url = server.url;

const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(url + "about/");
  const times = await page.evaluate(async ({ url, queries }) => {
    const { IncidentLibrary } = await import(url + "pkg/library.js");
    const lib = await IncidentLibrary.open(url);
    const request = (query) => ({ query, filters: [], page: 1, per_page: 10, prefix: true, graph: ["cause", "component", "symptom"] });
    for (const q of queries) lib.core.search(request(q));
    const out = [];
    for (let round = 0; round < 5; round++) {
      for (const q of queries) {
        const t = performance.now();
        lib.core.search(request(q));
        out.push(performance.now() - t);
      }
    }
    return out;
  }, { url, queries });
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.round((times.length - 1) * p)];
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  console.log(`chromium: ${queries.length} queries x 5 rounds: mean ${mean.toFixed(3)} ms, p50 ${at(0.5).toFixed(3)} ms, p95 ${at(0.95).toFixed(3)} ms, max ${at(1).toFixed(3)} ms`);
} finally {
  await browser.close();
  server.close();
}
