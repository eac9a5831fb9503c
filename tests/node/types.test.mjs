// The npm package's type declarations, as a TypeScript consumer meets them:
// `tsc --noEmit` (strict) on tests/types/consumer.ts, which reads every part of a
// search result and of a record.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { repo } from "../e2e/helpers.mjs";

test("tsc --noEmit passes on a consumer of the package", () => {
  let out = "";
  try {
    execFileSync(join(repo, "node_modules/.bin/tsc"), ["-p", join(repo, "tests/types")], { encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    out = `${e.stdout}${e.stderr}`;
  }
  assert.equal(out, "", out);
});
