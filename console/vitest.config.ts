import { defineConfig } from 'vitest/config';

// Unit tests (x.test.ts, the end-to-end suite's helpers' too) and the end-to-end suite (e2e/*.integration.test.ts:
// real Vigil server, real console under `next start`, real Chromium).
export default defineConfig({
  // Next compiles the app; vitest only needs JSX for component tests.
  esbuild: { jsx: 'automatic' },
  test: {
    include: ['lib/**/*.test.ts', 'components/**/*.test.tsx', 'e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
