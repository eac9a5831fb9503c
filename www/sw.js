// Service worker: keeps the app shell, the wasm module, the index and every page
// the visitor opened, so the library works offline after the first visit. The build
// writes VERSION (a hash of the bundle), SHELL (the pages and assets to keep) and
// INDEX (how many files of each kind the index has: named, not listed, so that this
// file stays small for a library of any size). A new build gets a new cache and the
// old ones are deleted when it activates.
const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const INDEX = __INDEX__;
const CACHE = "incident-library-" + VERSION;
const scoped = (p) => new URL(p, self.registration.scope);
const INDEX_FILES = Object.entries(INDEX).flatMap(([kind, count]) =>
  Array.from({ length: count }, (_, i) => `index/${kind}-${String(i).padStart(4, "0")}.bin?v=${VERSION}`));
const KEPT = new Set([...SHELL, ...INDEX_FILES].map((p) => { const u = scoped(p); return u.pathname + u.search; }));
// A hit's passages (its excerpts' text) are kept once fetched, not precached: one
// file per incident, read only for the hits shown.
const PASSAGES = scoped("passages/").pathname;
const keptOnUse = (url) => url.pathname.startsWith(PASSAGES) && url.search === `?v=${VERSION}`;

// no-store: these fetches stay out of the browser's HTTP cache, so they never wait
// on (or hold up) the page's own requests for the same files.
const keep = (cache, paths) => cache.addAll(paths.map((p) => new Request(scoped(p), { cache: "no-store" })));

// Keeps a response this build fetched, unless a newer build has activated and
// deleted this build's cache meanwhile: a fetch still in flight then must not make
// the old cache again, or two builds' caches would stay side by side.
const keepAnswer = async (key, response) => {
  if (await caches.has(CACHE)) await (await caches.open(CACHE)).put(key, response);
};

self.addEventListener("install", (event) => {
  // The shell first, then the index in batches: a page searches from the network
  // meanwhile, fetching only what its queries need, and the files it fetched are
  // kept as they pass (below). Installed once every file is kept.
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await keep(cache, SHELL);
    for (let i = 0; i < INDEX_FILES.length; i += 32) await keep(cache, INDEX_FILES.slice(i, i + 32));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // One build at a time: the caches of other builds go.
    const keys = await caches.keys();
    await Promise.all(keys.filter((k) => k.startsWith("incident-library-") && k !== CACHE).map((k) => caches.delete(k)));
    // Every open tab is served by this build from now on, also one that loaded
    // before any service worker did; each is told the build, and a tab of another
    // build offers to reload (its search goes on with this build's index).
    await self.clients.claim();
    for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage({ build: VERSION });
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Pages: the network first (fresh content), the cache when offline.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) keepAnswer(url.pathname, response.clone());
          return response;
        })
        .catch(async () => {
          const cache = await caches.open(CACHE);
          return (await cache.match(url.pathname)) || (await cache.match(request, { ignoreSearch: true })) ||
            (await cache.match(new URL("./", self.registration.scope).pathname)) || Response.error();
        }),
    );
    return;
  }
  // Assets and index files carry their build in the URL (?v=…). Those this build
  // keeps are served from its cache, or fetched and kept; anything else goes to the
  // network untouched.
  if (!KEPT.has(url.pathname + url.search) && !keptOnUse(url)) return;
  event.respondWith(
    caches.match(request).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok) keepAnswer(request, response.clone());
      return response;
    })),
  );
});
