// The site's syndication files against their published schemas (the texts are in
// tests/fixtures/schemas/, each saying where it comes from): every Atom feed of a
// build with the site's URL against RFC 4287's RELAX NG schema (jing) and the
// Schematron rules written in it (xmllint), sitemap.xml against the sitemaps.org
// XSD (xmllint), and, past 50,000 URLs, the sitemap index and each of its parts.
// Each validator is shown to refuse a broken copy, with its own message.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binary, repo, shippedData } from "./helpers.mjs";

const SITE = "https://example.org/lib/";
const schemas = join(repo, "tests", "fixtures", "schemas");
const ATOM_RNC = join(schemas, "atom.rnc");
const SITEMAP_XSD = join(schemas, "sitemap.xsd");
const SITEINDEX_XSD = join(schemas, "siteindex.xsd");
/** URLs one sitemap file may hold (sitemaps.org; sitemap.rs MAX_URLS). */
const MAX_URLS = 50_000;

/** Runs a validator: its exit code and what it said, stdout and stderr together.
 *  Debian's jing wrapper warns about optional jars it did not find; those lines
 *  are not the validator's. */
function run(command, args) {
  const r = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`${command}: ${r.error.message} (bash scripts/setup.sh installs jing and libxml2-utils)`);
  const said = (r.stdout + r.stderr).split("\n").filter((l) => l && !l.startsWith("[warning] /usr/bin/jing:"));
  return { code: r.status, said: said.join("\n") };
}
const jing = (files) => run("jing", ["-c", ATOM_RNC, ...files]);
const xsd = (schema, files) => run("xmllint", ["--noout", "--schema", schema, ...files]);
const schematron = (files) => run("xmllint", ["--noout", "--schematron", sch, ...files]);
function valid(result, what) {
  assert.equal(result.code, 0, `${what} is not valid:\n${result.said}`);
}
function refused(result, what, message) {
  assert.notEqual(result.code, 0, `${what} passed the validator:\n${result.said}`);
  assert.match(result.said, message, `${what}: not the expected message`);
}

/** The Schematron rules of atom.rnc's annotations (three: a feed has an author
 *  unless all its entries do; an entry has an alternate link or content; an entry
 *  has an author if its feed does not), as a Schematron 1.5 schema, one pattern a
 *  rule so that two rules on one context both run. */
function schematronOf(rnc) {
  const literal = '"[^"]*"';
  const joined = `${literal}(?:\\s*~\\s*${literal})*`;
  const rule = new RegExp(`s:rule \\[\\s*context = (${literal})\\s*s:assert \\[\\s*test = (${joined})\\s*(${joined})\\s*\\]\\s*\\]`, "g");
  const text = (s) => [...s.matchAll(/"([^"]*)"/g)].map((m) => m[1]).join("");
  const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  const rules = [...rnc.matchAll(rule)].map((m) => ({ context: text(m[1]), test: text(m[2]), message: text(m[3]) }));
  assert.equal(rules.length, 3, `atom.rnc's Schematron rules: found ${rules.length}, expected 3`);
  const patterns = rules.map((r, i) => `  <pattern name="rfc4287-${i + 1}">
    <rule context="${esc(r.context)}"><assert test="${esc(r.test)}">${esc(r.message)}</assert></rule>
  </pattern>`);
  return `<schema xmlns="http://www.ascc.net/xml/schematron">
  <ns prefix="atom" uri="http://www.w3.org/2005/Atom"/>
${patterns.join("\n")}
</schema>
`;
}

/** Every file called `name` under `dir`. */
function find(dir, name, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) find(join(dir, entry.name), name, out);
    else if (entry.name === name) out.push(join(dir, entry.name));
  }
  return out;
}

let tmp, out, sch;
before(() => {
  tmp = mkdtempSync(join(tmpdir(), "il-feeds-"));
  out = join(tmp, "dist");
  const build = spawnSync(binary, ["build", "--data", shippedData, "--out", out, "--pkg", join(repo, "pkg"), "--site-url", SITE], { encoding: "utf8" });
  assert.equal(build.status, 0, `build failed:\n${build.stderr}`);
  sch = join(tmp, "atom.sch");
  writeFileSync(sch, schematronOf(readFileSync(ATOM_RNC, "utf8")));
});
// The build and the split sitemap (5 MB) go when the file's tests are done.
after(() => rmSync(tmp, { recursive: true, force: true }));

