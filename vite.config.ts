import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { CSP_DEV_HEADER, CSP_DEV_PAGE, CSP_HEADER, CSP_PAGE } from './src/csp.ts';

// index.html carries the page's Content-Security-Policy as a meta tag, so that a host that sends no header still
// keeps the page's scripts, connections, fonts and workers to the site's own (src/csp.ts says why; a meta tag does
// not reach the workers, hence the headers below as well). The tag must be src/csp.ts's CSP_PAGE, or the build and
// the dev server refuse to start; the dev server loosens it for the inline React Refresh preamble it injects.
const CSP_META = /<meta http-equiv="Content-Security-Policy" content="([^"]*)" \/>/;
const cspMeta: Plugin = {
  name: 'schedlab-csp-meta',
  transformIndexHtml: {
    order: 'pre',
    handler(html, ctx) {
      const found = CSP_META.exec(html);
      if (found?.[1] !== CSP_PAGE)
        throw new Error("index.html: its Content-Security-Policy meta tag must be src/csp.ts's CSP_PAGE");
      if (!ctx.server) return html;
      return html.replace(CSP_META, `<meta http-equiv="Content-Security-Policy" content="${CSP_DEV_PAGE}" />`);
    },
  },
};

// base './' makes the built site work from any sub-path (relative asset URLs).
export default defineConfig({
  base: './',
  plugins: [react(), cspMeta],
  // The manifest tells the bench which chunks load only on demand (the policy editor) and which the page loads.
  build: { manifest: true },
  // The engine worker (src/sim-worker.ts) imports the wasm module as an ES module.
  worker: { format: 'es' },
  // Every response carries the policy: a worker takes the header of its own script's response, not the page's.
  server: { fs: { allow: ['.'] }, headers: { 'Content-Security-Policy': CSP_DEV_HEADER } },
  preview: { headers: { 'Content-Security-Policy': CSP_HEADER } },
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
