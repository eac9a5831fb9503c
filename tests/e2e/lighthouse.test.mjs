// Lighthouse (mobile) on both kinds of page, the search page with a query and an
// incident page, in the light and the dark theme: accessibility, best practices
// and SEO at 100. Performance is measured by scripts/bench-phone.sh and by hand,
// not here: on a shared machine it is a figure, not a verdict.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { serve, CHROMIUM } from "./helpers.mjs";

const CATEGORIES = ["accessibility", "best-practices", "seo"];
let server;
before(async () => {
  server = await serve();
});
after(() => server?.stop());

for (const theme of ["light", "dark"]) {
  test(`Lighthouse: accessibility, best practices and SEO at 100 on the search and incident pages, ${theme} theme`, async () => {
    const flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
    // The system's dark setting, which the pages follow.
    if (theme === "dark") flags.push("--force-dark-mode");
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: flags });
    const found = [];
    try {
      for (const path of ["?q=DNS+장애&cause=config-change", "incidents/IL-0004/"]) {
        const run = await lighthouse(server.url + path, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES });
        const { categories, audits } = run.lhr;
        // The page was drawn in the theme asked for.
        const drawn = await fetchTheme(chrome.port, server.url + path);
        assert.equal(drawn, theme, `${path}: drawn ${drawn}`);
        for (const key of CATEGORIES) {
          if (categories[key].score === 1) continue;
          const failing = categories[key].auditRefs
            .map((r) => audits[r.id])
            .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "manual")
            .map((a) => a.id);
          found.push(`${path}: ${key} ${Math.round(categories[key].score * 100)} (${failing.join(", ")})`);
        }
      }
    } finally {
      await chrome.kill();
    }
    assert.deepEqual(found, []);
  });
}

/** The theme a page of the launched browser is drawn in (its root's data-theme). */
async function fetchTheme(port, url) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    // Playwright's own default is light: the browser's setting instead.
    await page.emulateMedia({ colorScheme: null });
    await page.goto(url);
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.close();
    return theme;
  } finally {
    await browser.close().catch(() => {});
  }
}