test("the schemas are the published texts, as their headers say", () => {
  const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
  // atom.rnc: the text after the header's blank line.
  const rnc = readFileSync(ATOM_RNC);
  const body = rnc.subarray(rnc.indexOf("\n\n") + 2);
  assert.equal(sha256(body), "95d9dcc90446761a586bfce906a52f024d62301c3637a2fa7d015553e951837c", "atom.rnc");
  // The XSDs: the file less the provenance comment after the XML declaration.
  for (const [file, hash] of [
    [SITEMAP_XSD, "fbec77e84467050d5667394a57cc5cdfe1239d80aca1d61e9e0827173c3d9df9"],
    [SITEINDEX_XSD, "221d53c28d58c732e62bef159b112adaef79bc68f9f4a1965ae5be5e5c1edd29"],
  ]) {
    const text = readFileSync(file, "latin1");
    const start = text.indexOf("<!--");
    const end = text.indexOf("-->\r\n") + 5;
    assert.ok(start > 0 && end > start, `${file}: no provenance comment`);
    assert.equal(sha256(Buffer.from(text.slice(0, start) + text.slice(end), "latin1")), hash, file);
  }
});

test("every Atom feed, the library's and each topic's, is valid RFC 4287", () => {
  const feeds = find(out, "feed.xml");
  // One feed a topic: every topic page the sitemap names has one, and no other.
  const topics = [...readFileSync(join(out, "sitemap.xml"), "utf8").matchAll(/<loc>https:\/\/example\.org\/lib\/(topics\/[^<]+)<\/loc>/g)].map((m) => m[1]);
  assert.ok(topics.length > 100, `only ${topics.length} topics in the sitemap`);
  assert.deepEqual(feeds.map((f) => f.slice(out.length + 1)).sort(), ["feed.xml", ...topics.map((t) => `${t}feed.xml`)].sort());
  // All of them in one run of each validator.
  valid(jing(feeds), "a feed (RELAX NG)");
  valid(schematron(feeds), "a feed (RFC 4287's Schematron rules)");
});

