// The widget in real docs frameworks, embedded as README.md's recipes say: a
// VitePress 1.6 site (tests/e2e/hosts/vitepress/, the script in the config's `head`,
// `isCustomElement` for Vue) and a Material for MkDocs site (tests/e2e/hosts/mkdocs/,
// `extra_javascript` with `type: module`, a default/slate palette toggle, instant
// navigation), each built once per run into a temporary folder and served from
// another origin than the library. For each: results render, the framework's own
// dark mode toggle switches the widget and back, the README's Content-Security-Policy
// (with the site's own inline script hashes) works and one without 'wasm-unsafe-eval'
// gets the widget's message, a library under a subpath named without its trailing
// slash works, also on a page reached by the framework's client-side navigation, and
// arrow keys move through the results while typed keys stay in the widget's box.
//
// MkDocs comes from the venv that scripts/setup.sh makes: $IL_MKDOCS,
// else ${XDG_CACHE_HOME:-~/.cache}/incident-library/mkdocs (the same rule as there).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { serve, launch, openPage, native, repo, screenshots } from "./helpers.mjs";

const mkdocsVenv = process.env.IL_MKDOCS || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "incident-library", "mkdocs");
const mkdocs = join(mkdocsVenv, "bin", "mkdocs");
const vitepress = join(repo, "node_modules", "vitepress", "bin", "vitepress.js");
const readme = readFileSync(join(repo, "README.md"), "utf8");
// The README's example library: its root, and a copy under a subpath.
const EXAMPLE = "https://incidents.example.org";

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".bin": "application/octet-stream", ".json": "application/json", ".html": "text/html; charset=utf-8", ".css": "text/css", ".svg": "image/svg+xml", ".woff2": "font/woff2", ".png": "image/png", ".ico": "image/x-icon", ".xml": "application/xml" };

/** Serves the file under `root` that `rest` names (a folder: its index.html); false when none. */
function sendFile(res, root, rest, headers = {}) {
  let file = join(root, normalize("/" + rest).slice(1));
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
  if (!existsSync(file) || !statSync(file).isFile()) return false;
  res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream", ...headers });
  res.end(readFileSync(file));
  return true;
}

