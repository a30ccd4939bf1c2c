import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { CSP_DEV_HEADER, CSP_HEADER, CSP_PAGE } from './src/csp.ts';

// The built page carries its Content-Security-Policy as a meta tag too, so that a host that sends no header still
// keeps the page's scripts, connections, fonts and workers to the site's own (src/csp.ts says why; a meta tag does
// not reach the workers, hence the header below as well).
const cspMeta: Plugin = {
  name: 'schedlab-csp-meta',
  apply: 'build',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_PAGE }, injectTo: 'head-prepend' },
  ],
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
