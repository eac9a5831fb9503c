// Every tool's result within an agent's budget, counted in tokens with real
// tokenizers (js-tiktoken: o200k_base and cl100k_base) over the shipped corpus:
// under 8,000 at the tool's defaults and under 20,000 at its maximum limits. What
// is counted is what a client hands the model: the text content and the
// structured content together. Every search runs with each query of the blind set,
// every record and topic is read, every vocabulary page is turned. The figures
// printed are the README's table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { getEncoding } from "js-tiktoken";
import { binary, repo, shippedData } from "../e2e/helpers.mjs";

const DEFAULT_BUDGET = 8_000;
const MAX_BUDGET = 20_000;
const encodings = [getEncoding("o200k_base"), getEncoding("cl100k_base")];
/** The larger of the two counts of what the model receives from `result`. */
const tokens = (result) => {
  const seen = JSON.stringify({ content: result.content, structuredContent: result.structuredContent });
  return Math.max(...encodings.map((e) => e.encode(seen).length));
};

let client, tools;
before(async () => {
  const out = join(mkdtempSync(join(tmpdir(), "il-budget-")), "dist");
  execFileSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg")], { stdio: "ignore" });
  client = new Client({ name: "incident-library-budget", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: binary, args: ["mcp", "--bundle", out], stderr: "pipe" }));
  tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
});
after(async () => {
  await client?.close();
});

const queries = [...readFileSync(join(repo, "tests/relevance/blind.toml"), "utf8").matchAll(/^q = "(.*)"$/gm)].map((m) => m[1].replaceAll('\\"', '"'));
/** The most a limit may be, from the tool's input schema. */
const maximum = (name) => tools[name].inputSchema.properties.limit.maximum;

/** Runs `calls` ([tool, arguments]) and returns the token counts' p50 and largest, with the call that made it. */
async function measure(calls) {
  const counts = [];
  let largest = [0, null];
  for (const [name, args] of calls) {
    const r = await client.callTool({ name, arguments: args });
    assert.notEqual(r.isError, true, `${name} ${JSON.stringify(args)}: ${r.content?.[0]?.text}`);
    const n = tokens(r);
    counts.push(n);
    if (n > largest[0]) largest = [n, [name, args]];
  }
  counts.sort((a, b) => a - b);
  return { p50: counts[counts.length >> 1], max: largest[0], at: JSON.stringify(largest[1]) };
}

test("every tool within 8,000 tokens at its defaults and 20,000 at its maxima", async () => {
  const vocab = (await client.callTool({ name: "vocab", arguments: {} })).structuredContent;
  const facets = vocab.facets.map((f) => f.key);
  const ids = [];
  for (let cursor; ;) {
    const page = (await client.callTool({ name: "list_incidents", arguments: { limit: maximum("list_incidents"), ...(cursor ? { cursor } : {}) } })).structuredContent;
    ids.push(...page.hits.map((h) => h.id));
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  const topics = [];
  for (let cursor; ;) {
    const page = (await client.callTool({ name: "vocab", arguments: cursor ? { cursor } : {} })).structuredContent;
    topics.push(...page.values.map((v) => [v.facet, v.slug]));
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  const byFacet = facets.flatMap((facet) => topics.filter(([f]) => f === facet).slice(0, 8).map(([f, slug]) => ({ [f]: [slug] })));
  const rows = {
    "search_incidents (limit 10)": [queries.map((query) => ["search_incidents", { query }]), DEFAULT_BUDGET],
    [`search_incidents (limit ${maximum("search_incidents")})`]: [queries.map((query) => ["search_incidents", { query, limit: maximum("search_incidents") }]), MAX_BUDGET],
    "list_incidents (limit 10)": [[["list_incidents", {}], ...byFacet.map((filters) => ["list_incidents", { filters }])], DEFAULT_BUDGET],
    [`list_incidents (limit ${maximum("list_incidents")})`]: [[["list_incidents", { limit: maximum("list_incidents") }], ...byFacet.map((filters) => ["list_incidents", { filters, limit: maximum("list_incidents") }])], MAX_BUDGET],
    "get_incident (요약, 원인, 교훈)": [ids.map((id) => ["get_incident", { id }]), DEFAULT_BUDGET],
    "get_incident (all sections, Markdown)": [ids.map((id) => ["get_incident", { id, sections: "all", format: "markdown" }]), MAX_BUDGET],
    "get_topic": [topics.map(([facet, slug]) => ["get_topic", { facet, slug }]), DEFAULT_BUDGET],
    "vocab": [[["vocab", {}], ...facets.map((facet) => ["vocab", { facet }])], DEFAULT_BUDGET],
  };
  const over = [];
  console.log("| call | calls | p50 tokens | most tokens |\n|---|---|---|---|");
  for (const [row, [calls, budget]] of Object.entries(rows)) {
    const m = await measure(calls);
    console.log(`| ${row} | ${calls.length} | ${m.p50.toLocaleString("en")} | ${m.max.toLocaleString("en")} |`);
    if (m.max > budget) over.push(`${row}: ${m.max} tokens > ${budget} (${m.at})`);
  }
  assert.deepEqual(over, []);
});
