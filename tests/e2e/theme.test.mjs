// The site's themes and its way back to a search: the system's dark setting is
// followed, the toggle is remembered and drawn from the first paint, axe finds no
// violation on any kind of page in either theme, and an incident page opened from
// a search links back to those results.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { serve, launch, openPage, ready, screenshots } from "./helpers.mjs";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
// WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

let server, browser;
before(async () => {
  server = await serve();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.stop();
});

/** The page's theme as drawn: its root's `data-theme` and its background's luminance. */
const drawn = (page) =>
  page.evaluate(() => {
    const [r, g, b] = getComputedStyle(document.documentElement).backgroundColor.match(/\d+/g).map(Number);
    return { theme: document.documentElement.dataset.theme, dark: r + g + b < 3 * 128 };
  });

test("the site follows the system's dark setting, and the toggle is remembered over reloads and pages", async () => {
  const { context, page } = await openPage(browser, { colorScheme: "dark" });
  await page.goto(server.url + "incidents/IL-0004/");
  assert.deepEqual(await drawn(page), { theme: "dark", dark: true });
  const toggle = page.getByRole("button", { name: "어두운 화면" });
  assert.equal(await toggle.getAttribute("aria-pressed"), "true");
  await toggle.click();
  assert.deepEqual(await drawn(page), { theme: "light", dark: false });
  assert.equal(await toggle.getAttribute("aria-pressed"), "false");
  // The choice outlasts a reload and holds on every page, against the system's setting.
  await page.reload();
  assert.deepEqual(await drawn(page), { theme: "light", dark: false });
  await page.goto(server.url + "about/");
  assert.deepEqual(await drawn(page), { theme: "light", dark: false });
  await page.getByRole("button", { name: "어두운 화면" }).click();
  await page.goto(server.url);
  assert.deepEqual(await drawn(page), { theme: "dark", dark: true });
  assert.deepEqual(page.errors, []);
  await context.close();

  // Nothing chosen: the system's setting, followed as it changes.
  const light = await openPage(browser, { colorScheme: "light" });
  await light.page.goto(server.url + "incidents/IL-0004/");
  assert.deepEqual(await drawn(light.page), { theme: "light", dark: false });
  await light.page.emulateMedia({ colorScheme: "dark" });
  await light.page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
  assert.deepEqual(await drawn(light.page), { theme: "dark", dark: true });
  await light.context.close();
});

test("without script the page still follows the system's setting, its toggle hidden in its place; printed, it is light", async () => {
  const { context, page } = await openPage(browser, { colorScheme: "dark", javaScriptEnabled: false });
  await page.goto(server.url + "incidents/IL-0004/");
  assert.deepEqual(await drawn(page), { theme: undefined, dark: true });
  assert.equal(await page.locator("header.site .theme").evaluate((b) => getComputedStyle(b).visibility), "hidden");
  await context.close();
  const printed = await openPage(browser, { colorScheme: "dark" });
  await printed.page.goto(server.url + "incidents/IL-0004/");
  await printed.page.emulateMedia({ media: "print" });
  assert.deepEqual(await drawn(printed.page), { theme: "dark", dark: false });
  await printed.context.close();
});

