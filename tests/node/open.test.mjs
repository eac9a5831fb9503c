// The npm package in Node (no browser): open a library from a served URL, a folder
// path and a file: URL, then search it and read a record, with the same answers as
// the command line.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { relative, join } from "node:path";
import { createServer } from "node:http";
import { readFileSync, existsSync } from "node:fs";
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

test("words in other scripts are cut where the command line cuts them", async () => {
  // The module asks the browser whether a character that is neither ASCII nor Hangul
  // is a letter or a digit (`\p{Alphabetic}`, `\p{N}`); the command line reads Rust's
  // tables. Dashes, dots and symbols between letters cut a word on both sides.
  const lib = await IncidentLibrary.open(library.out);
  for (const q of ["café Ωmega–DNS 東京…리전", "①번 장애 ½ Ⅷ", "Ｒｅｄｉｓ·캐시 naïve résumé", "العربية٣ ١٢ ∞장애", "ﾃｽﾄ テスト장애"]) {
    const r = await lib.search(q, { prefix: true, excerpts: false });
    const want = native(library, q);
    assert.deepEqual(r.words.map((w) => w.input), want.words.map((w) => w.input), q);
    assert.deepEqual(r.hits.map((h) => h.id), want.hits.map((h) => h.id), q);
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

/** Serves `out` over HTTP; `index/meta.bin` goes out in two parts: its first
 *  `head` bytes, then the rest once `release()` is called (or after 3 s), unless
 *  it is no longer than `head`. Each request's path, in order, is in `asked`. */
async function heldMetaServer(out, head) {
  const asked = [];
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
    setTimeout(resolve, 3000);
  });
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    asked.push(path);
    const file = join(out, path);
    if (!existsSync(file) || path.includes("..")) return res.writeHead(404).end();
    const body = readFileSync(file);
    res.writeHead(200, { "access-control-allow-origin": "*", "content-length": body.length });
    if (!path.endsWith("/meta.bin") || head >= body.length) return res.end(body);
    res.write(body.subarray(0, head));
    await held;
    res.end(body.subarray(head));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/`, asked, release, close: () => server.close() };
}

/** The vocabulary blocks `server` (a `heldMetaServer`) was asked for, in order. */
const blocksAsked = (server) => server.asked.filter((p) => p.startsWith("/index/vocab-"));

/** The blocks asked for early, while `server` holds the rest of meta.bin back:
 *  they go out together, so once one has come, those that come within 300 ms of
 *  the last are counted too (2.5 s at the most). */
async function earlyBlocks(server) {
  const deadline = Date.now() + 2500;
  let seen = 0;
  let quietSince = Date.now();
  while (Date.now() < deadline && (seen === 0 || Date.now() - quietSince < 300)) {
    await new Promise((r) => setTimeout(r, 20));
    if (blocksAsked(server).length > seen) {
      seen = blocksAsked(server).length;
      quietSince = Date.now();
    }
  }
  return blocksAsked(server);
}

test("open() with the first query asks for its words' blocks from the start of meta.bin, before the rest has come", async () => {
  const q = "DNS레코드가 꼬여서 로드밸런서 먹통";
  const want = native(library, q);
  // The header, the directory and the start of the lexicon of the shipped meta.bin:
  // the words' own blocks, and no others yet.
  const meta = readFileSync(join(library.out, "index/meta.bin"));
  const server = await heldMetaServer(library.out, 8192);
  try {
    assert.ok(meta.length > 8192 * 2, `meta.bin is ${meta.length} B`);
    const opening = IncidentLibrary.open(server.url, { query: q });
    // While the rest of meta.bin is held back, the blocks of the words as typed
    // are asked for: dns, 레코드가, 꼬여서, 로드밸런서, 먹통.
    const early = await earlyBlocks(server);
    server.release();
    assert.ok(early.length >= 3 && early.length <= 5, `blocks asked for while meta.bin was held: ${early}`);
    const lib = await opening;
    const r = await lib.search(q, { prefix: true, excerpts: false });
    assert.deepEqual(hits(r), hits(want));
    // Each block is asked for once: the search found the early ones coming.
    const blocks = blocksAsked(server);
    assert.equal(new Set(blocks).size, blocks.length, String(blocks));
    // And the search needed them.
    const plain = await IncidentLibrary.open(library.out);
    const first = plain.core.search({ query: q, prefix: true, filters: [], per_page: 10 });
    for (const path of early) assert.ok(first.missing.includes(path.slice("/index/".length)), `${path} was not needed`);
  } finally {
    server.release();
    server.close();
  }
});

test("open() with the first query asks, once the lexicon is in, for the blocks of its words' other readings too: the search then asks for no block", async () => {
  // 애저 is the lexicon's Hangul spelling of azure, 먹통 a colloquial word for an
  // outage; both carry a particle or an ending as typed. 2017년 and 2월 are also
  // read as the numbers 2017 and 2; 전 리전 and 난 장애 also as 전리전 and 난장애,
  // typed apart.
  for (const q of ["애저가 먹통됨", "아마존 2017년 2월 장애", "systemd 업데이트로 Datadog 전 리전 다운", "Consul 때문에 난 장애"]) await readsEarly(q);
});

test("open() with the first query asks, while meta.bin is still coming, for the near-term buckets of a word its early blocks lack: the search then needs only the listings", async () => {
  // Typos (트렁케이트, 세머포어, 만로로) and a Hangul spelling the lexicon does not
  // hold (트래비스): their blocks show the vocabulary lacks them, so their typo
  // lookup's buckets go out before the module has started.
  for (const q of ["트래비스 DB 트렁케이트", "세머포어 고갈", "인증서 만로로 먹통"]) await readsEarly(q, { near: true });
});

/** Opens the shipped library with first query `q` while the last byte of meta.bin
 *  is held back, and checks that the blocks (and, with `near`, the near-term
 *  buckets) asked for meanwhile are all its first search needs but the listings. */
async function readsEarly(q, { near = false } = {}) {
  const want = native(library, q);
  const meta = readFileSync(join(library.out, "index/meta.bin"));
  // All of meta.bin but its last byte: the directory and the lexicon are in, and
  // the module cannot start before the rest comes.
  const server = await heldMetaServer(library.out, meta.length - 1);
  try {
    const opening = IncidentLibrary.open(server.url, { query: q });
    const early = await earlyBlocks(server);
    const buckets = server.asked.filter((p) => p.startsWith("/index/near-"));
    server.release();
    assert.ok(!near || (buckets.length > 0 && buckets.length <= 3), `${q}: near-term buckets asked for while meta.bin was held: ${buckets}`);
    // More than the words' own blocks, and within the limit.
    assert.ok(early.length > 2 && early.length <= 20, `${q}: blocks asked for while meta.bin was held: ${early}`);
    const lib = await opening;
    // The blocks came while meta.bin was held: the module holds them before the
    // first search, which needs nothing more of the index than the listings.
    const first = lib.core.search({ query: q, prefix: true, per_page: 10 });
    assert.ok(!first.incomplete && first.missing.every((f) => f.startsWith("listing-")), `${q}: still missing: ${first.missing}`);
    const r = await lib.search(q, { prefix: true, excerpts: false });
    assert.deepEqual(hits(r), hits(want), q);
    // The search found every block it needed already asked for.
    assert.deepEqual(blocksAsked(server), early, q);
  } finally {
    server.release();
    server.close();
  }
}

test("open() with the first query asks, once meta.bin is in and before the module has started, for the listings of its likeliest hits: most of the first page, so the rest come in one wave", async () => {
  const listings = (server) => server.asked.filter((p) => p.startsWith("/index/listing-")).map((p) => p.replace("/index/", ""));
  for (const q of ["카카오 데이터센터 화재", "재시도 폭증으로 로드밸런서 과부하", "DB 커넥션 풀 고갈", "인증서 만료"]) {
    const want = native(library, q);
    // meta.bin's last byte is held until the early blocks have come: in a browser
    // the module takes longer than both.
    const server = await heldMetaServer(library.out, readFileSync(join(library.out, "index/meta.bin")).length - 1);
    try {
      const opening = IncidentLibrary.open(server.url, { query: q });
      await earlyBlocks(server);
      assert.deepEqual(listings(server), [], `${q}: listings asked for before meta.bin was in`);
      server.release();
      const lib = await opening;
      // The requests made while opening reach the server a moment later.
      let early = [];
      for (let quiet = 0; quiet < 10; quiet++) {
        await new Promise((r) => setTimeout(r, 20));
        if (listings(server).length > early.length) [early, quiet] = [listings(server), 0];
      }
      assert.ok(early.length >= 1 && early.length <= 5, `${q}: listings asked for while opening: ${early}`);
      // The first search needs only its page's listings, four or more of them
      // already asked for: at most six left, one wave of requests over HTTP/1.1.
      const first = lib.core.search({ query: q, prefix: true, per_page: 10 });
      assert.ok(first.missing.every((f) => f.startsWith("listing-")), `${q}: still missing: ${first.missing}`);
      const left = first.missing.filter((f) => !early.includes(f));
      assert.ok(left.length <= 6, `${q}: asked for ${early}, left ${left}`);
      assert.ok(first.missing.length - left.length >= Math.min(4, want.total), `${q}: asked for ${early}, of the page ${first.missing}`);
      const r = await lib.search(q, { prefix: true, excerpts: false });
      assert.deepEqual(hits(r), hits(want), q);
    } finally {
      server.close();
    }
  }
  // Words the early blocks cannot read (more than two): the guess would be in vain.
  const server = await heldMetaServer(library.out, Infinity);
  try {
    const q = "qwxzv zzkvq ppqtx 장애";
    const lib = await IncidentLibrary.open(server.url, { query: q });
    assert.deepEqual(listings(server), [], q);
    assert.deepEqual(hits(await lib.search(q, { prefix: true, excerpts: false })), hits(native(library, q)), q);
  } finally {
    server.close();
  }
});

test("open() with a hostile, empty or non-string first query asks for at most 20 blocks and opens and searches as without one", async () => {
  for (const q of ["", "   ", "\u0000<script>alert(1)</script>", "가".repeat(5000), Array.from({ length: 300 }, (_, i) => `단어${i}`).join(" "), "🙂 𝒜 ﬁ ＡＷＳ"]) {
    const server = await heldMetaServer(library.out, Infinity);
    try {
      const lib = await IncidentLibrary.open(server.url, { query: q });
      assert.ok(server.asked.filter((p) => p.startsWith("/index/vocab-")).length <= 20, JSON.stringify(q.slice(0, 40)));
      const r = await lib.search(q.slice(0, 2000), { excerpts: false });
      const plain = await (await IncidentLibrary.open(library.out)).search(q.slice(0, 2000), { excerpts: false });
      assert.deepEqual(hits(r), hits(plain), JSON.stringify(q.slice(0, 40)));
    } finally {
      server.close();
    }
  }
  // A query that is not a string, or not even one as text, never fails the opening.
  const size = (await IncidentLibrary.open(library.out)).size;
  for (const q of [42, ["장애"], { toString: () => "장애" }, { toString: () => { throw new Error("no text"); } }]) {
    const server = await heldMetaServer(library.out, Infinity);
    try {
      assert.equal((await IncidentLibrary.open(server.url, { query: q })).size, size);
    } finally {
      server.close();
    }
  }
});
