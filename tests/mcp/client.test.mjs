// A real MCP client (the official TypeScript SDK) against `incident-library mcp`:
// list the tools, run search -> get_incident -> get_topic -> vocab, validate every
// structuredContent against the tool's outputSchema, and check an isError case;
// list and read the resources, get the prompts, complete ids and slugs, and give
// absolute links under --site-url.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { binary, repo, shippedData } from "../e2e/helpers.mjs";

let client, tools, out;
before(async () => {
  out = join(mkdtempSync(join(tmpdir(), "il-mcp-")), "dist");
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
  const listed = checkOutput("list_incidents", await client.callTool({ name: "list_incidents", arguments: { filters: { cause: [cause] }, limit: 40 } }));
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
  // The summary text names each hit (id, date, the title's start); the excerpts
  // stay in the structure, not twice.
  const r = await client.callTool({ name: "search_incidents", arguments: { query: "재시도를", limit: 3 } });
  const text = r.content.map((c) => c.text).join("\n");
  for (const h of r.structuredContent.hits) assert.ok(text.includes(`${h.id} · ${h.date_label} · ${h.title.slice(0, 20)}`), text);
  assert.doesNotMatch(text, /\*\*/);
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

test("resources: every incident, topic and the taxonomy, paged, with titles, descriptions and lastModified", async () => {
  const all = [];
  let cursor;
  do {
    const page = await client.listResources(cursor ? { cursor } : {});
    assert.ok(page.resources.length <= 100);
    all.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor);
  const ids = all.filter((r) => r.uri.startsWith("incident://"));
  const vocab = checkOutput("vocab", await client.callTool({ name: "vocab", arguments: {} }));
  assert.equal(all.filter((r) => r.uri.startsWith("topic://")).length, vocab.total);
  assert.ok(all.some((r) => r.uri === "taxonomy://vocab"));
  assert.ok(ids.length >= 300);
  for (const r of all) {
    assert.ok(r.name && r.title && r.description, JSON.stringify(r));
    assert.equal(r.mimeType, "text/markdown");
    assert.match(r.annotations.lastModified, /^\d{4}-\d{2}-\d{2}T/);
  }
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
  assert.deepEqual(templates.sort(), ["incident://{id}", "topic://{facet}/{slug}"]);

  // An incident reads as its Markdown: the title, the sections, the checks; its
  // links point to other resources.
  const record = checkOutput("get_incident", await client.callTool({ name: "get_incident", arguments: { id: "IL-0209", sections: "all" } }));
  const text = (await client.readResource({ uri: "incident://IL-0209" })).contents[0].text;
  assert.ok(text.startsWith(`# ${record.title}\n`));
  for (const s of record.sections) assert.ok(text.includes(`\n## ${s.name}\n`), s.name);
  for (const c of record.checks) assert.ok(text.includes(c));
  assert.match(text, /\]\(topic:\/\/cause\/[a-z-]+\)/);
  const topic = (await client.readResource({ uri: "topic://component/dns" })).contents[0].text;
  assert.match(topic, /^# DNS/);
  assert.match(topic, /\]\(incident:\/\/IL-\d{4}\)/);
  assert.match((await client.readResource({ uri: "taxonomy://vocab" })).contents[0].text, /`config-change`/);
  await assert.rejects(client.readResource({ uri: "incident://IL-9999" }), /no incident IL-9999/);
  await assert.rejects(client.readResource({ uri: "file:///etc/passwd" }), /not a resource of this library/);
});

test("prompts: each in Korean and English, with the library's part done", async () => {
  const prompts = (await client.listPrompts()).prompts;
  assert.deepEqual(prompts.map((p) => p.name), ["check_my_system", "find_similar", "review_postmortem"]);
  const text = async (name, args) => (await client.getPrompt({ name, arguments: args })).messages.map((m) => m.content.text).join("\n");
  const check = await text("check_my_system", { id: "il-0209" });
  const record = checkOutput("get_incident", await client.callTool({ name: "get_incident", arguments: { id: "IL-0209" } }));
  for (const c of record.checks) assert.ok(check.includes(c));
  assert.match(check, /읽기만 한다/);
  assert.match(await text("check_my_system", { id: "IL-0209", lang: "en" }), /Read only\. Change no setting/);
  const similar = await text("find_similar", { description: "데이터센터 화재로 메신저가 며칠 동안 멈췄다" });
  assert.match(similar, /^1\. IL-\d{4} — /m);
  const review = await text("review_postmortem", { draft: "## 요약\n배포 뒤 DNS 레코드가 사라져 30분 동안 접속이 안 됐다.\n## 원인\nTTL 설정 실수", lang: "en" });
  assert.match(review, /Sections the draft does not name: 증상, 촉발, 감지, 조치, 후속 조치, 교훈/);
  assert.match(review, /^1\. IL-\d{4} — /m);
  await assert.rejects(client.getPrompt({ name: "find_similar", arguments: {} }), /description is required/);
  await assert.rejects(client.getPrompt({ name: "check_my_system", arguments: { id: "IL-0001", lang: "fr" } }), /lang fr is not known/);
});

test("completions: an incident id by number or title words, a slug by label", async () => {
  const complete = async (ref, name, value, context) =>
    (await client.complete({ ref, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) })).completion;
  const prompt = { type: "ref/prompt", name: "check_my_system" };
  assert.deepEqual((await complete(prompt, "id", "IL-020")).values, ["IL-0200", "IL-0201", "IL-0202", "IL-0203", "IL-0204", "IL-0205", "IL-0206", "IL-0207", "IL-0208", "IL-0209"]);
  assert.ok((await complete(prompt, "id", "209")).values.includes("IL-0209"));
  assert.ok((await complete(prompt, "id", "판교 데이터센터")).values.includes("IL-0209"));
  assert.deepEqual((await complete({ type: "ref/resource", uri: "incident://{id}" }, "id", "il-000")).values.slice(0, 2), ["IL-0001", "IL-0002"]);
  const topic = { type: "ref/resource", uri: "topic://{facet}/{slug}" };
  assert.deepEqual((await complete(topic, "facet", "c")).values, ["cause", "component"]);
  assert.ok((await complete(topic, "slug", "인증서", { facet: "cause" })).values.includes("certificate-expiry"));
  assert.ok((await complete(topic, "slug", "config")).values.includes("config-change"));
  const many = await complete(prompt, "id", "IL");
  assert.equal(many.values.length, 100);
  assert.equal(many.hasMore, true);
});

