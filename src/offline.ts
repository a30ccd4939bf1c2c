// Offline support: registers public/sw.js (production builds only; the dev
// server's modules must not be cached) and hands it the files this first
// visit loaded, so the next visit works without a network.
export function registerOffline(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('./sw.js')
      .then(() => navigator.serviceWorker.ready)
      .then((reg) => {
        const urls = [location.href.split('#')[0], ...performance.getEntriesByType('resource').map((e) => e.name)];
        reg.active?.postMessage({ type: 'cache', urls });
      })
      .catch(() => {
        // No offline copy (e.g. served over plain http from another host); the lab still works online.
      });
  });
}
