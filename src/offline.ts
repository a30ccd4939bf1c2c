// Offline support: registers public/sw.js (production builds only; the dev
// server's modules must not be cached) and hands it the files this first
// visit loaded — the page's and the engine worker's (its script and the wasm
// module it fetched) — so the next visit works without a network.
export function registerOffline(workerFiles: () => Promise<string[]>): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('./sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then(async (reg) => {
        const urls = [
          location.href.split('#')[0],
          ...performance.getEntriesByType('resource').map((e) => e.name),
          ...(await workerFiles()),
        ];
        reg.active?.postMessage({ type: 'cache', urls });
      })
      .catch(() => {
        // No offline copy (e.g. served over plain http from another host); the lab still works online.
      });
  });
}
