import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file gets its own process: PGlite instances and child servers never share state.
    pool: 'forks',
    reporters: ['default'],
  },
});
