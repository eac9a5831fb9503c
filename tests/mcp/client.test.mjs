// A real MCP client (the official TypeScript SDK) against `incident-library mcp`:
// list the tools, run search -> get_incident -> get_topic -> vocab, validate every
// structuredContent against the tool's outputSchema, and check an isError case.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { binary, repo, shippedData } from "../e2e/helpers.mjs";

let client, tools;
before(async () => {
  const out = join(mkdtempSync(join(tmpdir(), "il-mcp-")), "dist");
  execFileSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg")], { stdio: "ignore" });
  client = new Client({ name: "incident-library-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: binary, args: ["mcp", "--bundle", out], stderr: "pipe" }));
  tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
});
after(async () => {
  await client?.close();
});

const ajv = new Ajv2020({ strict: false });
addFormats(ajv);
function checkOutput(name, result) {
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  const validate = ajv.compile(tools[name].outputSchema);
  assert.ok(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  return result.structuredContent;
}

test("the five tools are listed, read-only, with schemas", () => {
  assert.deepEqual(Object.keys(tools).sort(), ["get_incident", "get_topic", "list_incidents", "search_incidents", "vocab"]);
  for (const t of Object.values(tools)) {
    assert.equal(t.annotations?.readOnlyHint, true, t.name);
    assert.equal(t.outputSchema?.type, "object", t.name);
    assert.equal(t.inputSchema?.type, "object", t.name);
  }
});

test("search -> get_incident -> get_topic -> vocab", async () => {
  const found = checkOutput("search_incidents", await client.callTool({ name: "search_incidents", arguments: { query: "Azure OpenAI 재시도를", limit: 3 } }));
  assert.ok(found.total >= 1 && found.full >= 1);
  assert.match(found.hits[0].title, /Azure OpenAI/);
  assert.equal(found.hits[0].full, true);
  assert.deepEqual(found.hits[0].missing, []);
  assert.ok(found.hits[0].matched.some((m) => m.word === "재시도를" && m.how === "stem"), JSON.stringify(found.hits[0].matched));
  // A word the library does not have: every hit is partial and names it.
  const partial = checkOutput("search_incidents", await client.callTool({ name: "search_incidents", arguments: { query: "재시도 없는낱말", limit: 3 } }));
  assert.equal(partial.full, 0);
  assert.ok(partial.hits.length > 0 && partial.hits.every((h) => !h.full && h.missing.includes("없는낱말")));
  const record = checkOutput("get_incident", await client.callTool({ name: "get_incident", arguments: { id: found.hits[0].id } }));
  assert.equal(record.id, found.hits[0].id);
  assert.ok(record.checks.length > 0);
  const cause = record.facets.cause[0];
  const topic = checkOutput("get_topic", await client.callTool({ name: "get_topic", arguments: { facet: "cause", slug: cause } }));
  assert.ok(topic.incidents.includes(record.id));
  const vocab = checkOutput("vocab", await client.callTool({ name: "vocab", arguments: {} }));
  assert.equal(vocab.facets.length, 5);
  const listed = checkOutput("list_incidents", await client.callTool({ name: "list_incidents", arguments: { filters: { cause: [cause] }, limit: 50 } }));
  assert.equal(listed.total, topic.incidents.length);
});

// Everything a client receives for a call: the text content and the structured content.
const received = (r) => Buffer.byteLength(JSON.stringify(r.content)) + Buffer.byteLength(JSON.stringify(r.structuredContent ?? null));

test("results are light: a short text beside the structure, within the call budgets", async () => {
  const search = await client.callTool({ name: "search_incidents", arguments: { query: "재시도 폭증", limit: 10 } });
  const text = search.content.map((c) => c.text).join("\n");
  assert.notEqual(text, JSON.stringify(search.structuredContent), "the text is not the same JSON again");
  assert.match(text, /IL-\d{4}/);
  // Scores are rounded to three decimals, without float noise.
  assert.ok(search.structuredContent.hits.every((h) => (String(h.score).split(".")[1] ?? "").length <= 3), JSON.stringify(search.structuredContent.hits.map((h) => h.score)));
  const vocab = await client.callTool({ name: "vocab", arguments: {} });
  assert.ok(received(vocab) <= 10_000, `vocab: ${received(vocab)} bytes`);
  const sizes = [];
  for (const id of ["IL-0001", "IL-0004", "IL-0063", "IL-0184"]) {
    const r = await client.callTool({ name: "get_incident", arguments: { id } });
    checkOutput("get_incident", r);
    sizes.push(received(r));
  }
  assert.ok(Math.max(...sizes) <= 7_000, `get_incident: ${sizes.join(", ")} bytes`);
  console.log(`call sizes (text + structured): vocab ${received(vocab)} B, get_incident ${sizes.join(" / ")} B, search_incidents (10 hits) ${received(search)} B`);
});

test("search hits carry excerpts: the matched words in ** for a particle query and an English one", async () => {
  for (const [query, word] of [["재시도를 너무 많이 해서", /\*\*재시도\*\*/], ["certificate expired", /\*\*(인증서|만료)\*\*/]]) {
    const r = checkOutput("search_incidents", await client.callTool({ name: "search_incidents", arguments: { query, limit: 5 } }));
    const withExcerpts = r.hits.filter((h) => h.excerpts?.length);
    assert.ok(withExcerpts.length >= 3, `${query}: ${withExcerpts.length} of ${r.hits.length} hits have excerpts`);
    for (const h of withExcerpts) {
      assert.ok(h.excerpts.length <= 2, h.id);
      for (const e of h.excerpts) {
        assert.match(e.text, /\*\*[^*]+\*\*/, `${h.id} ${e.section}: a match is marked`);
        assert.ok(e.url.startsWith(`incidents/${h.id}/#s-`), e.url);
        assert.ok([...e.text].length <= 170, `${h.id}: ${e.text}`);
      }
      assert.equal("terms" in h, false, "the terms stay inside the server");
    }
    assert.ok(withExcerpts.some((h) => word.test(h.excerpts[0].text)), `${query}: ${withExcerpts.map((h) => h.excerpts[0].text).join(" | ")}`);
  }
  // The summary text shows each hit's best excerpt under it.
  const r = await client.callTool({ name: "search_incidents", arguments: { query: "재시도를", limit: 3 } });
  assert.match(r.content.map((c) => c.text).join("\n"), /\n  (요약|증상|원인|촉발|감지|조치|후속 조치|교훈) · .*\*\*재시도\*\*/);
});

test("schemas use no type lists (portable to strict clients)", () => {
  const lists = [];
  const walk = (v, path) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) { if (k === "type" && Array.isArray(x)) lists.push(path); walk(x, `${path}.${k}`); }
  };
  for (const t of Object.values(tools)) { walk(t.inputSchema, `${t.name}.input`); walk(t.outputSchema, `${t.name}.output`); }
  assert.deepEqual(lists, []);
});

test("bad arguments come back as tool errors that say what to do", async () => {
  const r = await client.callTool({ name: "get_incident", arguments: { id: "IL-9999" } });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /search_incidents/);
  const f = await client.callTool({ name: "list_incidents", arguments: { filters: { component: ["cdn"] } } });
  assert.equal(f.isError, true);
  assert.match(f.content[0].text, /cdn-edge/);
});
