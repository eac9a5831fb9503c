// The npm package in Node (no browser): open a library from a served URL, a folder
// path and a file: URL, then search it and read a record, with the same answers as
// the command line.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { relative } from "node:path";
import { serve, native, repo } from "../e2e/helpers.mjs";

let library, IncidentLibrary;
before(async () => {
  library = await serve();
  ({ IncidentLibrary } = await import(pathToFileURL(repo + "/pkg/library.js").href));
});
after(() => library?.stop());

const hits = (r) => r.hits.map((h) => [h.id, h.full, h.missing]);

test("open() from a served URL, a folder path and a file: URL gives the CLI's answers", async () => {
  const q = "재시도 폭증으로 로드밸런서가 멈춤";
  const want = native(library, q);
  const bases = [library.url, library.url.replace(/\/$/, ""), library.out, relative(process.cwd(), library.out), pathToFileURL(library.out)];
  for (const base of bases) {
    const lib = await IncidentLibrary.open(base);
    const r = await lib.search(q, { prefix: true });
    assert.equal(r.total, want.total, String(base));
    assert.deepEqual(hits(r), hits(want), String(base));
    const record = await lib.get(r.hits[0].id);
    assert.equal(record.id, r.hits[0].id);
    assert.ok(lib.pageOf(record.id).endsWith(`incidents/${record.id}/`));
  }
});

test("hits carry excerpts with mark ranges over plain text, as the CLI cuts them", async () => {
  const lib = await IncidentLibrary.open(library.out);
  for (const [query, marked] of [["재시도를", ["재시도"]], ["certificate expired", ["인증서", "만료", "certificate"]]]) {
    const r = await lib.search(query, { prefix: true });
    const want = native(library, query);
    assert.deepEqual(r.hits.map((h) => h.id), want.hits.map((h) => h.id));
    let found = 0;
    for (const [i, h] of r.hits.entries()) {
      // The native excerpts count characters; these texts hold none beyond the BMP.
      assert.deepEqual(h.sub_results.map(({ section, anchor, text, marks, found }) => ({ section, anchor, text, marks, found })), want.hits[i].excerpts, `${query} ${h.id}`);
      assert.equal(h.excerpt === null, h.sub_results.length === 0);
      if (!h.excerpt) continue;
      found++;
      assert.ok(h.sub_results.includes(h.excerpt));
      assert.equal(h.excerpt.found, Math.max(...h.sub_results.map((e) => e.found)));
      for (const e of h.sub_results) {
        assert.ok(e.url.endsWith(`incidents/${h.id}/#${e.anchor}`), e.url);
        for (const [s, t] of e.marks) assert.ok(marked.includes(e.text.slice(s, t).toLowerCase()), `${h.id}: ${e.text.slice(s, t)}`);
      }
    }
    assert.ok(found >= 3, `${query}: ${found} hits with excerpts`);
  }
  // Without excerpts, no passages are read and the hits have none.
  const bare = await lib.search("재시도를", { excerpts: false });
  assert.equal(bare.hits[0].excerpt, undefined);
});

test("a folder with no library, and an unknown record, are errors that name them", async () => {
  await assert.rejects(IncidentLibrary.open(repo + "/no-such-library"), /no-such-library.*no such file/);
  const lib = await IncidentLibrary.open(library.out);
  await assert.rejects(lib.get("IL-9998"), /no incident IL-9998/);
  // An address nothing answers on: the error names the URL it tried, not a bare "fetch failed".
  const { createServer } = await import("node:net");
  const closed = createServer();
  await new Promise((r) => closed.listen(0, "127.0.0.1", r));
  const port = closed.address().port;
  await new Promise((r) => closed.close(r));
  await assert.rejects(IncidentLibrary.open(`http://127.0.0.1:${port}/lib/`), new RegExp(`http://127\\.0\\.0\\.1:${port}/lib/index/meta\\.bin: fetch failed`));
});
