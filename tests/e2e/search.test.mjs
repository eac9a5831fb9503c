// The search page in headless chromium: Korean input with IME composition,
// ranking and counts, facets and chips, suggested filters, the graph, paging,
// URL state, offline use, and clean consoles on every kind of page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { serve, launch, openPage, ready, fixtureCorpus, screenshots, native } from "./helpers.mjs";

let server, browser, paged;
// A 23-record corpus for the paging tests, built once when first needed.
const pagedServer = () => (paged ??= serve(fixtureCorpus(23)));
before(async () => {
  server = await serve();
  browser = await launch();
  mkdirSync(screenshots, { recursive: true });
});
after(async () => {
  await browser?.close();
  server?.stop();
  (await paged)?.stop();
});

const text = (page, sel) => page.locator(sel).innerText();
// A page of hits renders once its listing files are in, so wait for what a user sees.
// After a change of state: the hits are drawn (their listing files are in).
const settled = (page) => page.waitForSelector('#list:not([aria-busy="true"])', { state: "attached" });
const shows = (page, sel, expected) =>
  page.waitForFunction(([s, e]) => document.querySelector(s)?.innerText === e, [sel, expected]).then(() => expected);
const chips = (page) => page.locator("#applied .chip").evaluateAll((els) => els.map((e) => e.textContent));
// textContent: a hit out of sight is not rendered (content-visibility), and has no innerText.
const hitTitles = (page) => page.locator("#list .hit h3").allTextContents();
const param = (page, name) => new URL(page.url()).searchParams.getAll(name);

