// The static API: every file under dist/api/v1/ matches its JSON Schema, the
// OpenAPI document's references resolve, and the files agree with each other.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { binary, repo, shippedData } from "../e2e/helpers.mjs";

let api, out;
before(() => {
  out = join(mkdtempSync(join(tmpdir(), "il-api-")), "dist");
  execFileSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg")], { stdio: "ignore" });
  api = join(out, "api", "v1");
});

const walk = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
const read = (p) => JSON.parse(readFileSync(p, "utf8"));

function schemaFor(path) {
  const rel = relative(api, path);
  if (rel === "index.json") return "index";
  if (/^incidents(-\d+)?\.json$/.test(rel)) return "incidents";
  if (/^incidents\/IL-\d{4}\.json$/.test(rel)) return "incident";
  if (rel === "topics.json") return "topics";
  if (/^topics\/[a-z]+\/[a-z0-9-]+\.json$/.test(rel)) return "topic";
  if (rel === "vocab.json") return "vocab";
  return null;
}

test("every API file validates against its schema", () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const validators = {};
  for (const name of ["index", "incidents", "incident", "topics", "topic", "vocab"]) {
    validators[name] = ajv.compile(read(join(api, "schemas", `${name}.schema.json`)));
  }
  let checked = 0;
  for (const file of walk(api)) {
    if (file.includes(`${"/"}schemas${"/"}`) || file.endsWith("openapi.json") || file.endsWith("404.json")) continue;
    const name = schemaFor(file);
    assert.ok(name, `no schema for ${relative(api, file)}`);
    const ok = validators[name](read(file));
    assert.ok(ok, `${relative(api, file)}: ${JSON.stringify(validators[name].errors?.slice(0, 3))}`);
    checked++;
  }
  assert.ok(checked > 300, `only ${checked} files checked`);
});

test("a schema rejects a broken file (the validation can fail)", () => {
  const ajv = new Ajv2020({ strict: true });
  addFormats(ajv);
  const validate = ajv.compile(read(join(api, "schemas", "incident.schema.json")));
  const good = read(join(api, "incidents", "IL-0004.json"));
  assert.ok(validate(good));
  const bad = structuredClone(good);
  bad.data.id = "IL-4";
  delete bad.data.sections["교훈"];
  assert.equal(validate(bad), false);
});

test("every schema refuses a field it does not know, a missing one and a wrong type", () => {
  const ajv = new Ajv2020({ strict: true });
  addFormats(ajv);
  const files = {
    index: "index.json",
    incidents: "incidents.json",
    incident: "incidents/IL-0004.json",
    topics: "topics.json",
    topic: "topics/component/cdn-edge.json",
    vocab: "vocab.json",
  };
  for (const [name, file] of Object.entries(files)) {
    const validate = ajv.compile(read(join(api, "schemas", `${name}.schema.json`)));
    const good = read(join(api, file));
    assert.ok(validate(good), name);
    const extra = structuredClone(good);
    extra.data.unknown_field = 1;
    assert.equal(validate(extra), false, `${name}: an unknown field`);
    const [first] = Object.keys(good.data);
    const missing = structuredClone(good);
    delete missing.data[first];
    assert.equal(validate(missing), false, `${name}: without ${first}`);
    const wrong = structuredClone(good);
    wrong.data[first] = { not: "this" };
    assert.equal(validate(wrong), false, `${name}: ${first} of the wrong type`);
  }
  // Facets: every key present, and only the library's.
  const validate = ajv.getSchema("incidents.schema.json");
  const listing = read(join(api, "incidents.json"));
  const noCause = structuredClone(listing);
  delete noCause.data.incidents[0].facets.cause;
  assert.equal(validate(noCause), false);
  const team = structuredClone(listing);
  team.data.incidents[0].facets.team = [];
  assert.equal(validate(team), false);
});

test("the OpenAPI document is 3.1 and its references resolve", () => {
  const doc = read(join(api, "openapi.json"));
  assert.equal(doc.openapi, "3.1.0");
  // Its 404 is the API's own 404.json, which _redirects sends for a missing file.
  const ajv = new Ajv2020({ strict: false });
  const notFound = ajv.compile(doc.paths["/incidents/{id}.json"].get.responses["404"].content["application/json"].schema);
  assert.ok(notFound(read(join(api, "404.json"))), JSON.stringify(notFound.errors));
  assert.equal(notFound({ error: "something else" }), false);
  assert.match(readFileSync(join(out, "_redirects"), "utf8"), /^\/api\/v1\/\* \/api\/v1\/404\.json 404$/m);
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) || [];
  assert.ok(refs.length >= 6);
  for (const r of refs) {
    const target = r.slice(8, -1);
    assert.ok(existsSync(join(api, target)), `${target} is missing`);
  }
});

