// The Incident Library as an ES module: open a deployed library by its URL, then
// search it, list its facets and read whole records, all in the browser.
//
//   import { IncidentLibrary } from "https://incidents.example.org/pkg/library.js";
//   const lib = await IncidentLibrary.open("https://incidents.example.org/");
//   const { hits } = await lib.search("재시도를", { filters: { component: ["cloud-load-balancer"] } });

import init, { IncidentLibrary as Core } from "./incident_library.js";

// A file is fetched once, or again past the HTTP cache or after the library moved
// to a new build. A file still missing after this many fetches does not belong
// to the index the search reads.
const MAX_FETCHES = 3;
// Files that come within this many ms of each other are added before the search
// is asked again: the files of one wave of requests come a few ms apart, and each
// search costs the main thread a few ms on a phone.
const GATHER_MS = 8;
// Words of a query given to `open` whose blocks are asked for before the module
// has started: a query's first dozen words are nearly always all it says.
const EARLY_WORDS = 12;
// Most blocks asked for before the module has started, counting the words' own,
// which always are: the others are guesses. Each costs a few ms of the module's
// download on a slow link, where a block the search asks for later costs a round
// trip; past 20 almost no query of the query sets has a guess left, and one
// wasted guess too many takes a long query's first search past its byte budget
// (crates/build/examples/first_search.rs models the same rule).
const EARLY_BLOCKS = 20;
// Most near-term buckets asked for before the module has started, for the words
// that the early blocks show the vocabulary lacks (a typo, or a word the records
// never use), and only while fewer than EARLY_BLOCKS files, the blocks counted,
// are asked for: a wasted bucket costs as much as a wasted block, and a long
// query's first search stays within its budget (crates/build/examples/first_search.rs
// models the same rule).
const EARLY_NEAR = 3;
// Most listing files asked for before the module has started: those of the
// incidents that have the most of the query's words, weighed by how rare each
// is, read from the early blocks. The first page lists ten, and six requests
// go at once over HTTP/1.1: with four or more of them in, the rest come in one
// wave instead of two. Over the query sets about two in three of these five are
// on the first page (crates/build/examples/first_search.rs models the same rule).
const EARLY_LISTINGS = 5;
// A query with more words than this that its early blocks cannot read (a typo,
// initials, a word the records never use) gets no early listings: the search
// reads those words otherwise, and its first page is seldom the guess.
const EARLY_UNREAD_WORDS = 2;
// The longest word whose runs of syllables are looked up early: a dozen syllables
// are several words typed without spaces, and a word of thousands would cost
// millions of lookups.
const EARLY_RUN_SYLLABLES = 16;
// The wasm binding, started once: `scripts/build-wasm.sh` bundles wasm-bindgen's
// glue into this module, so that the module and `meta.bin` are requested together
// and nothing else comes between the loader and them. The module's URL stays a
// literal, which bundlers follow; `v` (the page's build) is its `?v=`.
let binding;
const start = (v) => {
  if (!binding) {
    const wasm = new URL("incident_library_bg.wasm", import.meta.url);
    wasm.search = v;
    // Node's fetch reads no file: URLs: the installed package reads its module from disk.
    const source = wasm.protocol === "file:" ? readFile(wasm) : fetch(wasm);
    binding = init({ module_or_path: source });
    // A module that could not be fetched is tried again by the next `open`.
    binding.catch(() => { binding = null; });
  }
  return binding;
};

// In Node (file: URLs, folder paths) the package reads from disk through node.js,
// which a browser never loads.
const inNode = typeof process === "object" && Boolean(process.versions?.node);
const readFile = async (url) => (await import("./node.js")).readFile(url);

/** The bytes at `url`: fetched, or read from disk for a file: URL. With
 *  `offlineFromCache`, an offline browser asks only the caches (a service worker's):
 *  a file it does not hold is an error, not a failed request. `cache` is the fetch's
 *  cache mode ("reload" goes past the HTTP cache and refreshes it), `priority` its
 *  priority ("low": after the others that wait for a connection). */
async function load(url, { offlineFromCache = false, cache, priority } = {}) {
  if (url.protocol === "file:") return readFile(url);
  if (offlineFromCache && globalThis.navigator?.onLine === false && globalThis.caches) {
    const kept = await caches.match(url.href);
    if (!kept) throw new Error(`${url}: offline, and not kept`);
    return new Uint8Array(await kept.arrayBuffer());
  }
  return new Uint8Array(await (await response(url, cache || priority ? { cache, priority } : undefined)).arrayBuffer());
}

/** The response of a successful request for `url`. A failed request names its
 *  URL: Node's own message is a bare "fetch failed". */
