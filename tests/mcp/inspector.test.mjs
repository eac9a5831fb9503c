// The official MCP Inspector's CLI (`mcp-inspector --cli`, v2, pinned in
// package.json) against `incident-library mcp` on a build of the shipped corpus:
// `tools/list --strict` reports no schema-portability finding (the inspector's
// schema lint: type lists, bare `true`, untyped schemas, remote `$ref`s), and every
// tool called through it succeeds. The inspector checks each call's
// structuredContent against the tool's outputSchema and fails the call when it
// does not match. `--strict` only goes with `tools/list` (the inspector refuses it
// elsewhere), so the calls run without it and must print nothing on stderr.
// A control server shows that the same check does speak up: it advertises the
// API's incident schema as it is, with its `["string", "null"]` type lists.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binary, repo, shippedData } from "../e2e/helpers.mjs";

const inspector = join(repo, "node_modules/.bin/mcp-inspector");
let dir, out;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "il-inspector-"));
  out = join(dir, "dist");
  execFileSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg")], { stdio: "ignore" });
});

/** Runs the inspector CLI against `server` (a command and its arguments); resolves to { status, stdout, stderr, json }. */
function inspect(server, args) {
  // HOME in the temp folder: the inspector keeps its catalog and secrets under ~/.mcp-inspector.
  const r = spawnSync(inspector, ["--cli", ...server, ...args], { encoding: "utf8", timeout: 60_000, env: { ...process.env, HOME: dir } });
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json };
}
const ours = () => [binary, "mcp", "--bundle", out];
/** A tools/call through the inspector that must succeed, print nothing on stderr, and carry structured content. */
function call(name, ...pairs) {
  const r = inspect(ours(), ["--method", "tools/call", "--tool-name", name, ...(pairs.length ? ["--tool-arg", ...pairs] : [])]);
  assert.equal(r.stderr, "", `${name}: ${r.stderr}`);
  assert.equal(r.status, 0, `${name}: exit ${r.status}\n${r.stdout}`);
  assert.notEqual(r.json.isError, true, `${name}: ${r.stdout}`);
  assert.ok(r.json.content.length > 0 && r.json.content[0].type === "text", `${name}: ${r.stdout}`);
  assert.ok(r.json.structuredContent, `${name}: no structuredContent`);
  return r.json;
}

test("tools/list --strict: the five tools, and no portability error or warning", () => {
  const r = inspect(ours(), ["--method", "tools/list", "--strict"]);
  assert.equal(r.stderr, "", r.stderr);
  assert.equal(r.status, 0, r.stdout);
  const tools = r.json.tools;
  assert.deepEqual(tools.map((t) => t.name).sort(), ["get_incident", "get_topic", "list_incidents", "search_incidents", "vocab"]);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object", t.name);
    assert.equal(t.outputSchema?.type, "object", t.name);
  }
});

test("every tool called through the inspector: search -> get_incident -> get_topic -> list_incidents, vocab", () => {
  const found = call("search_incidents", "query=Azure OpenAI 재시도를", "limit=3").structuredContent;
  assert.ok(found.total >= 1 && found.hits.length >= 1 && found.hits.length <= 3, JSON.stringify(found).slice(0, 300));
  const hit = found.hits[0];
  assert.match(hit.id, /^IL-\d{4}$/);
  assert.match(hit.title, /Azure OpenAI/);
  const incident = call("get_incident", `id=${hit.id}`);
  assert.equal(incident.structuredContent.id, hit.id);
  assert.equal(incident.structuredContent.title, hit.title);
  assert.ok(incident.content[0].text.startsWith(hit.id), incident.content[0].text);
  assert.ok(incident.structuredContent.sections.some((s) => s.name === "요약" && s.text.length > 0));
  const cause = incident.structuredContent.facets.cause[0];
  const topic = call("get_topic", "facet=cause", `slug=${cause}`).structuredContent;
  assert.equal(topic.slug, cause);
  assert.ok(topic.incidents.includes(hit.id), `${cause}: ${topic.incidents}`);
  const listed = call("list_incidents", `filters=${JSON.stringify({ cause: [cause] })}`, "limit=40").structuredContent;
  assert.equal(listed.total, topic.incidents.length);
  assert.ok(listed.hits.some((h) => h.id === hit.id));
  const vocab = call("vocab").structuredContent;
  assert.deepEqual(vocab.facets.map((f) => f.key).sort(), ["cause", "component", "factor", "org", "symptom"]);
  assert.ok(vocab.values.length > 0 && vocab.values.every((v) => v.slug && v.ko));
});