test("find_similar: the expected incident in its top 3 for at least 27 of 30 natural blind queries", async () => {
  const blocks = readFileSync(join(repo, "tests/relevance/blind.toml"), "utf8").split("[[query]]").slice(1);
  const natural = blocks
    .map((b) => ({ q: b.match(/^q = "(.*)"$/m)?.[1], kind: b.match(/^kind = "(.*)"$/m)?.[1], expect: JSON.parse(b.match(/^expect = (\[.*\])$/m)?.[1] ?? "[]") }))
    .filter((x) => x.kind === "natural" && x.expect.length)
    .slice(0, 30);
  assert.equal(natural.length, 30);
  const misses = [];
  for (const { q, expect } of natural) {
    const text = (await client.getPrompt({ name: "find_similar", arguments: { description: q } })).messages[0].content.text;
    const top = [...text.matchAll(/^\d+\. (IL-\d{4}) — /gm)].map((m) => m[1]).slice(0, 3);
    if (!top.some((id) => expect.includes(id))) misses.push(`${q}: ${top}`);
  }
  assert.ok(misses.length <= 3, misses.join("\n"));
});

test("--site-url: every link absolute, and the site's pages read as resources", async () => {
  const site = "https://incidents.example.org/lib/";
  const absolute = new Client({ name: "incident-library-test", version: "1.0.0" });
  await absolute.connect(new StdioClientTransport({ command: binary, args: ["mcp", "--bundle", out, "--site-url", site.slice(0, -1)], stderr: "pipe" }));
  try {
    const found = (await absolute.callTool({ name: "search_incidents", arguments: { query: "재시도를", limit: 3 } })).structuredContent;
    for (const h of found.hits) for (const e of h.excerpts ?? []) assert.ok(e.url.startsWith(`${site}incidents/${h.id}/#s-`), e.url);
    const record = (await absolute.callTool({ name: "get_incident", arguments: { id: "IL-0001" } })).structuredContent;
    assert.equal(record.url, `${site}incidents/IL-0001/`);
    const topic = (await absolute.callTool({ name: "get_topic", arguments: { facet: "component", slug: "dns" } })).structuredContent;
    assert.equal(topic.page, `${site}topics/component/dns/`);
    const text = (await absolute.readResource({ uri: `${site}incidents/IL-0001/` })).contents[0].text;
    assert.match(text, /^# /);
    for (const [, link] of text.matchAll(/\]\(([^)]+)\)/g)) assert.ok(link.startsWith(site), link);
    assert.equal((await absolute.readResource({ uri: `${site}incidents/IL-0001/index.md` })).contents[0].text, text);
  } finally {
    await absolute.close();
  }
});