async function response(url, init) {
  const r = await fetch(url, init).catch((e) => {
    throw new Error(`${url}: ${e.message}`, { cause: e });
  });
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r;
}

/** The bytes at http(s) `url`, as `load` gives them; `onPrefix` sees the bytes
 *  received so far, each time more come, until it returns true. */
async function loadStreaming(url, onPrefix) {
  const chunks = [];
  let length = 0;
  // The chunks as one array: after each chunk until `onPrefix` is satisfied, then
  // once at the end.
  const joined = () => {
    const all = new Uint8Array(length);
    chunks.reduce((at, c) => (all.set(c, at), at + c.length), 0);
    return all;
  };
  let seen = false;
  for (const reader = (await response(url)).body.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) return joined();
    chunks.push(value);
    length += value.length;
    seen ||= onPrefix(joined());
  }
}

/** The build (16 hex digits, as `core.build` spells it) in the header of index
 *  file `bytes`, or undefined when they do not start like an index file. A loader
 *  whose `addFile` was refused asks this to tell a new deploy from damage. */
const buildOf = (bytes) =>
  bytes.length < 24 || String.fromCharCode(...bytes.subarray(0, 4)) !== "ILIX" ? undefined
    : new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(8, true).toString(16).padStart(16, "0");

/** A postcard reader of `bytes` from offset `at`: varints, strings and
 *  sequences, each a throw past the bytes in. */
function reader(bytes, at) {
  const text = new TextDecoder();
  const r = {
    get at() {
      return at;
    },
    varint() {
      let v = 0;
      for (let scale = 1, b = 128; b > 127; scale *= 128) v += ((b = bytes[at++]) & 127) * scale;
      if (at > bytes.length) throw 0;
      return v;
    },
    // `n` bytes as they are.
    take(n) {
      if ((at += n) > bytes.length) throw 0;
      return bytes.subarray(at - n, at);
    },
    string: () => text.decode(r.take(r.varint())),
    // A string passed over, not decoded.
    skip: () => void r.take(r.varint()),
    // Each item takes a byte at least: a count past the bytes in is not read.
    list(item) {
      const n = r.varint();
      if (n > bytes.length - at) throw 0;
      return Array.from({ length: n }, item);
    },
  };
  return r;
}

/** The block directory at the start of `meta.bin` (docs/index-format.md, "The
 *  directory and the lexicon first"): `{build, perBlock, blocks, end}`, the build
 *  as `core.build` spells it, the terms per block, each block's separator and the
 *  offset where the lexicon starts; null until it is all in, or for bytes that do
 *  not hold one. */
function directoryOf(bytes) {
  try {
    const build = buildOf(bytes);
    if (!build || bytes[6] !== 1) return null;
    const r = reader(bytes, 24);
    const [terms, perBlock] = [r.varint(), r.varint()];
    // Passed over until all of it is in, then decoded once: this runs at every
    // chunk of meta.bin, and a large library has thousands of separators.
    const decoded = reader(bytes, r.at);
    r.list(r.skip);
    const blocks = decoded.list(decoded.string);
    if (!perBlock || Math.ceil(terms / perBlock) !== blocks.length) return null;
    return { build, perBlock, blocks, end: r.at };
  } catch {
    return null;
  }
}

/** The lexicon from offset `at` of `meta.bin`, right after the directory: the
 *  near-term buckets' count and length band after it and the offset after them,
 *  `{buckets, band, end}`, once it is all in (null until then); its entries
 *  (`{starts, means}`: the starts of a word that read as the entry, see
 *  `startsOf`) are decoded when first read (`entries`), not at every chunk. */
function lexiconOf(bytes, at) {
  try {
    const r = reader(bytes, at);
    r.list(() => (r.list(r.skip), r.list(() => r.list(r.varint))));
    const [buckets, band] = [r.varint(), r.varint()];
    let entries;
    return {
      buckets, band, end: r.at,
      get entries() {
        if (!entries) {
          const d = reader(bytes, at);
          entries = d.list(() => ({ starts: startsOf(d.list(d.string)), means: d.list(() => d.list(d.varint)) }));
        }
        return entries;
      },
    };
  } catch {
    return null;
  }
}

/** The incidents of each term of vocabulary block `bytes`, by term
 *  (docs/index-format.md, `VocabBlock`: its first position, its terms front
 *  coded, their document frequencies and the one incident of each term that has
 *  one; after the filter, a bitset for a common term and a list of differences
 *  for any other), or null for bytes that do not hold them. */
