// schedlab works offline once loaded: the site is static files only, so this
// service worker keeps a copy of every same-origin file the page fetched and
// serves it when the network does not answer. Network first, so a new build
// is picked up whenever the server is reachable. Scope is this file's folder:
// the site works from any sub-path.
// Matching ignores Vary: the static server varies on Origin, and module
// scripts are fetched with one while the first visit's copies were not.
const CACHE = 'schedlab-v1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// The page sends the files it loaded (on every visit): they are cached (the
// first visit's were fetched before this worker controlled the page), and
// files of older builds are deleted: a built file whose name, less its hash,
// is a file the page loaded under another hash, and any file without a hash
// the page no longer uses. A built file the page did not load this time is
// kept: it loads on demand (the policy guest, fetched only for a run with a
// sched_ext policy; the code editor), and an offline visit may need it.
const HASHED = /-[A-Za-z0-9_-]{8}(\.[a-z]+)$/;
/** A built file's URL without its hash (`…/schedlab_guest.wasm`), or null for a file without one. */
const unhashed = (url) => (HASHED.test(url) ? url.replace(HASHED, '$1') : null);

self.addEventListener('message', (event) => {
  const urls = event.data && event.data.type === 'cache' ? event.data.urls : null;
  if (!Array.isArray(urls)) return;
  const own = urls.filter((u) => typeof u === 'string' && new URL(u).origin === self.location.origin);
  const keep = new Set(own.map((u) => new URL(u).href.split('#')[0]));
  const current = new Set([...keep].map(unhashed).filter((u) => u !== null));
  event.waitUntil(
    caches.open(CACHE).then(async (cache) => {
      await Promise.all(own.map((u) => cache.add(u).catch(() => undefined)));
      for (const req of await cache.keys()) {
        if (keep.has(req.url)) continue;
        const base = unhashed(req.url);
        if (base === null || current.has(base)) await cache.delete(req);
      }
    }),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(req)
      .then((res) => {
        if (res.status === 200) {
          const copy = res.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(req, copy)).catch(() => undefined));
        }
        return res;
      })
      .catch(async () => {
        const hit = await caches.match(req, { ignoreSearch: true, ignoreVary: true });
        if (hit) return hit;
        // A page load at another URL of the site gets the site's page; nothing else is made up.
        if (req.mode === 'navigate') {
          const page = await caches.match(self.registration.scope, { ignoreVary: true });
          if (page) return page;
        }
        return Response.error();
      }),
  );
});
