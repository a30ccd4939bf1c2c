// The app's Content-Security-Policy, defined once. vite.config.ts sends it as
// a header from the dev and preview servers (the browser tests serve the build
// through Vite's preview, so they see what users see) and writes the page's
// variant is written in index.html itself as a meta tag (checked against this
// file at every build and dev start, so the two cannot drift apart).
//
// Why: a share link can carry a sched_ext policy, someone else's JavaScript.
// It runs inside the policy guest (src/engine/guest.ts), a wasm module that
// imports nothing, so it reaches nothing by construction; this policy is the
// page's defence in depth around it: no script, connection, font or worker
// from elsewhere, no text evaluated as code anywhere (no 'unsafe-eval': since
// the guest, nothing of the site needs it), and no blob: or data: worker.
//
// Two variants, because a meta tag does not reach workers: a worker created
// from a same-origin URL takes the policy of its own response's header. The
// header (every response: the page, the workers' scripts) and the built
// page's meta tag are the same policy.
// The dev server also allows inline script: @vitejs/plugin-react injects an
// inline React Refresh preamble into index.html in dev only.

type Directives = Record<string, readonly string[]>;

/** What the page and every worker share. */
const BASE: Directives = {
  'default-src': ["'self'"],
  // WebAssembly.instantiate needs 'wasm-unsafe-eval' (the page's and the workers' engine).
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  // Style attributes and <style> elements set by the views and by CodeMirror, when it cannot adopt a sheet.
  'style-src': ["'self'", "'unsafe-inline'"],
  // Exports draw canvases and SVG through data: and blob: URLs.
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  // The engine worker fetches its wasm module; the offline copy (public/sw.js) fetches the site's own files.
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
};

function serialize(d: Directives): string {
  return Object.entries(d)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

function withScript(extra: readonly string[]): Directives {
  return { ...BASE, 'script-src': [...BASE['script-src'], ...extra] };
}

/** The header of every response of the built site (the page and its workers' scripts). */
export const CSP_HEADER = serialize(BASE);

/** The built page's meta tag: the same policy. */
export const CSP_PAGE = serialize(BASE);

/** The dev server's page meta: the page's, plus the React Refresh preamble (inline) that dev injects. */
export const CSP_DEV_PAGE = serialize(withScript(["'unsafe-inline'"]));

/** The dev server's header: as the built site's, plus the React Refresh preamble (inline) that dev injects. */
export const CSP_DEV_HEADER = serialize(withScript(["'unsafe-inline'"]));