function blockIncidents(bytes) {
  try {
    const r = reader(bytes, 24);
    const first = r.varint();
    const end = r.varint() + r.at;
    let term = new Uint8Array(0);
    const text = new TextDecoder();
    const terms = r.list(() => {
      const shared = r.varint();
      const rest = r.take(r.varint());
      const next = new Uint8Array(shared + rest.length);
      next.set(term.subarray(0, shared));
      next.set(rest, shared);
      term = next;
      return text.decode(next);
    });
    const ones = terms.map(r.varint).flatMap((df, i) => (df === 1 ? [i] : []));
    // An incident number takes the bytes the terms' part has left for each.
    const width = (end - r.at) / ones.length;
    const found = new Map(ones.map((i) => [terms[i], [r.take(width).reduceRight((doc, b) => doc * 256 + b, 0)]]));
    const s = reader(bytes, end);
    // The filter (seed, three sizes, fingerprints) is for the module's ranking.
    [s.varint(), s.varint(), s.varint(), s.varint(), s.skip()];
    const each = (docs) => s.list(() => found.set(terms[s.varint() - first], docs(s.take(s.varint()))));
    each((bits) => Array.from({ length: bits.length * 8 }, (_, d) => d).filter((d) => bits[d >> 3] & (1 << (d & 7))));
    each((list) => {
      const l = reader(list, 0);
      const docs = [];
      for (let doc = -1; l.at < list.length; ) docs.push((doc += l.varint()));
      return docs;
    });
    return found;
  } catch {
    return null;
  }
}

/** What `meta.bin` says of its incidents after the lexicon (from `at`, its
 *  `end`): `{n, chunk}`, their number and the incidents per listing file. Throws
 *  for bytes that do not hold them. */
function incidentsOf(bytes, at) {
  const r = reader(bytes, at);
  // The corpus's date, the facets with their values (key and labels; slug,
  // labels, synonyms and aliases) and each incident's values.
  r.skip();
  r.list(() => [r.skip(), r.skip(), r.skip(), r.list(() => [r.skip(), r.skip(), r.skip(), r.list(r.skip), r.list(r.skip)])]);
  [r.varint(), r.skip()];
  // Their ids, then their days and lengths.
  const n = r.list(r.varint).length;
  [r.list(r.varint), r.skip()];
  return { n, chunk: r.varint() };
}

/** The words of `query` as typed, much as the search reads words: NFKC, lower
 *  case, split at what is not a letter or digit and where Hangul meets Latin
 *  letters; the first `EARLY_WORDS`. */
const wordsOf = (query) => String(query).normalize("NFKC").toLowerCase()
  .split(/[^\p{L}\p{N}]+|(?<=[가-힣])(?=[a-z])|(?<=[a-z])(?=[가-힣])/u).filter(Boolean).slice(0, EARLY_WORDS);

/** The block that would hold `term` in `blocks` (the separators, in order), or -1,
 *  found by bisection: a query looks up a few hundred runs. JS orders strings by
 *  UTF-16 units and the index by UTF-8 bytes: the same order for Hangul syllables
 *  and ASCII, and for the rare word they sort apart, a guess in vain. */
function blockOf(term, blocks) {
  let [lo, hi] = [0, blocks.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid] <= term) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The blocks of `words` themselves: the search needs nearly all of them in its
 *  first round. */
const wordBlocks = (words, { blocks }) => words.map((w) => blockOf(w, blocks));

/** The blocks of what the search looks up besides the words as typed, likeliest
 *  first: the number that begins a word with Hangul after it (`2월` → `2`,
 *  `2017년` → `2017`); the meanings of the lexicon entries whose typed form, or a verb's stem
 *  (the form without its final 다), of two characters or more begins a word, or a
 *  word and the next one (`애저가` → `azure`, `뻗어서` → the entry of `뻗다`); then,
 *  in words of at most `EARLY_RUN_SYLLABLES` Hangul syllables, every run of two
 *  syllables or more that begins a word (its stem, its word without a particle),
 *  and the runs inside it that `innerRun` keeps (its pieces typed without a space,
 *  the terms inside it: `전세계` → `세계`); last, each word and the next read as
 *  one (`전 세계` → `전세계`, `packet loss` → `packetloss`). */
function readingBlocks(words, { blocks, perBlock }, lexicon) {
  const found = [];
  for (const word of words) {
    const number = /^[0-9]+(?=[가-힣])/.exec(word);
    if (number) found.push(blockOf(number[0], blocks));
  }
  words.forEach((word, i) => {
    const texts = [word, word + (words[i + 1] ?? "")];
    for (const { starts, means } of lexicon.entries) {
      if (starts.some((f) => texts.some((t) => t.startsWith(f)))) {
        // A position past the vocabulary (damage the module will refuse) asks for nothing.
        for (const p of means.flat()) found.push(p < blocks.length * perBlock ? Math.floor(p / perBlock) : -1);
      }
    }
  });
  const runs = words.filter((w) => /^[가-힣]+$/.test(w) && w.length <= EARLY_RUN_SYLLABLES);
  for (const word of runs) {
    for (let to = 2; to <= word.length; to++) found.push(blockOf(word.slice(0, to), blocks));
  }
  for (const word of runs) {
    for (let from = 1; from < word.length; from++) {
      for (let to = from + 2; to <= word.length; to++) {
        if (innerRun(word.length, from, to)) found.push(blockOf(word.slice(from, to), blocks));
      }
    }
  }
  for (let i = 1; i < words.length; i++) found.push(blockOf(words[i - 1] + words[i], blocks));
  return found;
}