test("a Korean query typed through an IME: results follow the composition, one Enter commits", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(server.url);
  await ready(page);
  await page.focus("#q");
  const cdp = await context.newCDPSession(page);
  const compose = async (states, commit) => {
    for (const s of states) await cdp.send("Input.imeSetComposition", { text: s, selectionStart: s.length, selectionEnd: s.length });
    if (commit) await cdp.send("Input.insertText", { text: commit });
  };
  await compose(["ㅈ", "재"], "재");
  await compose(["ㅅ", "시"], "시");
  await compose(["ㄷ", "도"]); // still composing 도
  assert.equal(await page.inputValue("#q"), "재시도");
  const expected = native(server, "재시도");
  await page.waitForFunction((n) => document.querySelector("#count").textContent === `사례 ${n}건`, expected.total);
  const whileComposing = await hitTitles(page);
  assert.match(whileComposing[0], /재시도/);
  await cdp.send("Input.insertText", { text: "도" });
  await compose(["ㄹ", "르", "를"]);
  // Enter while the last syllable is being composed: it commits and submits.
  await page.keyboard.press("Enter");
  await cdp.send("Input.insertText", { text: "를" });
  await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "재시도를");
  await settled(page);
  assert.equal(await page.inputValue("#q"), "재시도를", "the input is never rewritten");
  const final = native(server, "재시도를");
  assert.equal(await text(page, "#count"), `사례 ${final.total}건`);
  assert.equal(await text(page, "#range"), `${final.total}건 중 1~${Math.min(10, final.total)}번째`);
  assert.deepEqual(await hitTitles(page), final.hits.map((h) => h.title), "the browser ranks exactly as the native search");
  assert.match((await hitTitles(page))[0], /재시도/);
  assert.match(await text(page, "#understood"), /재시도를 → 재시도/);
  assert.ok((await page.locator("#list mark").count()) > 0, "matched words are highlighted");
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("hit order for the seed queries", async () => {
  const { context, page } = await openPage(browser);
  for (const [q, expected] of [["캐시를 비우는 배포", /Sweden Central/], ["냉각기", /Australia East/], ["us-central1", /us-central1/], ["HTTP 5XX", null], ["OOMKilled", null]]) {
    await page.goto(server.url + "?q=" + encodeURIComponent(q));
    await ready(page);
    const want = native(server, q);
    assert.equal(await text(page, "#count"), `사례 ${want.total}건`, q);
    assert.deepEqual(await hitTitles(page), want.hits.map((h) => h.title), q);
    if (expected) assert.match((await hitTitles(page))[0], expected, q);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("partial matches: full matches first, then a line naming the words the library lacks", async () => {
  const { context, page } = await openPage(browser);
  const cases = [
    // A word that is in no record: nothing matches fully.
    ["낙뢰로 냉각기가 멈춘 호주 리전 없는낱말", { full: false, nowhere: "없는낱말" }],
    // A Hangul company name, through the lexicon.
    ["깃허브 데이터베이스 페일오버", { full: true }],
    // English only.
    ["certificate expiry", { full: true }],
    // About something the library does not hold.
    ["넥슨 데이터센터 화재", { full: false, nowhere: "넥슨" }],
  ];
  for (const [q, expect] of cases) {
    await page.goto(server.url + "?q=" + encodeURIComponent(q));
    await ready(page);
    const want = native(server, q);
    assert.ok(want.total > 0, q);
    assert.equal(want.full > 0, expect.full, q);
    assert.deepEqual(await hitTitles(page), want.hits.map((h) => h.title), `${q}: the browser ranks as the native search`);
    const fullShown = await page.locator("#list .hit:not(.partial)").count();
    assert.equal(fullShown, want.hits.filter((h) => h.full).length, q);
    const partial = want.hits.findIndex((h) => !h.full);
    if (partial < 0) {
      assert.equal(await page.locator("#partial-note").count(), 0, q);
      continue;
    }
    const note = await text(page, "#partial-note");
    assert.match(note, /일부 단어만 맞는 사례/, q);
    if (!expect.full) assert.match(note, /모든 단어가 맞는 사례는 없습니다/, q);
    if (expect.nowhere) assert.match(note, new RegExp(`없는 단어: .*${expect.nowhere}`), q);
    // The line stands between the last full match and the first partial one.
    const order = await page.locator("#list .hit, #partial-note").evaluateAll((els) => els.map((e) => e.id === "partial-note" ? "note" : e.classList.contains("partial") ? "partial" : "full"));
    assert.equal(order.indexOf("note"), partial, `${q}: ${order.join(" ")}`);
    assert.match(await page.locator("#list .hit.partial .missing").first().textContent(), /빠진 단어: /, q);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("a first search fetches the index and the listing files of the hits it shows, no others", async () => {
  const fixture = await pagedServer();
  const { context, page } = await openPage(browser);
  const fetched = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.includes("/index/")) fetched.push(path.slice(path.lastIndexOf("/") + 1));
  });
  await page.goto(fixture.url + "?q=" + encodeURIComponent("DNS 레코드"));
  await ready(page);
  const want = native(fixture, "DNS 레코드");
  assert.equal(want.total, 23);
  assert.deepEqual(await hitTitles(page), want.hits.map((h) => h.title));
  // meta.bin, then only the vocabulary blocks of the query's words.
  assert.ok(fetched.includes("meta.bin") && fetched.some((n) => n.startsWith("vocab-")), fetched.join(" "));
  const data = fetched.filter((n) => /^(vocab|near)-/.test(n));
  assert.ok(data.length <= 8, `index files for a two-word query: ${data.join(" ")}`);
  // One listing file per incident shown: the page of ten, not all 23.
  const listings = () => fetched.filter((n) => n.startsWith("listing-"));
  assert.equal(listings().length, 10, fetched.join(" "));
  await page.getByRole("button", { name: "다음" }).click();
  await shows(page, "#range", "23건 중 11~20번째");
  assert.equal(listings().length, 20, fetched.join(" "));
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("a word the vocabulary lacks: the likely hits' listings come beside its near-term buckets", async () => {
  // The service worker would fetch the index itself.
  const { context, page } = await openPage(browser, { serviceWorkers: "block" });
  // The buckets are held back, so that what is asked while they come is plain.
  await page.route("**/index/near-*", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  const events = [];
  const name = (r) => new URL(r.url()).pathname.split("/").pop();
  page.on("request", (r) => r.url().includes("/index/") && events.push(["asked", name(r)]));
  page.on("requestfinished", (r) => r.url().includes("/index/") && events.push(["in", name(r)]));
  const q = "재시도 폭쥬";
  await page.goto(server.url + "?q=" + encodeURIComponent(q));
  await ready(page);
  assert.deepEqual(await hitTitles(page), native(server, q).hits.map((h) => h.title));
  const firstBucketIn = events.findIndex(([what, n]) => what === "in" && n.startsWith("near-"));
  const firstListing = events.findIndex(([what, n]) => what === "asked" && n.startsWith("listing-"));
  assert.ok(firstBucketIn > 0, events.join(" "));
  assert.ok(firstListing >= 0 && firstListing < firstBucketIn, `listings asked only after the buckets: ${events.join(" ")}`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("facets: disjunctive counts, chips with ×, 모두 풀기", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(server.url);
  await ready(page);
  const all = native(server, "");
  assert.equal(await text(page, "#count"), `사례 ${all.total}건`);
  const azure = all.facets.org.find((v) => v.slug === "microsoft-azure");
  const google = all.facets.org.find((v) => v.slug === "google-cloud");
  await page.getByRole("checkbox", { name: /^Microsoft Azure/ }).check();
  await page.waitForFunction((n) => document.querySelector("#count").textContent === `사례 ${n}건`, azure.count);
  assert.deepEqual(await chips(page), ["조직 Microsoft Azure×"]);
  assert.match(await text(page, "#notice"), /검색어 없이/);
  // Within the chosen facet, counts ignore its own choice: Google Cloud still shows its total.
  assert.match(await page.locator("label", { hasText: "Google Cloud" }).innerText(), new RegExp(`${google.count}$`));
  await page.getByRole("checkbox", { name: /^Google Cloud/ }).check();
  await page.waitForFunction((n) => document.querySelector("#count").textContent === `사례 ${n}건`, azure.count + google.count);
  // AND across facets, and the browser agrees with the native search.
  await page.getByRole("checkbox", { name: /^애플리케이션 데이터베이스/ }).check();
  const both = native(server, "", "--filter", "org=microsoft-azure", "--filter", "org=google-cloud", "--filter", "component=app-database");
  await page.waitForFunction((n) => document.querySelector("#count").textContent === `사례 ${n}건`, both.total);
  assert.equal((await chips(page)).length, 3);
  for (const facet of ["cause", "component", "org"]) {
    for (const v of both.facets[facet].filter((v) => v.count > 0)) {
      const label = await page.locator(`label[for="f-${facet}-${v.slug}"]`).innerText();
      assert.match(label, new RegExp(`${v.count}$`), `${facet}=${v.slug}`);
    }
  }
  await page.getByRole("button", { name: "Google Cloud 필터 풀기" }).click();
  await settled(page);
  assert.equal((await chips(page)).length, 2);
  await page.getByRole("button", { name: "모두 풀기" }).click();
  await settled(page);
  assert.deepEqual(await chips(page), []);
  assert.equal(await text(page, "#count"), `사례 ${all.total}건`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("the page says how each word was understood", async () => {
  const { context, page } = await openPage(browser);
  for (const [q, shown] of [["wotleh", /재시도\(으\)로 검색했습니다/], ["재시도를", /재시도를 → 재시도/], ["재시두", /재시두 → 재시도.*오타/], ["ㄴㄱㄱ", /ㄴㄱㄱ → .*냉각기/]]) {
    await page.goto(server.url + "?q=" + encodeURIComponent(q));
    await ready(page);
    assert.match(await text(page, "#understood"), shown, q);
    assert.equal(await text(page, "#count"), `사례 ${native(server, q).total}건`, q);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("words typed without spaces: the same hits as spaced, and the page shows how it spaced them", async () => {
  const { context, page } = await openPage(browser);
  for (const [glued, spacedQ, shown] of [
    ["캐시를비우는배포", "캐시를 비우는 배포", /캐시를비우는배포 → 캐시를 · 비우는 · 배포 \(띄어 읽음\)/],
    ["DNS레코드가", "DNS 레코드가", null],
    ["2017년AWS장애", "2017년 AWS 장애", null],
  ]) {
    const spaced = native(server, spacedQ);
    const together = native(server, glued);
    assert.ok(spaced.total > 0, spacedQ);
    assert.deepEqual(together.hits.map((h) => h.id), spaced.hits.map((h) => h.id), glued);
    await page.goto(server.url + "?q=" + encodeURIComponent(glued));
    await ready(page);
    assert.equal(await text(page, "#count"), `사례 ${together.total}건`, glued);
    if (shown) assert.match(await text(page, "#understood"), shown, glued);
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("추천 필터 from the query, applied with one click", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(server.url + "?q=" + encodeURIComponent("메모리 부족"));
  await ready(page);
  // 메모리 부족 names one value, the cause 메모리 고갈 (every taxonomy name names one).
  const button = page.locator("#suggested button", { hasText: "메모리 고갈" });
  await button.click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("cause") === "memory-exhaustion");
  await settled(page);
  assert.ok((await chips(page)).includes("원인 메모리 고갈×"));
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("graph tabs, and a node click applies its filter", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(server.url);
  await ready(page);
  await page.getByRole("tab", { name: "원인" }).click();
  await settled(page);
  assert.equal(param(page, "tab")[0], "cause");
  // The graph's module is fetched when the first graph is shown, after the list
  // has settled: the graph is drawn once it is in.
  await page.waitForSelector("#graph svg .node");
  assert.ok(await page.locator("#graph svg .node").count() > 5);
  assert.ok(await page.locator("#graph svg .band").count() > 5);
  // Each tab starts at its facet and goes on with the next two, round again.
  const columns = () => page.locator("#graph svg text.col").allTextContents();
  assert.deepEqual(await columns(), ["원인", "구성 요소", "증상"]);
  await page.getByRole("tab", { name: "기여 요인" }).click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("tab") === "factor");
  await settled(page);
  assert.deepEqual(await columns(), ["기여 요인", "원인", "구성 요소"]);
  await page.getByRole("tab", { name: "원인" }).click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("tab") === "cause");
  await settled(page);
  await page.locator("#graph .node", { hasText: "재시도 증폭" }).click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("cause") === "retry-amplification");
  await settled(page);
  assert.equal(await text(page, "#count"), `사례 ${native(server, "", "--filter", "cause=retry-amplification").total}건`);
  await page.getByRole("tab", { name: "사례" }).click();
  await settled(page);
  assert.match((await hitTitles(page))[0], /재시도/);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("URL state: reload, back and forward, and shared links restore everything", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(server.url);
  await ready(page);
  await page.fill("#q", "재시도");
  await page.press("#q", "Enter");
  await page.getByRole("checkbox", { name: /^OOMKilled/ }).check();
  await page.getByRole("button", { name: "최근순" }).click();
  const url = page.url();
  assert.deepEqual([param(page, "q")[0], param(page, "symptom")[0], param(page, "sort")[0]], ["재시도", "oom-killed", "recent"]);
  await page.reload();
  await ready(page);
  assert.equal(await page.inputValue("#q"), "재시도");
  assert.deepEqual(await chips(page), ["증상 OOMKilled×"]);
  assert.equal(await page.locator('.sort[aria-pressed="true"]').innerText(), "최근순");
  await page.goBack();
  await page.waitForFunction(() => !new URL(location.href).searchParams.has("sort"));
  await settled(page);
  assert.equal(await page.locator('.sort[aria-pressed="true"]').innerText(), "관련도순");
  await page.goBack();
  await page.waitForFunction(() => !new URL(location.href).searchParams.has("symptom"));
  await settled(page);
  assert.deepEqual(await chips(page), []);
  await page.goForward();
  await page.waitForFunction(() => new URL(location.href).searchParams.has("symptom"));
  await settled(page);
  assert.deepEqual(await chips(page), ["증상 OOMKilled×"]);
  // The same link in a fresh browser context.
  const other = await openPage(browser);
  await other.page.goto(url);
  await ready(other.page);
  assert.equal(await other.page.inputValue("#q"), "재시도");
  assert.deepEqual(await chips(other.page), ["증상 OOMKilled×"]);
  assert.deepEqual([...page.errors, ...other.page.errors], []);
  await other.context.close();
  await context.close();
});

test("paging: 사례 N건 and N건 중 a~b번째 over 23 incidents", async () => {
  const fixture = await pagedServer();
  const { context, page } = await openPage(browser);
  await page.goto(fixture.url + "?q=" + encodeURIComponent("DNS 레코드"));
  await ready(page);
  assert.equal(await text(page, "#count"), "사례 23건");
  assert.equal(await text(page, "#range"), "23건 중 1~10번째");
  assert.equal((await hitTitles(page)).length, 10);
  await page.getByRole("button", { name: "다음" }).click();
  await shows(page, "#range", "23건 중 11~20번째");
  await page.getByRole("button", { name: "3", exact: true }).click();
  await shows(page, "#range", "23건 중 21~23번째");
  assert.equal((await hitTitles(page)).length, 3);
  assert.equal(param(page, "page")[0], "3");
  await page.goBack();
  await page.waitForFunction(() => new URL(location.href).searchParams.get("page") === "2");
  await shows(page, "#range", "23건 중 11~20번째");
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("offline after the first visit: reload and search without the network", async () => {
  const { context, page } = await openPage(browser);
  await page.goto(server.url);
  await ready(page);
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await page.reload(); // now controlled by the service worker
  await ready(page);
  await page.goto(server.url + "incidents/IL-0001/");
  // A search online: its hits' passages are kept as they are fetched.
  await page.goto(server.url + "?q=" + encodeURIComponent("냉각기"));
  await ready(page);
  await page.waitForSelector("#list .snippet.excerpt");
  await context.setOffline(true);
  await page.goto(server.url + "?q=" + encodeURIComponent("냉각기"));
  await ready(page);
  assert.equal(await page.locator("#offline").isVisible(), true, "the UI says it is offline");
  assert.match((await hitTitles(page))[0], /Australia East/);
  await page.waitForSelector("#list .snippet.excerpt mark");
  await page.fill("#q", "재시도를");
  await page.waitForFunction((n) => document.querySelector("#count").textContent === `사례 ${n}건`, native(server, "재시도를").total);
  await page.goto(server.url + "incidents/IL-0001/");
  assert.match(await page.locator("h1").innerText(), /냉각기/);
  await context.setOffline(false);
  assert.deepEqual(page.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e)), []);
  await context.close();
});

test("no console errors on any kind of page; keyboard focus is visible", async () => {
  const { context, page } = await openPage(browser);
  for (const path of ["", "about/", "incidents/IL-0004/", "topics/cause/retry-amplification/", "topics/org/google-cloud/"]) {
    await page.goto(server.url + path);
    await page.waitForLoadState("networkidle");
    assert.ok((await page.locator("h1, #search").count()) > 0, path);
  }
  await page.goto(server.url);
  await ready(page);
  await page.keyboard.press("Tab");
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, "none");
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("screenshots at desktop and phone width", async () => {
  for (const [name, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
    const { context, page } = await openPage(browser, { viewport, isMobile: name === "phone", hasTouch: name === "phone" });
    await page.goto(server.url + "?q=" + encodeURIComponent("재시도를") + "&symptom=latency-increase&component=cloud-load-balancer");
    await ready(page);
    await page.screenshot({ path: join(screenshots, `search-${name}.png`), fullPage: true });
    await page.goto(server.url + "incidents/IL-0004/");
    await page.screenshot({ path: join(screenshots, `incident-${name}.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `${name}: the page scrolls sideways by ${overflow}px`);
    assert.deepEqual(page.errors, []);
    await context.close();
  }
});

test("hostile URL state is dropped or clamped, never breaks the page", async () => {
  const { context, page } = await openPage(browser);
  for (const qs of ["?tab=__proto__", "?tab=toString", "?cause=__proto__", "?cause=constructor&q=재시도", "?page=9999999999", "?page=-3&q=재시도", "?q=" + encodeURIComponent("!!! .*")]) {
    await page.goto(server.url + qs);
    await ready(page);
    assert.doesNotMatch(await text(page, "body"), /검색 모듈을 불러오지 못했습니다/, qs);
    assert.match(await text(page, "#count"), /^사례 \d+건$/, qs);
  }
  // A page past the last shows the last one.
  await page.goto(server.url + "?q=" + encodeURIComponent("재시도") + "&page=500");
  await ready(page);
  const want = native(server, "재시도", "--limit", "100");
  const last = Math.max(1, Math.ceil(want.total / 10));
  assert.equal(new URL(page.url()).searchParams.get("page") ?? "1", String(last));
  // A 100 KB word pasted into the box: cut, said so, and the tab stays responsive.
  const started = Date.now();
  await page.fill("#q", "재시도 " + "가".repeat(100_000));
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /검색어가 길어 앞부분만 찾았습니다/.test(document.querySelector("#range").textContent), null, { timeout: 20_000 });
  assert.ok(Date.now() - started < 15_000, "the page answered a 100 KB query");
  // A query of no word says so and finds nothing.
  await page.goto(server.url + "?q=" + encodeURIComponent("!!! .*"));
  await ready(page);
  assert.equal(await text(page, "#count"), "사례 0건");
  assert.match(await text(page, "#range"), /검색할 수 있는 낱말이 없습니다/);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("nothing moves as the search starts, and on a phone the first result is in the first screen", async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
    // A filter in the address: its chips come above the list; and a search of
    // fewer hits than the twenty the page comes with: the page gets shorter.
    for (const [q, filter] of [["", ""], ["디엔에스 장애", ""], ["재시도 폭주가 일어남", ""], ["데이터센터 화재", "&cause=fire"]]) {
      const { context, page } = await openPage(browser, { viewport });
      // A slow CPU, as a phone's: the script starts well after the page is drawn.
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await page.addInitScript(() => {
        window.shifts = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts.push(e.value);
        }).observe({ type: "layout-shift", buffered: true });
      });
      await page.goto(server.url + (q ? `?q=${encodeURIComponent(q)}${filter}` : ""));
      await ready(page);
      await settled(page);
      // Layout shifts are reported after the frame that made them.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const shift = await page.evaluate(() => window.shifts.reduce((a, b) => a + b, 0));
      assert.ok(shift < 0.01, `${viewport.width}px, q=${JSON.stringify(q)}${filter}: layout shift ${shift}`);
      const first = await page.locator("#list .hit").first().boundingBox();
      assert.ok(first.y + 40 < viewport.height, `${viewport.width}px, q=${JSON.stringify(q)}: the first result starts at y=${first.y}`);
      // One heading names the page: the search box's label.
      assert.deepEqual(await page.locator("h1").allInnerTexts(), ["사례 검색"]);
      // The flow graph is offered beside the results, not on a phone.
      assert.equal(await page.locator("#tabs").isVisible(), viewport.width > 800);
      if (viewport.width < 800 && q && !filter) await page.screenshot({ path: join(screenshots, "search-phone-first-screen.png") });
      await context.close();
    }
  }
});

test("on a phone the folded filters get their values when opened, with the search's counts", async () => {
  const { context, page } = await openPage(browser, { viewport: { width: 390, height: 844 } });
  await page.goto(server.url + "?q=DNS+장애&org=cloudflare");
  await ready(page);
  const panel = page.locator("#facet-panel");
  assert.equal(await panel.evaluate((d) => d.open), false);
  assert.equal(await text(page, "#facet-summary"), "분류로 거르기 (1개 적용)");
  // Folded, the panel holds the page's own topic links, not the search's options.
  assert.equal(await page.locator("#facets input").count(), 0);
  // A search that changes while it is folded: the panel opens on the latest.
  await page.locator("#q").fill("DNS");
  await settled(page);
  await page.locator("#facet-summary").click();
  const want = native(server, "DNS", "--filter", "org=cloudflare");
  for (const facet of ["cause", "org"]) {
    for (const v of want.facets[facet].filter((v) => v.count > 0)) {
      const label = page.locator(`label[for="f-${facet}-${v.slug}"]`);
      assert.match(await label.innerText(), new RegExp(`${v.count}$`), `${facet}=${v.slug}`);
    }
  }
  assert.equal(await page.getByRole("checkbox", { name: /^Cloudflare/ }).isChecked(), true);
  // Open, it follows the search as it changes.
  await page.getByRole("checkbox", { name: /^Cloudflare/ }).uncheck();
  await settled(page);
  const all = native(server, "DNS");
  const cloudflare = all.facets.org.find((v) => v.slug === "cloudflare");
  assert.match(await page.locator('label[for="f-org-cloudflare"]').innerText(), new RegExp(`${cloudflare.count}$`));
  assert.equal(await text(page, "#facet-summary"), "분류로 거르기");
  assert.deepEqual(page.errors, []);
  await context.close();
});
