// Runs the relevance queries through Pagefind 1.x for comparison: indexes a copy of
// the built HTML site with the pagefind CLI, serves it on localhost, queries it in
// headless chromium and writes each query's ranked incident ids as JSON.
//
//   node tests/relevance/pagefind.mjs dist tests/relevance/queries.toml[,more.toml…] out.json
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { launch } from "../e2e/helpers.mjs";
import { readQueries, staticServer } from "./common.mjs";

const [dist, queriesFile, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node tests/relevance/pagefind.mjs <dist> <queries.toml> <out.json>");
  process.exit(2);
}

const queries = readQueries(queriesFile.split(","));

const site = join(mkdtempSync(join(tmpdir(), "il-pagefind-")), "site");
cpSync(dist, site, { recursive: true });
execFileSync(join(process.cwd(), "node_modules/.bin/pagefind"), ["--site", site, "--silent"], { stdio: "inherit" });

const server = await staticServer(site);
const url = server.url;

const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(url + "about/");
  const rankings = await page.evaluate(async (queries) => {
    const pagefind = await import("/pagefind/pagefind.js");
    await pagefind.init();
    const out = {};
    for (const q of queries) {
      const search = await pagefind.search(q);
      const data = await Promise.all(search.results.slice(0, 60).map((r) => r.data()));
      out[q] = data.map((d) => (d.url.match(/incidents\/(IL-\d{4})\//) || [])[1]).filter(Boolean).slice(0, 10);
    }
    return out;
  }, queries);
  writeFileSync(out, JSON.stringify(rankings, null, 1));
  console.log(`pagefind: ranked ${Object.keys(rankings).length} queries into ${out}`);
} finally {
  await browser.close();
  server.close();
}