test("a feed that breaks RFC 4287 is refused, with the validator's message", () => {
  const feed = readFileSync(join(out, "feed.xml"), "utf8");
  const broken = (name, text) => {
    assert.notEqual(text, feed, `${name}: the breakage did not apply`);
    const file = join(tmp, name);
    writeFileSync(file, text);
    return file;
  };
  // One run of jing over three broken copies (a JVM start each costs half a
  // second) and a fourth that only the Schematron rules refuse: it must name each
  // of the three with its error, and not the fourth.
  const noId = broken("no-id.xml", feed.replace(/\n {4}<id>[^<]*<\/id>/, ""));
  const badDate = broken("bad-updated.xml", feed.replace(/(<entry>\n(?:.*\n)*? {4}<updated>)\d{4}-\d{2}-\d{2}/, "$12024-02-30"));
  const noTerm = broken("no-term.xml", feed.replace(/<category term="[^"]*"/, "<category"));
  const noAuthor = broken("no-author.xml", feed.replace(/\n {2}<author>.*<\/author>/, ""));
  const result = jing([noId, badDate, noTerm, noAuthor]);
  refused(result, "an entry without an id", /no-id\.xml:\d+:\d+: error: element "entry" incomplete; missing required element "id"/);
  refused(result, "an entry updated on 30 February", /bad-updated\.xml:\d+:\d+: error: character content of element "updated" invalid; must be an ISO date and time/);
  refused(result, "a category without a term", /no-term\.xml:\d+:\d+: error: element "category" missing required attribute "term"/);
  assert.doesNotMatch(result.said, /no-author\.xml/, "a feed without an author is valid RELAX NG: only the Schematron rules see it");
  // The Schematron rules: no author anywhere, and an entry with no alternate link.
  refused(schematron([noAuthor]), "a feed whose entries have no author", /An atom:feed must have an atom:author unless all of its atom:entry children have an atom:author\./);
  const noLink = broken("no-link.xml", feed.replace(/\n {4}<link rel="alternate"[^>]*\/>/, ""));
  refused(schematron([noLink]), "an entry without a link or content", /An atom:entry must have at least one atom:link element with a rel attribute of 'alternate' or an atom:content\./);
});

test("sitemap.xml is valid against the sitemaps.org schema, and a broken copy is refused", () => {
  const file = join(out, "sitemap.xml");
  const sitemap = readFileSync(file, "utf8");
  const urls = (sitemap.match(/<url>/g) || []).length;
  // The shipped corpus is far from the split: one urlset, no parts.
  assert.ok(urls > 300 && urls <= MAX_URLS, `${urls} URLs`);
  assert.match(sitemap, /^<\?xml [^>]*\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
  assert.equal(existsSync(join(out, "sitemap-1.xml")), false);
  valid(xsd(SITEMAP_XSD, [file]), "sitemap.xml");
  const badDay = join(tmp, "bad-lastmod.xml");
  writeFileSync(badDay, sitemap.replace(/<lastmod>[^<]*<\/lastmod>/, "<lastmod>2024-02-30</lastmod>"));
  refused(xsd(SITEMAP_XSD, [badDay]), "a url last changed on 30 February", /bad-lastmod\.xml:\d+: .*Element '\{http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9\}lastmod': '2024-02-30' is not a valid value of the union type '\{http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9\}tLastmod'/);
  const noLoc = join(tmp, "no-loc.xml");
  writeFileSync(noLoc, sitemap.replace(/<url><loc>[^<]*<\/loc>/, "<url>"));
  refused(xsd(SITEMAP_XSD, [noLoc]), "a url without a loc", /no-loc\.xml:\d+: .*Element '\{http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9\}lastmod': This element is not expected\. Expected is \( \{http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9\}loc \)/);
});

test("past 50,000 URLs: a sitemap index valid against siteindex.xsd, each part against sitemap.xsd", (t) => {
  // A build of 50,001 records takes minutes; the sitemap_split example writes the
  // sitemap of such a corpus with the build's own sitemap code (sitemap.rs).
  const example = join(repo, "target", process.env.IL_PROFILE || "release", "examples", "sitemap_split");
  if (!existsSync(example)) {
    t.skip(`${example} is not built (scripts/test.sh builds it; cargo build --profile ${process.env.IL_PROFILE || "release"} -p incident-build --example sitemap_split)`);
    return;
  }
  const dir = join(tmp, "split");
  const r = spawnSync(example, [shippedData, dir], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const index = readFileSync(join(dir, "sitemap.xml"), "utf8");
  assert.match(index, /<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
  const parts = [...index.matchAll(/<loc>https:\/\/example\.org\/lib\/([^<]+)<\/loc>/g)].map((m) => m[1]);
  assert.deepEqual(parts, ["sitemap-1.xml", "sitemap-2.xml"]);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith("sitemap")).sort(), ["sitemap-1.xml", "sitemap-2.xml", "sitemap.xml"]);
  valid(xsd(SITEINDEX_XSD, [join(dir, "sitemap.xml")]), "the sitemap index");
  valid(xsd(SITEMAP_XSD, parts.map((p) => join(dir, p))), "a part of the sitemap");
  const counts = parts.map((p) => (readFileSync(join(dir, p), "utf8").match(/<url>/g) || []).length);
  assert.equal(counts[0], MAX_URLS);
  assert.ok(counts[1] > 0 && counts[1] <= MAX_URLS, `${counts}`);
  // An index is no urlset, and an index entry needs its loc.
  refused(xsd(SITEMAP_XSD, [join(dir, "sitemap.xml")]), "the index read as a urlset", /No matching global declaration available for the validation root/);
  const noLoc = join(tmp, "index-no-loc.xml");
  writeFileSync(noLoc, index.replace(/<sitemap><loc>[^<]*<\/loc><\/sitemap>/, "<sitemap></sitemap>"));
  refused(xsd(SITEINDEX_XSD, [noLoc]), "an index entry without a loc", /index-no-loc\.xml:\d+: .*Element '\{http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9\}sitemap': Missing child element\(s\)\. Expected is \( \{http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9\}loc \)/);
});
