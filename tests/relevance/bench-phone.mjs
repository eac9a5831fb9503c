// How long a visitor waits for the first search on a slow network, our engine and
// Pagefind on the same built site in headless chromium (scripts/bench-phone.sh).
// Figures, not a test. For a sample of queries, each engine on a fresh browser
// context (empty cache, service workers blocked):
//
// * the page <site>/about/ is loaded unthrottled (the visitor has read a page and
//   now types a query), then the network is throttled through CDP;
// * the clock starts in the page just before the engine's script is imported, and
//   stops when the first ten results' titles are there: ours once
//   `IncidentLibrary.open` (given the query, as the search page gives it its URL's)
//   and `search` have returned (titles are in the hits),
//   Pagefind once `init`, `search` and `data()` of the first ten have (its data
//   holds the excerpt too). Ours' excerpts (`lib.excerpts`) are timed after that,
//   as "with excerpts", from the same start;
// * for each phase: the requests made for the engine (ours: pkg/, index/; its
//   excerpts: passages/; Pagefind: pagefind/, from its web worker too), the bytes
//   transferred (CDP's encodedDataLength: gzip where the server compresses,
//   headers included), and the sequential round trips, from CDP's
//   requestWillBeSent and loadingFinished times: a request's round is 1 + the
//   highest round of the phase's requests that finished before it started, the
//   phase's rounds the highest of all;
// * how many queries an engine had no title for, and its time over the others
//   (`ms_found`): an empty answer is quick.
//
// The server sends gzip as a production one would, over HTTP/1.1 (chromium opens
// at most six connections to it), or with --http2 over HTTP/2 and TLS, as most
// static hosts serve a site (one connection, every request at once). CDP's
// throttling adds the latency to each request and shares the bandwidth among
// them; it models no TCP handshake or slow start, so a real phone waits somewhat
// longer. The CPU is not slowed down.
//
// Prints one JSON object: p50 and p95 of each figure, and as an example of the
// chain each engine's requests for the first query both have titles for.
//
//   node tests/relevance/bench-phone.mjs <site with a pagefind index> <queries.toml> [sample=40] [--profile mobile|broadband] [--http2]
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "../e2e/helpers.mjs";
import { percentile as at, readQueries, staticServer } from "./common.mjs";

// Lighthouse's mobile figures (1.6 Mbps is its 1,638.4 kbps) and a home connection;
// throughputs in bytes per second, as CDP reads them.
const kbps = (k) => (k * 1024) / 8;
const PROFILES = {
  mobile: { latency: 150, downloadThroughput: kbps(1638.4), uploadThroughput: kbps(750) },
  broadband: { latency: 40, downloadThroughput: kbps(10 * 1024), uploadThroughput: kbps(5 * 1024) },
};

const args = process.argv.slice(2);
const flag = args.indexOf("--profile");
const profile = flag < 0 ? "mobile" : args.splice(flag, 2)[1];
const h2flag = args.indexOf("--http2");
const http2 = h2flag >= 0;
if (http2) args.splice(h2flag, 1);
const [site, queryFile, sampleArg] = args;
if (!queryFile || !PROFILES[profile] || !existsSync(join(site, "pagefind/pagefind.js"))) {
  console.error("usage: node tests/relevance/bench-phone.mjs <site with a pagefind index> <queries.toml> [sample=40] [--profile mobile|broadband] [--http2]");
  process.exit(2);
}
const all = readQueries([queryFile]);
const sample = Number(sampleArg || 40);
// Spread over the whole set, as bench-scale.mjs picks them.
const step = Math.max(1, Math.floor(all.length / sample));
const queries = all.filter((_, i) => i % step === 0).slice(0, sample);

