// schedlab works offline once loaded: the site is static files only, so this
// service worker keeps a copy of every same-origin file the page fetched and
// serves it when the network does not answer. Network first, so a new build
// is picked up whenever the server is reachable. Scope is this file's folder:
// the site works from any sub-path.
// Matching ignores Vary: the static server varies on Origin, and module scripts
// are fetched with one while the first visit's copies were not.
const CACHE = 'schedlab-v1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// The page sends the files it loaded before this worker controlled it
// (the first visit), so they are cached too.
self.addEventListener('message', (event) => {
  const urls = event.data && event.data.type === 'cache' ? event.data.urls : null;
  if (!Array.isArray(urls)) return;
  const own = urls.filter((u) => typeof u === 'string' && new URL(u).origin === self.location.origin);
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(own.map((u) => cache.add(u).catch(() => undefined))).then(() => {
        if (event.source) event.source.postMessage({ type: 'cached', count: own.length });
      }),
    ),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(req)
      .then((res) => {
        if (res.ok) {
          const copy = res.clone();
          caches.open(CACHE).then((cache) => cache.put(req, copy));
        }
        return res;
      })
      .catch(() => caches.match(req, { ignoreSearch: true, ignoreVary: true }).then((hit) => hit || caches.match('./index.html', { ignoreVary: true }) || Response.error())),
  );
});