test("the files agree: listing, records, topics and vocabulary", () => {
  const index = read(join(api, "index.json")).data;
  const listing = read(join(api, "incidents.json")).data;
  assert.equal(listing.total, index.incidents);
  assert.equal(listing.incidents.length, Math.min(listing.total, 500));
  // Newest first by the day each sorts by; `date` itself may be a month or lack a year.
  const dates = listing.incidents.map((i) => i.sort_date);
  assert.deepEqual([...dates].sort().reverse(), dates, "newest first");
  for (const entry of listing.incidents.slice(0, 20)) {
    const record = read(join(api, entry.url)).data;
    assert.equal(record.title, entry.title);
    assert.ok(record.checks && record.sections["요약"].text.length > 0);
  }
  const vocab = read(join(api, "vocab.json")).data;
  const topics = read(join(api, "topics.json")).data.topics;
  for (const facet of vocab.facets) {
    for (const v of facet.values) {
      const topic = read(join(api, "topics", facet.key, `${v.slug}.json`)).data;
      assert.equal(topic.incidents.length, v.count, `${facet.key}/${v.slug}`);
      assert.ok(topics.some((t) => t.facet === facet.key && t.slug === v.slug));
    }
  }
  // A merged id keeps its file and names the record it moved to, which exists.
  for (const [id, to] of [["IL-0007", "IL-0006"], ["IL-0021", "IL-0020"]]) {
    const moved = read(join(api, "incidents", `${id}.json`)).data;
    assert.equal(moved.moved_to, to);
    assert.equal(read(join(api, "incidents", moved.url)).data.id, to);
  }
  // So does an old slug of a merged taxonomy value.
  const alias = read(join(api, "topics", "cause", "latent-software-bug.json")).data;
  assert.equal(alias.moved_to, "software-bug");
  assert.ok(vocab.facets.find((f) => f.key === "cause").values.find((v) => v.slug === "software-bug").aliases.includes("latent-software-bug"));
  const headers = readFileSync(join(out, "_headers"), "utf8");
  assert.match(headers, /\/api\/\*\n\s+Access-Control-Allow-Origin: \*/);
});

test("the site tells visitors about the API and the MCP server", () => {
  const page = readFileSync(join(out, "api", "index.html"), "utf8");
  for (const tool of ["search_incidents", "list_incidents", "get_incident", "get_topic", "vocab"]) assert.ok(page.includes(tool), tool);
  for (const client of ["Claude Code", "Codex", "Claude Desktop", "VS Code"]) assert.ok(page.includes(client), client);
  assert.match(page, /curl -s/);
  // Every path the page names is a file of the build (with a real id and slug for the templates).
  for (const [, path] of page.matchAll(/<code>(api\/v1\/[^<]+\.json)<\/code>/g)) {
    const file = path.replace("{id}", "IL-0001").replace("{facet}/{slug}", "component/cdn-edge");
    assert.ok(existsSync(join(out, file)), file);
  }
  // Each incident page ends with the note, naming its own JSON, which exists.
  for (const id of ["IL-0001", "IL-0184"]) {
    const html = readFileSync(join(out, "incidents", id, "index.html"), "utf8");
    const note = html.match(/<aside class="machine"[\s\S]*?<\/aside>/)?.[0] ?? "";
    assert.ok(note.includes(`href="../../api/v1/incidents/${id}.json"`), note);
    assert.ok(note.includes('href="../../api/"'), note);
    assert.ok(existsSync(join(out, "api", "v1", "incidents", `${id}.json`)));
  }
  // Every page's navigation links to it.
  assert.match(readFileSync(join(out, "index.html"), "utf8"), /<a href="api\/">API 와 MCP<\/a>/);
});

test("redocly lint (recommended rules) passes on the OpenAPI document, and its paths are the files", () => {
  let out = "";
  try {
    execFileSync(join(repo, "node_modules/.bin/redocly"), ["lint", "--format", "stylish", join(api, "openapi.json")], { encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    out = `${e.stdout}${e.stderr}`;
  }
  assert.equal(out, "", out);
  const doc = read(join(api, "openapi.json"));
  const index = read(join(api, "index.json")).data;
  const one = { id: "IL-0001", page: "2", facet: "component", slug: "cdn-edge" };
  const listing = read(join(api, "incidents.json")).data;
  for (const path of Object.keys(doc.paths)) {
    // A library of one listing page has no page 2; its `pages` says so.
    if (path.includes("{page}") && listing.pages < 2) continue;
    const file = path.slice(1).replace(/\{(\w+)\}/g, (_, k) => one[k]);
    assert.ok(existsSync(join(api, file)), `${path} → ${file}`);
  }
  // index.json names the same templates, and its schema types every one of them.
  for (const template of Object.values(index.endpoints)) {
    if (template.endsWith(".json")) assert.ok(`/${template}` in doc.paths || template === "openapi.json", template);
  }
  const schema = read(join(api, "schemas", "index.schema.json"));
  assert.deepEqual(Object.keys(schema.properties.data.properties.endpoints.properties).sort(), Object.keys(index.endpoints).sort());
});