// The in-page runs; each returns its ms from the clock start and how many titles
// it has to show: Pagefind wants every word of a query on one page and finds
// nothing for most of the blind set, and then stops before fetching any title.
const ours = async ({ url, q }) => {
  const start = performance.now();
  const mark = () => performance.now() - start;
  const { IncidentLibrary } = await import(url + "pkg/library.js");
  // As the search page opens it with its URL's query (app.js, loadLibrary).
  const lib = await IncidentLibrary.open(url, { query: q });
  const { hits } = await lib.search(q, { perPage: 10, prefix: true, excerpts: false });
  const titles = mark();
  await lib.excerpts(hits);
  return { titles, excerpts: mark(), shown: hits.length };
};
const theirs = async ({ url, q }) => {
  const start = performance.now();
  const pagefind = await import(url + "pagefind/pagefind.js");
  await pagefind.init();
  const search = await pagefind.search(q);
  const first = await Promise.all(search.results.slice(0, 10).map((r) => r.data()));
  return { titles: performance.now() - start, shown: first.length };
};
// The phase a request of the site belongs to, or none: not the engine's.
const oursPhase = (path) => (path.startsWith("pkg/") || path.startsWith("index/") ? "search" : path.startsWith("passages/") ? "excerpts" : null);
const theirsPhase = (path) => (path.startsWith("pagefind/") ? "search" : null);

/** Numbers each request's round in place (see the head comment); returns the last. */
function rounds(requests) {
  const byStart = [...requests].sort((a, b) => a.start - b.start);
  for (const r of byStart) {
    // Those that finished before r started all started before it: already numbered.
    r.round = 1 + Math.max(0, ...byStart.filter((o) => o.end <= r.start).map((o) => o.round));
  }
  return Math.max(0, ...byStart.map((r) => r.round));
}

const server = await staticServer(site, { compress: true, http2 });
const url = server.url;
const browser = await launch();

/** One query on a fresh context: the run's times and, by phase, its requests. */
async function visit(q, run, phaseOf) {
  // A service worker would start fetching the whole index as the about page loads.
  // The HTTP/2 server's certificate is its own.
  const context = await browser.newContext({ serviceWorkers: "block", ignoreHTTPSErrors: http2 });
  try {
    const page = await context.newPage();
    await page.goto(url + "about/");
    const cdp = await context.newCDPSession(page);
    const requests = new Map();
    const on = (method, e, worker = false) => {
      if (method === "Network.requestWillBeSent") {
        const path = decodeURIComponent(new URL(e.request.url).pathname).slice(1);
        const phase = phaseOf(path);
        // CDP's timestamps: seconds on one monotonic clock for the page and its workers.
        if (phase) requests.set(e.requestId, { path, phase, worker, start: e.timestamp * 1000, end: null, encoded: 0, length: 0 });
        return;
      }
      const r = requests.get(e.requestId);
      if (!r) return;
      if (method === "Network.responseReceived" || method === "Network.responseReceivedExtraInfo") {
        const headers = e.response?.headers ?? e.headers;
        const name = Object.keys(headers).find((k) => k.toLowerCase() === "content-length");
        if (name) r.length = Number(headers[name]);
      } else if (method === "Network.loadingFinished") {
        Object.assign(r, { end: e.timestamp * 1000, encoded: e.encodedDataLength });
      } else if (method === "Network.loadingFailed") {
        r.failed = e.errorText;
      }
    };
    const methods = ["Network.requestWillBeSent", "Network.responseReceived", "Network.responseReceivedExtraInfo", "Network.loadingFinished", "Network.loadingFailed"];
    for (const m of methods) cdp.on(m, (e) => on(m, e));
    // Pagefind searches in a web worker, whose requests only the worker's own
    // session reports (the page's throttling does apply to them). Workers are
    // attached paused, their events read through this session (Playwright's
    // sessions are not ours to add to), and let go once they report theirs; but
    // Playwright lets them go too, so the end of a worker's own script (reported
    // on its session, which attaches once the script's headers are in) can come
    // before we listen: 1 run in 10 or so at broadband.
    let id = 0;
    cdp.on("Target.attachedToTarget", ({ sessionId }) => {
      for (const method of ["Network.enable", "Runtime.runIfWaitingForDebugger"]) {
        cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: ++id, method }) });
      }
    });
    cdp.on("Target.receivedMessageFromTarget", ({ message }) => {
      const m = JSON.parse(message);
      if (methods.includes(m.method)) on(m.method, m.params, true);
    });
    await cdp.send("Network.enable");
    await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...PROFILES[profile] });
    const times = await page.evaluate(run, { url, q });
    // A worker's script whose end we missed: the worker's first request, made once
    // the script has run, bounds it (unless its event still comes).
    for (const r of requests.values()) {
      const next = [...requests.values()].filter((o) => o.worker && o.start > r.start).map((o) => o.start);
      if (r.end === null && r.length && next.length) r.end = Math.min(...next);
    }
    // The events of the last requests can reach us after the page has their bytes.
    const open = () => [...requests.values()].filter((r) => r.end === null && !r.failed);
    for (let i = 0; open().length && i < 250; i++) await new Promise((r) => setTimeout(r, 20));
    const bad = [...requests.values()].find((r) => r.failed) || open()[0];
    if (bad) throw new Error(`${q}: ${bad.path}: ${bad.failed || "never finished"}`);
    const list = [...requests.values()].map(({ path, phase, start, end, encoded, length }) => ({
      path, phase, start, end,
      // Headers and body as they came over the wire; for a worker's own script
      // Chromium counts only the headers, and the Content-Length is added.
      bytes: encoded < length ? encoded + length : encoded,
    }));
    const phase = (name) => {
      const rs = list.filter((r) => r.phase === name);
      return { requests: rs, count: rs.length, bytes: rs.reduce((s, r) => s + r.bytes, 0), rounds: rounds(rs) };
    };
    return { times, search: phase("search"), excerpts: phase("excerpts") };
  } finally {
    await context.close();
  }
}

