import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// base './' makes the built site work from any sub-path (relative asset URLs).
export default defineConfig({
  base: './',
  plugins: [react()],
  // The manifest tells the bench which chunks load only on demand (the policy editor) and which the page loads.
  build: { manifest: true },
  // The engine worker (src/engine/sim-worker.ts) imports the wasm module as an ES module.
  worker: { format: 'es' },
  server: { fs: { allow: ['.'] } },
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
