// What the engine worker gives up once its wasm module is in: the network,
// other threads and contexts, storage. A share link can carry a sched_ext
// policy, someone else's code, and `Function('return this')()` hands it the
// worker's real global object whatever names the runtime hides; so the names
// below are taken from the global itself. The site's Content-Security-Policy
// (src/csp.ts) refuses the same routes at the browser's level, where a name
// cannot be taken away (`import()` is syntax); each holds without the other.
//
// A name is deleted wherever it lives on the global's prototype chain
// (WebIDL puts a global's members on the object itself, EventTarget's on its
// prototype; browsers differ), then defined on the global as a constant
// `undefined` that can be neither written, redefined nor deleted: code that
// runs later cannot put the original back, because no reference to it is left.
// The worker's channel to the page is taken from the global the same way, at
// the worker's start (worker-channel.ts, with `takeAway` below).

/** The global's names a policy could reach the outside with. */
export const OUTSIDE = [
  // The network.
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'WebTransport',
  'EventSource',
  'importScripts',
  // Fonts load from URLs (`new FontFace(name, 'url(…)').load()`).
  'FontFace',
  'FontFaceSet',
  'fonts',
  // A nested worker runs code with its own global, out of reach of all this.
  'Worker',
  'SharedWorker',
  // Other contexts of the site: the page, the offline copy's service worker.
  'BroadcastChannel',
  // Storage, the offline copy's included (its cache is what the page is served from offline).
  'indexedDB',
  'caches',
  'webkitRequestFileSystem',
  'webkitRequestFileSystemSync',
  'webkitResolveLocalFileSystemURL',
  'webkitResolveLocalFileSystemSyncURL',
] as const;

/** The worker's navigator's names, taken away the same way. */
export const OUTSIDE_NAVIGATOR = ['sendBeacon', 'serviceWorker', 'storage', 'storageBuckets'] as const;

/** Takes `names` away from `target` and its prototypes; returns those still reachable afterwards. */
export function takeAway(target: object, names: readonly string[]): string[] {
  const scope = target as Record<string, unknown>;
  for (const name of names) {
    for (let o: object | null = target; o !== null; o = Object.getPrototypeOf(o) as object | null) {
      // Only own properties: a prototype's getter must not run (it may answer only for its own instances).
      if (Object.prototype.hasOwnProperty.call(o, name)) Reflect.deleteProperty(o, name);
    }
    Reflect.defineProperty(target, name, { value: undefined, writable: false, enumerable: false, configurable: false });
  }
  return names.filter((name) => {
    const d = Object.getOwnPropertyDescriptor(target, name);
    return d === undefined || d.configurable !== false || d.writable !== false || scope[name] !== undefined;
  });
}

/**
 * Takes the outside away from the worker's global `scope` (and its navigator); throws, naming them, if any of the
 * names is still there, so that a browser that holds one fast leaves the engine unloaded rather than open.
 */
export function lockDown(scope: object): void {
  const kept = takeAway(scope, OUTSIDE);
  const nav = (scope as { navigator?: unknown }).navigator;
  if (typeof nav === 'object' && nav !== null)
    kept.push(...takeAway(nav, OUTSIDE_NAVIGATOR).map((n) => `navigator.${n}`));
  if (kept.length > 0) throw new Error(`the engine worker could not give up ${kept.join(', ')}`);
}