/** Whether the run of syllables `from..to` (not at the start) of a word of `n`
 *  syllables is looked up early: one of two syllables in a word of five or more,
 *  or the last two of a word of four; a longer one in a word of six or more. In a
 *  shorter word the runs inside are mostly pieces of its particle or ending, which
 *  the search seldom looks up (crates/build/examples/first_search.rs, `inner_run`,
 *  gives the figures). */
const innerRun = (n, from, to) => (to - from === 2 ? n >= 5 || (n === 4 && to === n) : n >= 6);

/** The starts of a word that read as a lexicon entry typed as `say`: each form,
 *  and a verb's stem (the form without its final 다), of two characters or more.
 *  Worked out once per entry: every word is compared with every entry. */
const startsOf = (say) => say.flatMap((f) => [f, /.다$/.test(f) && f.slice(0, -1)]).filter((f) => f && [...f].length >= 2);

// Hangul's initials, vowels and finals as compatibility jamo, and the compound
// vowels and finals each followed by the two keys that type it
// (crates/core/src/text/hangul.rs).
const [LEADS, VOWELS, TAILS] = ["ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ", "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ", " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"];
const PAIRS = "ㅘㅗㅏㅙㅗㅐㅚㅗㅣㅝㅜㅓㅞㅜㅔㅟㅜㅣㅢㅡㅣㄳㄱㅅㄵㄴㅈㄶㄴㅎㄺㄹㄱㄻㄹㅁㄼㄹㅂㄽㄹㅅㄾㄹㅌㄿㄹㅍㅀㄹㅎㅄㅂㅅ";

/** The keys a 2-set keyboard types for `word`, as the search's typo lookup
 *  reads them (`hangul::keys`); other characters stand for themselves. */
function keysOf(word) {
  const keys = [];
  const key = (c) => {
    const at = PAIRS.indexOf(c);
    keys.push(...(at % 3 ? [c] : PAIRS.slice(at + 1, at + 3)));
  };
  for (const c of word) {
    const s = c.charCodeAt(0) - 0xac00;
    if (s < 0 || s > 11171) key(c);
    else [LEADS[Math.floor(s / 588)], VOWELS[Math.floor(s / 28) % 21], TAILS[s % 28]].forEach((k) => k !== " " && key(k));
  }
  return keys;
}

/** The near-term bucket files the typo lookup of `word` reads, or none for a
 *  word too short to be read as a typo (`expand_typos` and `near::typo_lookup_keys`
 *  in the core): `<` and its first two keys, `>` and its last two, in each length
 *  band a term within its edits can be in, each hashed (FNV-1a) to a bucket. */
function nearFiles(word, { buckets, band }) {
  const keys = keysOf(word);
  const n = keys.length;
  const letters = word.replace(/[^a-z]/g, "").length;
  const max = /[가-힣]/.test(word) ? (n > 9) + (n > 3) : /^[a-z0-9]+$/.test(word) ? (letters > 7) + (letters > 4) : 0;
  if (!max || !buckets) return [];
  const bands = new Set(band ? [] : [""]);
  for (let length = Math.max(n - max, 2); band && length <= n + max; length++) bands.add(String(Math.floor(length / band)));
  const utf8 = new TextEncoder();
  return [["<", 0], [">", n - 2]].flatMap(([mark, at]) => [...bands].map((b) => {
    let hash = 0x811c9dc5;
    for (const byte of utf8.encode(mark + keys[at] + keys[at + 1] + b)) hash = Math.imul(hash ^ byte, 0x01000193);
    return `near-${String((hash >>> 0) % buckets).padStart(4, "0")}.bin`;
  }));
}

/** Resolves in a later task: the page may handle input and paint first. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/** `baseUrl` as a URL: a URL, or in Node also a folder path (`./dist`, `/srv/library`). */
async function baseOf(baseUrl) {
  if (baseUrl instanceof URL) return new URL(baseUrl);
  if (inNode && !/^[a-z][a-z0-9+.-]*:/i.test(String(baseUrl))) return (await import("./node.js")).folderUrl(String(baseUrl));
  return new URL(baseUrl, globalThis.location?.href);
}

