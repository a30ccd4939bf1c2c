// The offline copy's cache (public/sw.js): at each visit the page reports the
// files it loaded; the service worker caches them and deletes older builds'
// files, but keeps a built file the page loads only on demand (the policy
// guest, the code editor), so that an offline visit that needs it finds it.
// The worker's script runs here over an in-memory cache.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SITE = 'https://lab.example';
const at = (path: string) => `${SITE}${path}`;

/** The service worker over a cache holding `cached`; returns the cache's URLs after the page reports `loaded`. */
async function afterVisit(cached: string[], loaded: string[]): Promise<string[]> {
  const entries = new Set(cached);
  const cache = {
    add: (u: string) => {
      entries.add(u);
      return Promise.resolve();
    },
    keys: () => Promise.resolve([...entries].map((url) => ({ url }))),
    delete: (req: { url: string }) => Promise.resolve(entries.delete(req.url)),
  };
  const handlers: Record<string, (e: unknown) => void> = {};
  const self = {
    location: new URL(SITE),
    addEventListener: (type: string, f: (e: unknown) => void) => (handlers[type] = f),
  };
  const caches = { open: () => Promise.resolve(cache) };
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'public', 'sw.js'), 'utf8');
  const worker = new Function('self', 'caches', text) as (s: typeof self, c: typeof caches) => void;
  worker(self, caches);
  let done: Promise<unknown> = Promise.resolve();
  handlers.message({ data: { type: 'cache', urls: loaded }, waitUntil: (p: Promise<unknown>) => (done = p) });
  await done;
  return [...entries].sort();
}

describe('the offline copy', () => {
  it('keeps an on-demand file the visit did not load, and drops older builds of what it did', async () => {
    const cached = [
      at('/'),
      at('/assets/index-OLDOLDOL.js'),
      at('/assets/schedlab_core_bg-OLDOLDOL.wasm'),
      at('/assets/schedlab_guest-GUESTGST.wasm'),
      at('/assets/sim-worker-OLDOLDOL.js'),
      at('/old-page.html'),
    ];
    const loaded = [
      at('/'),
      at('/assets/index-NEWNEWNE.js'),
      at('/assets/schedlab_core_bg-NEWNEWNE.wasm'),
      at('/assets/sim-worker-NEWNEWNE.js'),
    ];
    expect(await afterVisit(cached, loaded)).toEqual([...loaded, at('/assets/schedlab_guest-GUESTGST.wasm')].sort());
  });

  it('drops the guest of an older build once a visit loads the new one', async () => {
    const after = await afterVisit(
      [at('/'), at('/assets/schedlab_guest-GUESTOLD.wasm')],
      [at('/'), at('/assets/schedlab_guest-GUESTNEW.wasm')],
    );
    expect(after).toEqual([at('/'), at('/assets/schedlab_guest-GUESTNEW.wasm')]);
  });
});