const stats = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const round = (x) => Math.round(x * 10) / 10;
  return { p50: round(at(s, 0.5)), p95: round(at(s, 0.95)) };
};
// A run's requests, in the order they started, timed from the first.
const chain = ({ q, search, excerpts }) => {
  const rs = [...search.requests, ...excerpts.requests].sort((a, b) => a.start - b.start);
  const t0 = rs[0]?.start ?? 0;
  return {
    query: q,
    requests: rs.map((r) => ({ phase: r.phase, round: r.round, path: r.path, start_ms: Math.round(r.start - t0), end_ms: Math.round(r.end - t0), bytes: r.bytes })),
  };
};

try {
  const o = [];
  const p = [];
  // Alternating, so that the machine's load weighs on both engines alike.
  for (const q of queries) {
    o.push({ q, ...(await visit(q, ours, oursPhase)) });
    p.push({ q, ...(await visit(q, theirs, theirsPhase)) });
  }
  // What both engines report; `ms_found` is over the queries it had a title for.
  const figures = (runs, example) => ({
    ms: stats(runs.map((r) => r.times.titles)),
    ms_found: stats(runs.filter((r) => r.times.shown).map((r) => r.times.titles)),
    empty: runs.filter((r) => !r.times.shown).length,
    requests: stats(runs.map((r) => r.search.count)),
    rounds: stats(runs.map((r) => r.search.rounds)),
    kb: stats(runs.map((r) => r.search.bytes / 1024)),
    example: chain(runs[example]),
  });
  // The example: the first query both engines have titles for, if any.
  const example = Math.max(0, o.findIndex((r, i) => r.times.shown && p[i].times.shown));
  // BENCH_PHONE_CHAINS=<file>: every query's request chain, per engine, for a
  // closer look at where the time goes.
  if (process.env.BENCH_PHONE_CHAINS) {
    const all = (runs) => runs.map((r) => ({ ms: r.times.titles, excerpts_ms: r.times.excerpts, rounds: r.search.rounds, ...chain(r) }));
    writeFileSync(process.env.BENCH_PHONE_CHAINS, JSON.stringify({ ours: all(o), pagefind: all(p) }));
  }
  console.log(JSON.stringify({
    profile,
    protocol: http2 ? "HTTP/2" : "HTTP/1.1",
    queries: queries.length,
    ours: {
      ...figures(o, example),
      ms_excerpts: stats(o.map((r) => r.times.excerpts)),
      requests_excerpts: stats(o.map((r) => r.excerpts.count)),
      rounds_excerpts: stats(o.map((r) => r.excerpts.rounds)),
      kb_excerpts: stats(o.map((r) => r.excerpts.bytes / 1024)),
    },
    pagefind: figures(p, example),
  }));
} finally {
  await browser.close();
  server.close();
}