/** The library's site now holds a build this module cannot read, or changes again
 *  while it is read: the page should be loaded again. */
export class NewBuildError extends Error {
  constructor(message) {
    super(message);
    this.name = "NewBuildError";
  }
}

/** A library on a site or in a folder. When the site is deployed anew while it is
 *  read (a file of another build comes back), it goes on with the new build as a
 *  whole and fires "newbuild"; it never reads files of two builds as one index. */
export class IncidentLibrary extends EventTarget {
  /** Loads the module and the index of the library at `baseUrl` (its site root):
   *  an http(s) URL, or in Node also a file: URL or a folder path of a built library.
   *  With `version` (the build a page names), the module and `meta.bin` are
   *  fetched as `?v=<version>`; every other file carries the build of the
   *  `meta.bin` read, so a tab never meets a cached file of another build. With
   *  `query` (the query the caller will search first, as typed), the blocks of its
   *  words are fetched while the module loads. */
  static async open(baseUrl, { version, query } = {}) {
    const base = await baseOf(baseUrl);
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    const v = version && base.protocol !== "file:" ? "?v=" + encodeURIComponent(version) : "";
    // Only the entry file, fetched beside the module: each search names the blocks
    // it needs. With the first query known, the blocks of its words, and of their
    // likeliest other readings, are asked for once the start of meta.bin (the
    // header, the block directory, the lexicon) is in, while the module and the
    // rest of meta.bin are still coming: on a slow link that saves the search a
    // round trip or two.
    const metaUrl = new URL("index/meta.bin" + v, base);
    const early = new Map();
    // The early files that have come, by URL: the first search reads them at once.
    const arrived = new Map();
    // The URL of index file `name` of the build the directory names.
    const urlOf = (name) => new URL(`index/${name}?v=${directory.build}`, base);
    // Files `names` while fewer than `limit` are asked for.
    const ask = (names, limit) => {
      for (const name of names) {
        if (early.size >= limit) return;
        const url = urlOf(name);
        if (early.has(url.href)) continue;
        const pending = load(url);
        pending.then((bytes) => arrived.set(url.href, bytes), () => {});
        early.set(url.href, pending);
      }
    };
    const blocks = (numbers) => numbers.filter((b) => b >= 0).map((b) => `vocab-${String(b).padStart(4, "0")}.bin`);
    // The words' own blocks once the directory is in, the rest once the lexicon is:
    // each is read once, however many chunks of meta.bin come before it.
    let directory, words, opened;
    const prefetch = (bytes) => {
      try {
        if (!directory) {
          directory = directoryOf(bytes);
          if (!directory) return false;
          words = wordsOf(query);
          ask(blocks(wordBlocks(words, directory)), Infinity);
        }
        const lexicon = lexiconOf(bytes, directory.end);
        if (!lexicon) return false;
        // The other readings and the guesses each in a task of their own (on a
        // phone each is a long one), and none once the module has started: the
        // search then names what it needs.
        (async () => {
          await pause();
          if (opened || !lexicon.entries) return;
          await pause();
          if (opened) return;
          ask(blocks(readingBlocks(words, directory, lexicon)), EARLY_BLOCKS);
          await pause();
          await guessHits(lexicon, guessNear(lexicon));
        })().catch(() => {});
      } catch {
        // A query that cannot be read as text asks for nothing early; the search
        // says what is wrong with it.
      }
      return true;
    };
    // The incidents of each term of each early block, by term, once it is in
    // (null: not asked for, or not come).
    const incidents = new Map();
    const incidentsIn = async (b) => {
      if (b < 0) return null;
      const href = urlOf(blocks([b])[0]).href;
      if (!incidents.has(b)) incidents.set(b, early.has(href) ? early.get(href).then(blockIncidents, () => null) : null);
      return incidents.get(b);
    };
    const known = async (term) => (await incidentsIn(blockOf(term, directory.blocks)))?.has(term);
    // Word by word, once its early blocks are in: the near-term buckets of a word
    // that is not in its block, that no term at its start (its stem, without its
    // particle) or lexicon entry explains, and (the last word, still being typed)
    // that no term begins. Until the module has started: then the search names them.
    const guessNear = async (lexicon) => {
      let guessed = 0;
      for (const [i, word] of words.entries()) {
        // A word with jamo (conjoining, after NFKC) is read as initials.
        const files = /[0-9\u1100-\u11ff\u3131-\u318e]/.test(word) ? [] : nearFiles(word, lexicon);
        const own = files.length && (await incidentsIn(blockOf(word, directory.blocks)));
        if (!own || own.has(word) || lexicon.entries.some(({ starts }) => starts.some((f) => word.startsWith(f)))) continue;
        const chars = [...word];
        let explained = false;
        for (let to = /[가-힣]/.test(word) ? 2 : 3; to < chars.length && !explained; to++) explained = await known(chars.slice(0, to).join(""));
        if (i === words.length - 1 && !explained) {
          const [from, to] = [word, word + "\u{10FFFF}"].map((t) => blockOf(t, directory.blocks));
          const range = await Promise.all(Array.from({ length: to - from + 1 }, (_, k) => incidentsIn(from + k)));
          explained = range.every(Boolean) && range.some((t) => [...t.keys()].some((term) => term !== word && term.startsWith(word)));
        }
        if (opened) return;
        for (const file of explained ? [] : files) {
          const before = early.size;
          if (guessed < EARLY_NEAR) ask([file], EARLY_BLOCKS);
          guessed += early.size - before;
        }
      }
    };
    // Once meta.bin is all in, and the buckets are asked for: the listings of the
    // likeliest hits, as the early blocks say. A word is read as the longest of
    // its starts that the blocks hold (the word itself, its stem): an incident
    // scores the rarity (BM25's idf) of each word it has. Until the module has
    // started: then the search names the listings of its page itself.
    const guessHits = async (lexicon, near) => {
      await near;
      const { n, chunk } = incidentsOf(await metaBytes, lexicon.end);
      const score = new Float64Array(n);
      let unread = 0;
      for (const word of words) {
        const chars = [...word];
        let docs;
        for (let to = chars.length; !docs && to >= Math.min(/[가-힣]/.test(word) ? 2 : 3, chars.length); to--) {
          const start = chars.slice(0, to).join("");
          docs = (await incidentsIn(blockOf(start, directory.blocks)))?.get(start);
        }
        if (!docs && ++unread > EARLY_UNREAD_WORDS) return;
        for (const d of docs ?? []) score[d] += Math.log(1 + (n - docs.length + 0.5) / (docs.length + 0.5));
      }
      if (opened) return;
      const likely = [...score.keys()].filter((d) => score[d] > 0).sort((a, b) => score[b] - score[a]);
      ask(likely.slice(0, EARLY_LISTINGS).map((d) => `listing-${String(Math.floor(d / chunk)).padStart(4, "0")}.bin`), EARLY_BLOCKS);
    };
    const metaBytes = query && /^https?:$/.test(base.protocol) ? loadStreaming(metaUrl, prefetch) : load(metaUrl);
    const [, meta] = await Promise.all([start(v), metaBytes]);
    // Starting the module, reading meta.bin, making each of its lookup tables,
    // listing the facets and the first search each take a long task on a phone:
    // each gets a task of its own, so that the page answers input between them.
    await pause();
    opened = true;
    const core = new Core(meta);
    const library = new IncidentLibrary(base, core, early);
    library.addArrived(arrived);
    do await pause();
    while (core.makeNextTable());
    await pause();
    library.facets();
    await pause();
    return library;
  }