test("browsers without light-dark() get the light theme: each colour's fallback is the first of its pair", () => {
  const css = readFileSync(new URL("../../www/app.css", import.meta.url), "utf8");
  const pairs = [...css.matchAll(/^  (--[a-z-]+): light-dark\((#[0-9a-f]+), #[0-9a-f]+\);$/gm)].map((m) => [m[1], m[2]]);
  const block = css.slice(css.indexOf("@supports not (color: light-dark("));
  const fallback = [...block.slice(0, block.indexOf("\n}\n")).matchAll(/^    (--[a-z-]+): (#[0-9a-f]+);$/gm)].map((m) => [m[1], m[2]]);
  assert.ok(pairs.length >= 15, `${pairs.length} colour pairs`);
  assert.deepEqual(fallback, pairs);
});

test("the theme is set before the page's body is parsed, so the first paint is in it", async () => {
  const { context, page } = await openPage(browser, { colorScheme: "dark" });
  // Record the root's theme at the moment the parser reaches <body>, before anything
  // of the page can be painted.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      window.themeAtBody = document.documentElement.dataset.theme ?? null;
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  for (const path of ["", "incidents/IL-0004/", "topics/org/kakao/", "api/", "does/not/exist/"]) {
    await page.goto(server.url + path);
    assert.equal(await page.evaluate(() => window.themeAtBody), "dark", path);
  }
  await context.close();
});

test("axe finds no violation on any kind of page, in the light and the dark theme", async () => {
  const pages = {
    "search with a query and a filter": "?q=DNS+장애&cause=config-change",
    incident: "incidents/IL-0004/",
    topic: "topics/org/kakao/",
    "API and MCP": "api/",
    "widget (the shipped example)": "examples/embed.html",
    "not found": "incidents/IL-9999/",
  };
  const found = [];
  for (const colorScheme of ["light", "dark"]) {
    for (const [viewport, size] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
      const { context, page } = await openPage(browser, { colorScheme, viewport: size });
      for (const [name, path] of Object.entries(pages)) {
        await page.goto(server.url + path);
        if (path.startsWith("?")) await ready(page);
        if (path.startsWith("examples/")) {
          await page.waitForFunction(() => [...document.querySelectorAll("incident-search")].every((w) => w.dataset.ready === "true"));
        }
        await page.waitForLoadState("networkidle");
        await page.addScriptTag({ content: axeSource });
        const violations = await page.evaluate(async (tags) => {
          const result = await window.axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
          return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join("; ")})`);
        }, AXE_TAGS);
        for (const v of violations) found.push(`${colorScheme} ${viewport}, ${name}: ${v}`);
      }
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});

test("the edges of controls, the focus ring and the graph's marks stand 3:1 against the page in both themes", async () => {
  // What axe does not check: contrast that is not text (WCAG 1.4.11).
  const found = [];
  for (const colorScheme of ["light", "dark"]) {
    const { context, page } = await openPage(browser, { colorScheme });
    await page.goto(server.url + "?q=DNS&tab=cause");
    await ready(page);
    await page.waitForSelector(".flow .node rect");
    const ratios = await page.evaluate(() => {
      const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
      const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m); return (x + 0.05) / (y + 0.05); };
      const page = getComputedStyle(document.documentElement).backgroundColor;
      const style = (sel) => getComputedStyle(document.querySelector(sel));
      const focus = getComputedStyle(document.documentElement).getPropertyValue("--focus").trim();
      const probe = document.createElement("i");
      probe.style.color = focus;
      document.body.append(probe);
      const out = {
        "search box edge": ratio(style("#q").borderTopColor, page),
        "sort button edge": ratio(style(".sort").borderTopColor, page),
        "theme toggle edge": ratio(style("header.site .theme").borderTopColor, page),
        "focus ring": ratio(getComputedStyle(probe).color, page),
        "graph node": ratio(getComputedStyle(document.querySelector(".flow .node rect")).fill, page),
      };
      probe.remove();
      return out;
    });
    for (const [what, r] of Object.entries(ratios)) if (!(r >= 3)) found.push(`${colorScheme}: ${what} ${r.toFixed(2)}:1`);
    await context.close();
  }
  assert.deepEqual(found, []);
});

test("screenshots of both themes at desktop and phone width", async () => {
  for (const colorScheme of ["light", "dark"]) {
    for (const [width, height] of [[1280, 900], [390, 844]]) {
      const { context, page } = await openPage(browser, { colorScheme, viewport: { width, height } });
      await page.goto(server.url + "?q=DNS+장애");
      await ready(page);
      await page.waitForFunction(() => document.querySelectorAll("#list .hit").length > 0);
      await page.screenshot({ path: join(screenshots, `theme-${colorScheme}-search-${width}.png`) });
      await page.goto(server.url + "incidents/IL-0004/");
      await page.screenshot({ path: join(screenshots, `theme-${colorScheme}-incident-${width}.png`) });
      assert.deepEqual(page.errors, []);
      await context.close();
    }
  }
});

test("an incident page opened from a search links back to those results", async () => {
  const { context, page } = await openPage(browser);
  // Opened directly: the link leads to the search page.
  await page.goto(server.url + "incidents/IL-0004/");
  const back = page.locator("p.back a");
  assert.equal(await back.innerText(), "← 사례 검색");
  assert.equal(await back.evaluate((a) => a.href), server.url);
  // Opened from a search with a filter: back to those results, query and filter kept.
  await page.goto(server.url + "?q=DNS+장애&cause=config-change");
  await ready(page);
  const search = page.url();
  const first = page.locator("#list .hit h3 a").first();
  const title = await first.innerText();
  assert.equal(await back.count(), 0, "the search page has no back link");
  await first.click();
  await page.waitForURL(/incidents\//);
  assert.equal(await page.locator("h1").innerText(), title);
  await page.waitForFunction(() => document.querySelector("p.back a").textContent === "← 검색 결과로");
  assert.equal(await page.getByRole("link", { name: "검색 결과로", exact: true }).count(), 1);
  assert.equal(await back.evaluate((a) => a.href), search);
  await back.click();
  await page.waitForURL(search);
  await ready(page);
  assert.equal(await page.locator("#q").inputValue(), "DNS 장애");
  assert.equal(await page.locator("#list .hit h3 a").first().innerText(), title);
  assert.deepEqual(page.errors, []);
  await context.close();
});
