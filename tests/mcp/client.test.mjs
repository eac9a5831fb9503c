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

test("bad arguments come back as tool errors that say what to do", async () => {
  const r = await client.callTool({ name: "get_incident", arguments: { id: "IL-9999" } });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /search_incidents/);
  const f = await client.callTool({ name: "list_incidents", arguments: { filters: { component: ["cdn"] } } });
  assert.equal(f.isError, true);
  assert.match(f.content[0].text, /cdn-edge/);
});