  /** A library at `base` whose index `core` (the binding) holds; `early` holds the
   *  requests `open` made before the search named them, by URL. */
  constructor(base, core, early = new Map()) {
    super();
    this.base = base;
    this.core = core;
    this.texts = new Map();
    this.inflight = new Map();
    this.early = early;
    this.switching = null;
  }

  /** Adds the files of early requests that have come (`arrived`, bytes by URL),
   *  so that the first search reads them at once: a word their blocks lack then
   *  gets its near-term buckets asked for in the same round as the blocks still
   *  missing, instead of a search later. A file of another build, or one the
   *  module refuses, is left to the search, which names it and says what is
   *  wrong. */
  addArrived(arrived) {
    for (const [href, bytes] of arrived) {
      const name = new URL(href).pathname.split("/").pop();
      if (this.url("index/" + name).href !== href) continue;
      try {
        if (this.add(name, bytes)) this.early.delete(href);
      } catch {
        // Named by the search, which fails on it as on any damaged file.
      }
    }
  }

  /** The URL of a file of the loaded build: `?v=<build>` on the web, so that the
   *  pages' service worker and HTTP caches key it by build. */
  url(path) {
    return new URL(path + (this.base.protocol === "file:" ? "" : "?v=" + this.core.build), this.base);
  }

  /** The bytes of file `path` of the loaded build. */
  file(path, options) {
    return load(this.url(path), options);
  }

  /** The bytes of index file `name` of the loaded build. Searches running at the
   *  same time share one request per file; with `cache`, it is a request of its
   *  own. */
  bytes(name, { cache, priority } = {}) {
    if (cache) return this.file("index/" + name, { cache });
    const url = this.url("index/" + name);
    let pending = this.inflight.get(url.href);
    if (!pending) {
      const early = this.early.get(url.href);
      this.early.delete(url.href);
      // An early request that failed is made again.
      pending = (early?.catch(() => load(url, { priority })) ?? load(url, { priority })).finally(() => this.inflight.delete(url.href));
      this.inflight.set(url.href, pending);
    }
    return pending;
  }

