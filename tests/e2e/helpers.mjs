// Shared set-up for the end-to-end tests: a built bundle served by
// `incident-library serve`, and Debian's chromium driven by playwright-core.
import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The CLI under test: IL_BIN (scripts/test.sh sets it), else the release build. */
export const binary = process.env.IL_BIN || join(repo, "target", "release", "incident-library");
export const screenshots = join(repo, "tests", "e2e", "screenshots");

/** The corpus the tests serve: the shipped one, or IL_E2E_DATA. */
export const shippedData = process.env.IL_E2E_DATA || join(repo, "data");

/** Builds `data` into a fresh folder and serves it; resolves to { url, out, stop }. */
export async function serve(data = shippedData) {
  const out = join(mkdtempSync(join(tmpdir(), "il-e2e-")), "dist");
  return start(["--no-watch", "--data", data, "--out", out], out);
}

/** Runs `incident-library serve` on a free port; resolves to { url, out, log, stop }. */
export async function start(args, out) {
  const child = spawn(binary, ["serve", "--port", "0", "--pkg", join(repo, "pkg"), ...args], { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
  const server = { out, log: "", stop: () => child.kill() };
  child.stdout.on("data", (c) => { server.log += c; });
  child.stderr.on("data", (c) => { server.log += c; });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start:\n" + server.log)), 120_000);
    const poll = setInterval(() => {
      const m = server.log.match(/serving .* at (http:\/\/\S+\/) /);
      if (m) { clearTimeout(timer); clearInterval(poll); server.url = m[1]; resolve(); }
    }, 50);
    child.on("exit", (code) => { clearTimeout(timer); clearInterval(poll); reject(new Error(`server exited with ${code}:\n${server.log}`)); });
  });
  return server;
}

/** Debian's chromium, the browser every test drives (never a downloaded one). */
export const CHROMIUM = "/usr/bin/chromium";

/** Starts headless Debian chromium. */
export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** A page that records console errors and uncaught exceptions into `errors`. */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.pending = new Set();
  page.on("request", (r) => page.pending.add(r.url()));
  page.on("requestfinished", (r) => page.pending.delete(r.url()));
  page.on("requestfailed", (r) => page.pending.delete(r.url()));
  page.on("console", (m) => { if (m.type() === "error" || /search unavailable/.test(m.text())) page.errors.push(m.text()); });
  page.on("pageerror", (e) => page.errors.push(e.message));
  return { context, page };
}

/** Waits until the search module has loaded on the search page. */
export async function ready(page) {
  try {
    await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 45_000 });
  } catch (e) {
    const state = await page.evaluate(() => ({ readyState: document.readyState, ready: document.body?.dataset.ready, controlled: !!navigator.serviceWorker?.controller })).catch(() => ({}));
    throw new Error(`${e.message}\npage: ${JSON.stringify(state)}\npending requests: ${[...page.pending].join(", ")}\nerrors: ${page.errors.join("; ")}`);
  }
  const state = await page.evaluate(() => document.body.dataset.ready);
  if (state !== "true") throw new Error(`the search did not load (${state}): ${page.errors.join("; ")}`);
}

/** Writes a fixture corpus of `n` incidents over a small taxonomy; returns its folder. */
export function fixtureCorpus(n) {
  const dir = mkdtempSync(join(tmpdir(), "il-corpus-"));
  mkdirSync(join(dir, "incidents"));
  writeFileSync(join(dir, "taxonomy.toml"), `
[[cause]]
slug = "config-change"
ko = "설정 변경"
en = "Configuration change"
synonyms = ["config push"]
description = "설정을 바꾼 것이 장애로 이어진 경우다."

[[component]]
slug = "dns"
ko = "DNS 서버와 레코드"
en = "DNS servers and records"
synonyms = ["DNS"]
description = "이름 해석을 맡는 서버와 레코드다."

[[symptom]]
slug = "service-outage"
ko = "서비스 중단"
en = "Service outage"
synonyms = ["outage"]
description = "서비스를 쓸 수 없게 된 경우다."

[[factor]]
slug = "test-gap"
ko = "자동 테스트 공백"
en = "Automated test gap"
synonyms = []
description = "자동 테스트가 잡지 못한 경우다."

[[org]]
slug = "example-cloud"
ko = "Example Cloud"
en = "Example Cloud"
synonyms = []
description = "시험용 조직이다."
`);
  for (let i = 1; i <= n; i++) {
    const id = `IL-${String(i).padStart(4, "0")}`;
    const day = String(((i - 1) % 28) + 1).padStart(2, "0");
    // The two sections every record has.
    const body = `## 요약\n\nDNS 레코드 배포 ${i}번째 사례다.\n\n## 교훈\n\n변경 전에 영향 범위를 확인한다.\n`;
    writeFileSync(join(dir, "incidents", `${id}.md`), `+++
id = "${id}"
title = "DNS 레코드 배포 ${i}번째 사례에서 이름 해석이 멈췄다"
org = "example-cloud"
date = "2024-01-${day}"
causes = ["config-change"]
components = ["dns"]
symptoms = ["service-outage"]
sources = ["https://status.example.com/incidents/${i}"]
+++

${body}`);
  }
  return dir;
}

/** The native search over a served bundle: what the browser must show too (the
 *  search page reads the last word as typed so far, hence --prefix). */
export function native(server, query, ...args) {
  const limit = args.includes("--limit") ? [] : ["--limit", "10"];
  const out = execFileSync(binary, ["search", "--json", "--prefix", "--bundle", server.out, ...limit, query, ...args], { encoding: "utf8" });
  return JSON.parse(out);
}

/** A host page server on another origin than the library (`localhost` instead of
 *  127.0.0.1, another port) serving the HTML of `pages` by path; resolves to
 *  { url, close }. */
export async function hostPages(pages) {
  const host = createServer((req, res) => {
    const body = pages[new URL(req.url, "http://x").pathname];
    res.writeHead(body ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    res.end(body || "");
  });
  await new Promise((r) => host.listen(0, "127.0.0.1", r));
  return { url: `http://localhost:${host.address().port}`, close: () => host.close() };
}