test("a tool error reaches the inspector as one: exit 5, isError, the server's hint", () => {
  const r = inspect(ours(), ["--method", "tools/call", "--tool-name", "get_incident", "--tool-arg", "id=IL-9999"]);
  assert.equal(r.status, 5, r.stdout + r.stderr);
  assert.equal(r.json.isError, true);
  assert.match(r.json.content[0].text, /search_incidents/);
  assert.match(r.stderr, /tool_is_error/);
});

// A stdio MCP server of a few lines (newline-delimited JSON-RPC) with one tool,
// get_incident, whose outputSchema is the JSON file named by its argument, and
// whose calls return a record with nothing but an id.
const control = `
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
const outputSchema = JSON.parse(readFileSync(process.argv[2], "utf8"));
const send = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === "initialize") send(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "control", version: "0" } });
  else if (m.method === "tools/list") send(m.id, { tools: [{ name: "get_incident", inputSchema: { type: "object" }, outputSchema }] });
  else if (m.method === "tools/call") send(m.id, { content: [{ type: "text", text: "IL-0004" }], structuredContent: { id: "IL-0004" } });
  else process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no such method" } }) + "\\n");
});
`;

test("control: the same check flags the API's type lists, and a result that does not match its schema", () => {
  writeFileSync(join(dir, "control.mjs"), control);
  // The API's incident schema, as get_incident would advertise it without the server's portable().
  const api = JSON.parse(readFileSync(join(out, "api", "v1", "schemas", "incident.schema.json"), "utf8")).properties.data;
  writeFileSync(join(dir, "incident.json"), JSON.stringify(api));
  const server = [process.execPath, join(dir, "control.mjs"), join(dir, "incident.json")];
  const list = inspect(server, ["--method", "tools/list", "--strict"]);
  // Warnings alone leave the exit code at 0: only stderr tells.
  assert.equal(list.status, 0, list.stderr);
  assert.equal(list.json.tools[0].name, "get_incident");
  const paths = [...list.stderr.matchAll(/^Warning: tool "get_incident"\n {2}Path: (\S+)\n {2}Issue: `type` is an array \(\["string","null"\]\)/gm)].map((m) => m[1]);
  assert.deepEqual(paths, ["date_bound_note", "severity", "impact", "affected_users", "time_to_detect", "time_to_recover", "published", "updated"].map((p) => `outputSchema.anyOf[0].properties.${p}`), list.stderr);
  assert.match(list.stderr, /^0 errors, 8 warnings across 1 tool\.$/m);
  const called = inspect(server, ["--method", "tools/call", "--tool-name", "get_incident", "--tool-arg", "id=IL-0004"]);
  assert.notEqual(called.status, 0);
  assert.match(called.stderr, /must have required property 'title'/);
});

test("resources, templates and prompts through the inspector: listed, read, got", () => {
  const run = (...args) => {
    const r = inspect(ours(), args);
    assert.equal(r.stderr, "", `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.status, 0, `${args.join(" ")}: exit ${r.status}\n${r.stdout}`);
    return r.json;
  };
  // The inspector follows the server's pages (100 a page) to the end.
  const listed = run("--method", "resources/list");
  assert.ok(listed.resources.length >= 600, `${listed.resources.length} resources`);
  assert.equal(new Set(listed.resources.map((r) => r.uri)).size, listed.resources.length, "no page repeats another");
  assert.equal(listed.resources[0].uri, "incident://IL-0001");
  assert.equal(listed.resources.at(-1).uri, "taxonomy://vocab");
  const templates = run("--method", "resources/templates/list").resourceTemplates.map((t) => t.uriTemplate);
  assert.deepEqual(templates.sort(), ["incident://{id}", "topic://{facet}/{slug}"]);
  for (const uri of ["incident://IL-0001", "topic://cause/config-change", "taxonomy://vocab"]) {
    const read = run("--method", "resources/read", "--uri", uri);
    assert.equal(read.contents[0].mimeType, "text/markdown", uri);
    assert.match(read.contents[0].text, /^# /, uri);
  }
  const prompts = run("--method", "prompts/list").prompts.map((p) => p.name);
  assert.deepEqual(prompts, ["check_my_system", "find_similar", "review_postmortem"]);
  for (const [name, arg] of [["check_my_system", "id=IL-0001"], ["find_similar", "description=DNS 설정 배포 뒤 이름 해석 실패"], ["review_postmortem", "draft=## 요약 배포 뒤 장애가 났다"]]) {
    const got = run("--method", "prompts/get", "--prompt-name", name, "--prompt-args", arg, "lang=en");
    assert.ok(got.messages[0].content.text.length > 200, name);
  }
});