  /** Ranked incidents for `query` (may be empty), with facet counts. The index
   *  files the search needs (vocabulary blocks, near-term buckets for a word the
   *  vocabulary lacks, then the titles and summaries of the hits) are fetched on first use, a few small files each.
   *  With `excerpts` (the default), each hit of a query also gets its excerpts
   *  (see `excerpts`). */
  async search(query, { filters = {}, sort, page = 1, perPage = 10, prefix = false, excerpts = true } = {}) {
    const pairs = Object.entries(filters).flatMap(([facet, slugs]) => [].concat(slugs).map((s) => [facet, s]));
    const result = await this.run({ query, filters: pairs, sort, page, per_page: perPage, prefix });
    if (excerpts) await this.excerpts(result.hits);
    return result;
  }

  /** Runs `request` (what `core.search` takes) to its answer: the index files the
   *  search names in `missing` are fetched, each added as it comes, and the search
   *  is asked again once the files that came together are in. So a file that a
   *  word's block turns out to need (the near-term bucket of a typo) is requested
   *  while the other words' blocks are still coming: over HTTP/1.1 a browser opens
   *  six connections to a site, and a query's dozen blocks come in two waves. With
   *  `untitled`, listing files that cannot be fetched leave their hits without
   *  title and summary instead of failing the search; index files that cannot be
   *  fetched always fail it, since its hits would be wrong. */
  async run(request, { untitled = false } = {}) {
    // Its caller's work before it (a page setting itself up) is a task of its own.
    await pause();
    let result = this.core.search(request);
    // Each file asked for, by name, until the search has read it: its fetch, and
    // once settled, how. And how often each name was asked for.
    const asked = new Map();
    const fetches = new Map();
    while (result.missing) {
      // The provisional page's listings (`likely`) go behind the files the search
      // names, on the connections those leave free.
      const wanted = [...result.missing.map((name) => [name]), ...(result.likely ?? []).map((name) => [name, "low"])];
      for (const [name, priority] of wanted) {
        if (asked.has(name)) continue;
        const count = (fetches.get(name) ?? 0) + 1;
        if (count > MAX_FETCHES) throw new Error(`${name}: still missing after ${count - 1} fetches`);
        fetches.set(name, count);
        const entry = { settled: false, error: null };
        entry.done = this.fetchFile(name, { priority }).then(
          () => { entry.settled = true; },
          (e) => { entry.settled = true; entry.error = e; });
        asked.set(name, entry);
      }
      // Once one file is in, those that come right after it too (no wait once
      // every file asked for is in).
      const coming = [...asked.values()].filter((e) => !e.settled).map((e) => e.done);
      if (coming.length) await Promise.race(coming);
      await Promise.race([Promise.all(coming), new Promise((resolve) => setTimeout(resolve, GATHER_MS))]);
      const failed = [];
      for (const [name, entry] of asked) {
        if (!entry.settled) continue;
        if (entry.error) failed.push([name, entry.error]);
        asked.delete(name);
      }
      result = this.core.search(request);
      // A file asked for while other files were still coming may not be needed
      // once they are in: its failure counts only if the search still names it.
      const needed = failed.find(([name]) => result.missing?.includes(name));
      if (needed) {
        const [, error] = needed;
        if (!untitled || result.incomplete || error instanceof NewBuildError) throw error;
        return result;
      }
    }
    // The caller draws the answer in a task of its own: on a phone the search and
    // the drawing are each a long task.
    await pause();
    return result;
  }

  /** Gives each of `hits` (a search's hits) `sub_results`, the sentence of each
   *  section where its terms occur, with the matches marked
   *  (`{section, anchor, url, text, marks}`, marks as `[start, end]` in UTF-16
   *  code units of `text`), and `excerpt`, the one of them with the most terms,
   *  or null. Reads one small passages file per hit, once. A hit whose file
   *  cannot be read or is malformed keeps `excerpt: null` and no sub-results.
   *  Returns `hits`. */
  async excerpts(hits) {
    await Promise.all(hits.map(async (hit) => {
      hit.excerpt = null;
      hit.sub_results = [];
      if (!hit.terms?.length) return;
      const sections = await this.passages(hit.id).catch(() => null);
      if (!sections) return;
      try {
        const page = this.pageOf(hit.id);
        hit.sub_results = this.core.excerpts(hit.terms, sections).map((e) => ({ ...e, url: page + "#" + e.anchor }));
      } catch {
        // A malformed passages file: this hit keeps its summary, the others their excerpts.
        hit.sub_results = [];
      }
      for (const e of hit.sub_results) if (!hit.excerpt || e.found > hit.excerpt.found) hit.excerpt = e;
    }));
    return hits;
  }

