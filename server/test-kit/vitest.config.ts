import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // An empty PGlite (initdb) takes most of a minute on a loaded 2-core machine.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    globalSetup: ['src/global-setup.ts'],
  },
});