function listen(handler) {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function run(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd: repo, env: { ...process.env, ...env }, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(" ")} failed:\n${stdout}\n${stderr}`));
      else resolve(stdout + stderr);
    });
  });
}

/** The CSP sources ('sha256-…') of the inline scripts of every page under `dir`
 *  (not of JSON data blocks, which never run). */
function inlineScriptHashes(dir) {
  const hashes = new Set();
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".html")) {
        for (const [, attrs, body] of readFileSync(path, "utf8").matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/g)) {
          if (/type="?application\/(ld\+)?json/.test(attrs) || !body) continue;
          hashes.add(`'sha256-${createHash("sha256").update(body).digest("base64")}'`);
        }
      }
    }
  };
  walk(dir);
  return [...hashes];
}

/** Copies a fixture site into `dir` with the README's example URLs pointed at the test's servers. */
function copyFixture(name, dir, urls) {
  cpSync(join(repo, "tests", "e2e", "hosts", name), dir, { recursive: true });
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(mts|md|yml)$/.test(entry.name)) {
        let text = readFileSync(path, "utf8");
        for (const [from, to] of urls) text = text.replaceAll(from, to);
        writeFileSync(path, text);
      }
    }
  };
  walk(dir);
}

let library, deployed, browser, work, subBase, libOrigin;
const hosts = {};   // plain, csp, nowasm: { server, url }
const built = {};   // vitepress, mkdocs: the built site's folder
const policies = { plain: {}, csp: {}, nowasm: {} };   // per kind, per site

before(async () => {
  assert.ok(existsSync(mkdocs), `no mkdocs at ${mkdocs}: run bash scripts/setup.sh`);
  library = await serve();
  libOrigin = new URL(library.url).origin;
  // The built library deployed under /docs-library/ on another origin, with CORS.
  deployed = await listen((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const cors = { "access-control-allow-origin": "*" };
    if (!path.startsWith("/docs-library/") || !sendFile(res, library.out, path.slice("/docs-library/".length), cors)) {
      res.writeHead(404, cors);
      res.end();
    }
  });
  subBase = `http://127.0.0.1:${deployed.address().port}/docs-library`;

  // One host origin per policy (localhost, so never the library's 127.0.0.1): each
  // serves both sites, VitePress under /vitepress/ (its `base`), MkDocs under /mkdocs/.
  for (const kind of ["plain", "csp", "nowasm"]) {
    const server = await listen((req, res) => {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      const site = path.match(/^\/(vitepress|mkdocs)\/(.*)$/);
      const policy = site && policies[kind][site[1]];
      const headers = policy ? { "content-security-policy": policy } : {};
      if (site && sendFile(res, built[site[1]], site[2], headers)) return;
      // Neither site has a favicon; chromium asks for one all the same.
      if (path === "/favicon.ico") return res.writeHead(204).end();
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    });
    hosts[kind] = { server, url: `http://localhost:${server.address().port}` };
  }
  // Both sites, built once, at the same time.
  work = mkdtempSync(join(tmpdir(), "il-hosts-"));
  const urls = [[`${EXAMPLE}/docs-library`, subBase], [`${EXAMPLE}/`, library.url], ["https://docs.example.org/", hosts.plain.url + "/"]];
  copyFixture("vitepress", join(work, "vitepress"), urls);
  copyFixture("mkdocs", join(work, "mkdocs"), urls);
  // The config imports "vitepress": resolve it from the repository's node_modules.
  symlinkSync(join(repo, "node_modules"), join(work, "vitepress", "node_modules"), "dir");
  built.vitepress = join(work, "vitepress-site");
  built.mkdocs = join(work, "mkdocs-site");
  const [, , b] = await Promise.all([
    run(process.execPath, [vitepress, "build", join(work, "vitepress"), "--outDir", built.vitepress]),
    run(mkdocs, ["build", "--strict", "--quiet", "-f", join(work, "mkdocs", "mkdocs.yml"), "-d", built.mkdocs], { NO_MKDOCS_2_WARNING: "1" }),
    launch(),
  ]);
  browser = b;

  // The README's header for the library's origin, plus what the site needs for
  // itself, as the README says: the hashes of the inline scripts it writes. And the
  // same without 'wasm-unsafe-eval'.
  const documented = readme.match(/^Content-Security-Policy: (.+)$/m)?.[1];
  assert.ok(documented?.includes("'wasm-unsafe-eval'"), "README.md documents a CSP header with 'wasm-unsafe-eval'");
  for (const fw of ["vitepress", "mkdocs"]) {
    const hashes = inlineScriptHashes(built[fw]);
    assert.ok(hashes.length > 0, `${fw} writes inline scripts`);
    policies.csp[fw] = documented.replaceAll(EXAMPLE, libOrigin).replace(/script-src [^;]*/, (d) => `${d} ${hashes.join(" ")}`);
    policies.nowasm[fw] = policies.csp[fw].replace(/ ?'wasm-unsafe-eval'/, "");
  }

  mkdirSync(screenshots, { recursive: true });
});