  /** The section texts of incident `id` (`[[name, text]…]`, in reading order). A
   *  file of another build than the index's is refused, like the index's own files. */
  passages(id) {
    let p = this.texts.get(id);
    if (!p) {
      const build = this.core.build;
      const read = (cache) => this.file("passages/" + encodeURIComponent(id) + ".json", { offlineFromCache: true, cache })
        .then((b) => JSON.parse(new TextDecoder().decode(b)));
      // Of another build: once more past the HTTP cache, as for the index files.
      p = read().then((passages) => (passages?.build === build ? passages : read("reload"))).then((passages) => {
        if (passages?.build !== build) throw new Error(`passages/${id}.json: of build ${passages?.build}, not ${build}`);
        return passages.sections;
      });
      // A failed read is tried again next time.
      p.catch(() => this.texts.get(id) === p && this.texts.delete(id));
      this.texts.set(id, p);
    }
    return p;
  }

  /** Fetches the index files a response of `core.search` names in `missing` and
   *  adds each to the index as it comes. A file of another build (the library was
   *  deployed anew since `meta.bin` was read) is fetched once more past the HTTP
   *  cache; if it is still of another build, the library opens that build's
   *  `meta.bin` and searches it from then on (the next `core.search` names what it
   *  needs). */
  async fetchFiles(names) {
    await Promise.all(names.map((n) => this.fetchFile(n)));
  }

  /** `fetchFiles` of one file; `priority` is the request's (see `load`). */
  async fetchFile(name, { priority } = {}) {
    const core = this.core;
    const first = await this.bytes(name, { priority });
    if (core !== this.core || this.add(name, first)) return;
    const again = await this.bytes(name, { cache: "reload" });
    if (core !== this.core || this.add(name, again)) return;
    await this.switchTo(buildOf(again));
  }

  /** Adds index file `name`: true when added, false when it belongs to another
   *  build; damage throws. */
  add(name, bytes) {
    try {
      this.core.addFile(name, bytes);
      return true;
    } catch (e) {
      if (e.name !== "OtherBuildError") throw e;
      return false;
    }
  }

  /** Opens build `build` of the library (its `meta.bin`), once however many
   *  searches ask at the same time, and fires "newbuild". */
  switchTo(build) {
    this.switching ??= (async () => {
      const meta = await load(new URL("index/meta.bin" + (this.base.protocol === "file:" ? "" : "?v=" + build), this.base), { cache: "reload" });
      this.adopt(meta, build);
    })().finally(() => { this.switching = null; });
    return this.switching;
  }

  /** Searches the index of `meta` (the bytes of a `meta.bin` of build `build`)
   *  from now on. */
  adopt(meta, build) {
    const Core = this.core.constructor;
    let core;
    try {
      core = new Core(meta);
    } catch (e) {
      throw new NewBuildError(`${new URL("index/meta.bin", this.base)}: a new build this page cannot read (${e.message}); reload the page`);
    }
    if (core.build !== build) {
      throw new NewBuildError(`${this.base}: the library is being replaced (files of builds ${build} and ${core.build}); reload in a moment`);
    }
    this.core = core;
    this.texts.clear();
    this.dispatchEvent(new Event("newbuild"));
  }

  /** Asks the library's site for its `meta.bin` past every cache; when it names
   *  another build than the one loaded, searches that one from now on (firing
   *  "newbuild") and returns true. */
  async refresh() {
    const meta = await load(new URL("index/meta.bin", this.base), { cache: "no-cache" });
    const found = buildOf(meta);
    if (!found || found === this.core.build) return false;
    this.adopt(meta, found);
    return true;
  }

  /** Every facet with its values, labels, synonyms and counts: made once per build
   *  (on a phone it takes a long task of its own) and shared by every caller. */
  facets() {
    return (this.core.facetList ??= this.core.facets());
  }

  /** One incident in full, from the library's static API. */
  async get(id) {
    const url = new URL(`api/v1/incidents/${encodeURIComponent(id)}.json`, this.base);
    let body;
    try {
      body = await load(url);
    } catch (e) {
      throw new Error(`no incident ${id} (${e.message})`);
    }
    return JSON.parse(new TextDecoder().decode(body)).data;
  }

  /** The page of an incident on the library's site. */
  pageOf(id) {
    return new URL(`incidents/${encodeURIComponent(id)}/`, this.base).href;
  }

  /** Number of incidents. */
  get size() {
    return this.core.size;
  }
}
