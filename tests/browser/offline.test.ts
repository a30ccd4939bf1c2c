// Offline (issue 7): once loaded, the built site works without a network —
// the service worker serves the files the first visit fetched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, openLab, settled, shots, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

describe('offline', () => {
  it('reloads and runs with the network gone', async () => {
    const { page } = lab;
    // The service worker has cached the page, its script, the engine worker's script and the wasm engine.
    const cached = await settled(
      () =>
        page.evaluate(async () => {
          // Offline, the reload is answered only by a worker that controls the page and holds the page itself:
          // the cache fills file by file, so the scripts can be there before the document is.
          if (navigator.serviceWorker.controller === null) return [] as string[];
          const keys = await caches.keys();
          if (keys.length === 0) return [] as string[];
          const cache = await caches.open(keys[0]);
          const urls = (await cache.keys()).map((r) => r.url);
          return urls.includes(location.href.split('#')[0]) ? urls : [];
        }),
      (urls) =>
        urls.some((u) => u.endsWith('.wasm')) &&
        urls.some((u) => u.endsWith('.js')) &&
        urls.some((u) => u.includes('sim-worker')),
      15000,
    );
    expect(cached.some((u) => u.endsWith('.wasm'))).toBe(true);
    expect(cached.some((u) => u.includes('sim-worker'))).toBe(true);
    // Nothing is served any more, and the page is offline: only the worker's cache can answer.
    await lab.stopServer();
    await page.context().setOffline(true);
    try {
      await page.reload();
      await page.getByTestId('btn-step').waitFor({ timeout: 15000 });
      await page.getByTestId('btn-step').click();
      const events = await settled(
        async () => (await hook<{ events: number }>(page, 'view')).events,
        (n) => n > 0,
      );
      expect(events).toBeGreaterThan(0);
      await page.screenshot({ path: join(shots, 'offline.png') });
      // The page really came from the worker.
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    } finally {
      await page.context().setOffline(false);
    }
  });
});
