// Service worker: keeps the app shell, the wasm module, the index and every page
// the visitor opened, so the library works offline after the first visit. The build
// writes VERSION (a hash of the bundle) and SHELL; a new build gets a new cache and
// the old ones are deleted when it activates.
const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const CACHE = "incident-library-" + VERSION;
const SHELL_URLS = new Set(SHELL.map((p) => { const u = new URL(p, self.registration.scope); return u.pathname + u.search; }));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      // no-store: these fetches stay out of the browser's HTTP cache, so they never
      // wait on (or hold up) the page's own requests for the same files.
      .then((cache) => cache.addAll(SHELL.map((p) => new Request(new URL(p, self.registration.scope), { cache: "no-store" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("incident-library-") && k !== CACHE).map((k) => caches.delete(k))))
      // No clients.claim(): a page that loaded without a service worker keeps
      // loading from the network; the next page load is served by this one.
  );
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
          if (response.ok) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
          }
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
  // keeps are served from its cache; anything else goes to the network untouched.
  if (!SHELL_URLS.has(url.pathname + url.search)) return;
  event.respondWith(
    caches.match(request).then((hit) => hit || fetch(request)),
  );
});
