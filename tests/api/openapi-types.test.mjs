// The static API's OpenAPI document as a TypeScript client meets it: openapi-typescript
// (pinned) turns the built openapi.json into types, and `tsc --noEmit --strict`
// checks consumers of them: tests/types/openapi-consumer.ts reads `index.json`'s
// `endpoints` by their real key names and pins the key set; the built index.json's
// own `endpoints` type-checks as that type; and tests/types/openapi-consumer-bad.ts,
// which reads a key that does not exist, must fail.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binary, repo, shippedData } from "../e2e/helpers.mjs";

let dir, api, generated;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "il-openapi-ts-"));
  const out = join(dir, "dist");
  execFileSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg")], { stdio: "ignore" });
  api = join(out, "api", "v1");
  const r = spawnSync(join(repo, "node_modules/.bin/openapi-typescript"), [join(api, "openapi.json"), "-o", join(dir, "openapi.ts")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  generated = readFileSync(join(dir, "openapi.ts"), "utf8");
  for (const name of ["openapi-consumer.ts", "openapi-consumer-bad.ts"]) copyFileSync(join(repo, "tests", "types", name), join(dir, name));
});

/** `tsc --noEmit --strict` (with the options of tests/types/tsconfig.json) on `files` in the temp folder; resolves to { status, out }. */
function tsc(...files) {
  const r = spawnSync(
    join(repo, "node_modules/.bin/tsc"),
    ["--noEmit", "--strict", "--target", "ES2022", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess", "--pretty", "false", ...files.map((f) => join(dir, f))],
    { encoding: "utf8", cwd: dir },
  );
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

test("the generated types give endpoints every key of index.json, each a string", () => {
  const block = generated.match(/\n(\s*)endpoints: \{\n([\s\S]*?)\n\1\};/);
  assert.ok(block, `no endpoints object in the generated types:\n${generated.match(/.*endpoints.*/g)}`);
  const keys = [...block[2].matchAll(/^\s*(\w+): string;$/gm)].map((m) => m[1]);
  const index = JSON.parse(readFileSync(join(api, "index.json"), "utf8")).data;
  assert.deepEqual(keys.sort(), Object.keys(index.endpoints).sort(), block[0]);
});

test("tsc --noEmit --strict passes on a consumer that reads endpoints by its keys, and on index.json's own endpoints", () => {
  const index = JSON.parse(readFileSync(join(api, "index.json"), "utf8")).data;
  assert.ok(existsSync(join(dir, "openapi.ts")));
  // An object literal: tsc rejects a key the type lacks and a key it requires that is missing.
  writeFileSync(
    join(dir, "built-index.ts"),
    `import type { Endpoints } from "./openapi-consumer.js";\nexport const endpoints: Endpoints = ${JSON.stringify(index.endpoints, null, 2)};\n`,
  );
  const r = tsc("openapi-consumer.ts", "built-index.ts");
  assert.equal(r.out, "", r.out);
  assert.equal(r.status, 0);
});

test("tsc fails on a consumer that reads a key endpoints does not have, and names it", () => {
  const r = tsc("openapi-consumer-bad.ts");
  assert.notEqual(r.status, 0, "tsc accepted endpoints.incidents");
  assert.match(r.out, /openapi-consumer-bad\.ts\(\d+,\d+\): error TS(2339|2551): Property 'incidents' does not exist on type '\{ listing: string;/, r.out);
});