after(async () => {
  await browser?.close();
  library?.stop();
  deployed?.close();
  for (const h of Object.values(hosts)) h.server.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

// Each framework: where its pages are, and how its own dark mode toggle is clicked.
const frameworks = {
  vitepress: {
    index: "/vitepress/",
    subpath: "/vitepress/subpath.html",
    toggle: (page) => page.locator(".VPNavBarAppearance .VPSwitchAppearance").click(),
    dark: (want) => document.documentElement.classList.contains("dark") === want,
    booted: () => Boolean(document.getElementById("app")?.__vue_app__),
  },
  mkdocs: {
    index: "/mkdocs/",
    subpath: "/mkdocs/subpath/",
    // Material shows one palette label at a time, the one that switches to the other scheme.
    toggle: (page) => page.locator('form[data-md-component="palette"] label:not([hidden])').click(),
    dark: (want) => (document.body.getAttribute("data-md-color-scheme") === "slate") === want,
    booted: () => typeof window.__md_get === "function" && document.querySelector('[data-md-component="palette"]') !== null,
  },
};

const widget = "incident-search";
const settled = (page) => page.waitForFunction((sel) => document.querySelector(sel)?.dataset.ready, widget, { timeout: 45_000 });
const state = (page) => page.evaluate((sel) => document.querySelector(sel).dataset.ready, widget);
const inShadow = (page, sel) => page.evaluate(([w, sel]) => [...document.querySelector(w).shadowRoot.querySelectorAll(sel)].map((e) => e.textContent), [widget, sel]);
const links = (page) => page.evaluate((w) => [...document.querySelector(w).shadowRoot.querySelectorAll("li > a")].map((a) => a.href), widget);
const colours = (page) => page.evaluate((w) => {
  const box = getComputedStyle(document.querySelector(w).shadowRoot.querySelector(".box"));
  return { bg: box.backgroundColor, fg: box.color };
}, widget);
/** Relative luminance of an rgb() colour, 0 (black) to 1 (white). */
const luminance = (rgb) => {
  const [r, g, b] = rgb.match(/[\d.]+/g).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
// What the index pages of both sites show: the search layout with a preset cause.
const indexQuery = () => native(library, "재시도", "--filter", "cause=retry-amplification", "--limit", "4");

test("the fixture sites hold the README's recipes", () => {
  const recipe = (name) => readme.split(`**${name}**`)[1].split("```")[1].split("\n").slice(1).map((l) => l.trim()).filter(Boolean);
  const config = readFileSync(join(repo, "tests/e2e/hosts/vitepress/.vitepress/config.mts"), "utf8");
  const vp = recipe("VitePress").filter((l) => /^(head|vue):/.test(l));
  assert.equal(vp.length, 2, "the README's VitePress recipe has its head and vue lines");
  for (const line of vp) assert.ok(config.includes(line), `config.mts lacks the README's line ${line}`);
  const yml = readFileSync(join(repo, "tests/e2e/hosts/mkdocs/mkdocs.yml"), "utf8").split("\n").map((l) => l.trim());
  const material = recipe("Material for MkDocs");
  assert.ok(material.length >= 3);
  const at = yml.indexOf(material[0]);
  assert.deepEqual(yml.slice(at, at + material.length), material, "mkdocs.yml holds the README's extra_javascript entry");
  // The built pages keep the element as written (without isCustomElement, Vue would
  // have left <!----> in its place), and load the module from the library.
  for (const [fw, file] of [["vitepress", "index.html"], ["mkdocs", "index.html"]]) {
    const html = readFileSync(join(built[fw], file), "utf8");
    assert.match(html, new RegExp(`<incident-search base="${library.url}" layout="search"`), fw);
    assert.match(html, new RegExp(`<script[^>]*src="${library.url}widget.js"`), fw);
  }
});

for (const [fw, site] of Object.entries(frameworks)) {
  test(`${fw}: the widget renders the library's results in the built site`, async () => {
    const { context, page } = await openPage(browser, { colorScheme: "light" });
    await page.goto(hosts.plain.url + site.index);
    await settled(page);
    assert.equal(await state(page), "true", page.errors.join("; "));
    const want = indexQuery();
    assert.ok(want.hits.length >= 2);
    const titles = await inShadow(page, "li > a");
    assert.deepEqual(titles, want.hits.map((h) => h.title));
    assert.ok(titles.every((t) => /[가-힣]/.test(t)), titles.join(" | "));
    assert.deepEqual(await inShadow(page, ".chips .tag"), ["재시도 증폭 ×"]);
    assert.ok((await links(page)).every((h) => h.startsWith(library.url + "incidents/")));
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`${fw}: the framework's own dark mode toggle switches the widget, and back`, async () => {
    const { context, page } = await openPage(browser, { colorScheme: "light" });
    await page.goto(hosts.plain.url + site.index);
    await settled(page);
    assert.ok(await page.evaluate(site.dark, false), "the site starts light");
    const light = await colours(page);
    assert.ok(luminance(light.bg) > 0.8 && luminance(light.fg) < 0.2, JSON.stringify(light));
    await page.screenshot({ path: join(screenshots, `framework-${fw}-light.png`) });

    await site.toggle(page);
    await page.waitForFunction(site.dark, true);
    await page.waitForFunction(([w, bg]) => getComputedStyle(document.querySelector(w).shadowRoot.querySelector(".box")).backgroundColor !== bg, [widget, light.bg]);
    const dark = await colours(page);
    assert.ok(luminance(dark.bg) < 0.05 && luminance(dark.fg) > 0.6, JSON.stringify(dark));
    await page.screenshot({ path: join(screenshots, `framework-${fw}-dark.png`) });

    await site.toggle(page);
    await page.waitForFunction(site.dark, false);
    await page.waitForFunction(([w, bg]) => getComputedStyle(document.querySelector(w).shadowRoot.querySelector(".box")).backgroundColor === bg, [widget, light.bg]);
    assert.deepEqual(await colours(page), light);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`${fw}: under the README's Content-Security-Policy it works; without 'wasm-unsafe-eval' it says so`, async () => {
    const { context, page } = await openPage(browser);
    const response = await page.goto(hosts.csp.url + site.index);
    assert.equal(response.headers()["content-security-policy"], policies.csp[fw]);
    await settled(page);
    assert.equal(await state(page), "true", page.errors.join("; "));
    assert.deepEqual(await inShadow(page, "li > a"), indexQuery().hits.map((h) => h.title));
    // The site itself runs too, and nothing was refused.
    assert.ok(await page.evaluate(site.booted), `${fw} started under the policy`);
    assert.deepEqual(page.errors, []);
    await context.close();

    const blocked = await openPage(browser);
    const r2 = await blocked.page.goto(hosts.nowasm.url + site.index);
    assert.equal(r2.headers()["content-security-policy"], policies.nowasm[fw]);
    assert.doesNotMatch(policies.nowasm[fw], /wasm-unsafe-eval/);
    await settled(blocked.page);
    assert.equal(await state(blocked.page), "csp");
    const [status] = await inShadow(blocked.page, "[role=status]");
    assert.match(status, /Content-Security-Policy/);
    assert.match(status, /'wasm-unsafe-eval'/);
    assert.deepEqual(await inShadow(blocked.page, "li"), []);
    await blocked.context.close();
  });

  test(`${fw}: a library under a subpath, its base without the trailing slash`, async () => {
    const { context, page } = await openPage(browser);
    const fetched = [];
    page.on("requestfinished", (r) => fetched.push(r.url()));
    await page.goto(hosts.plain.url + site.subpath);
    await settled(page);
    assert.equal(await state(page), "true", page.errors.join("; "));
    assert.equal(await page.evaluate((w) => document.querySelector(w).getAttribute("base"), widget), subBase);
    const want = native(library, "", "--filter", "component=cdn-edge", "--limit", "5");
    assert.ok(want.hits.length > 0);
    assert.deepEqual(await inShadow(page, "li > a"), want.hits.map((h) => h.title));
    const hrefs = await links(page);
    assert.ok(hrefs.every((h) => h.startsWith(subBase + "/incidents/")), hrefs.join(" "));
    // Code comes from beside widget.js, never from base; the data from the subpath.
    assert.ok(fetched.includes(library.url + "pkg/library.js"), "the module came from beside widget.js");
    assert.ok(!fetched.some((u) => u.startsWith(subBase + "/pkg/")), "no code from base");
    assert.ok(fetched.some((u) => u.startsWith(subBase + "/index/meta.bin")), "the index came from the subpath");
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  // Vue sets an attribute of a custom element as a DOM property when the element
  // has one (`key in el`): without a setter for `base`, the element the router
  // renders had no base and used the folder widget.js came from.
  test(`${fw}: a widget on a page reached by the framework's own client-side navigation`, async () => {
    const { context, page } = await openPage(browser);
    await page.goto(hosts.plain.url + site.index);
    await settled(page);
    // VitePress's router renders the next page with Vue; Material's instant
    // navigation swaps in the next page's content. Either way no new document.
    await page.evaluate(() => { window.sameDocument = true; });
    await page.getByRole("link", { name: "하위 경로", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === site.subpath);
    await page.waitForFunction(() => document.querySelector("h1")?.textContent.includes("하위 경로"));
    assert.equal(await page.evaluate(() => window.sameDocument), true, "the framework navigated without loading a new document");
    await settled(page);
    assert.equal(await state(page), "true", page.errors.join("; "));
    assert.equal(await page.evaluate((w) => document.querySelector(w).getAttribute("base"), widget), subBase);
    const hrefs = await links(page);
    assert.ok(hrefs.length > 0);
    assert.ok(hrefs.every((h) => h.startsWith(subBase + "/incidents/")), hrefs.join(" "));
    assert.deepEqual(page.errors, []);
    await context.close();
  });

  test(`${fw}: arrow keys move from the search box through the results and back`, async () => {
    const { context, page } = await openPage(browser);
    await page.goto(hosts.plain.url + site.index);
    await settled(page);
    const titles = indexQuery().hits.map((h) => h.title);
    const focused = () => page.evaluate((w) => {
      const el = document.querySelector(w).shadowRoot.activeElement;
      return el ? (el.tagName === "INPUT" ? "INPUT" : el.textContent) : null;
    }, widget);
    await page.locator(`${widget} input`).click();
    assert.equal(await focused(), "INPUT");
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(), titles[0]);
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(), titles[1]);
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(), titles[2]);
    await page.keyboard.press("ArrowUp");
    assert.equal(await focused(), titles[1]);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    assert.equal(await focused(), "INPUT");
    // Typing in the box stays in the box: Material's keys (s, f and / focus its
    // search, n and p go to the next and previous page) must not fire from it.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    await page.locator(`${widget} input`).fill("");
    await page.keyboard.type("dns /fp");
    await page.waitForFunction((w) => document.querySelector(w).shadowRoot.querySelector(".foot a")?.href.includes("q=dns"), widget);
    assert.equal(await page.locator(`${widget} input`).inputValue(), "dns /fp");
    assert.equal(await focused(), "INPUT");
    assert.equal(await page.evaluate((w) => document.activeElement === document.querySelector(w), widget), true);
    assert.equal(new URL(page.url()).pathname, site.index);
    assert.deepEqual(page.errors, []);
    await context.close();
  });
}
