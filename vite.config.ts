import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// base './' makes the built site work from any sub-path (relative asset URLs).
export default defineConfig({
  base: './',
  plugins: [react()],
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
