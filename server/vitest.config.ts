import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql has both index.mjs and index.js; Node (type-graphql, Apollo) loads index.js, so tests must too, or
  // two copies of graphql meet and refuse each other's types.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file gets its own process: PGlite instances and child servers never share state.
    pool: 'forks',
    reporters: ['default'],
    // The migrated template databases, made once before any file asks for a test database.
    globalSetup: ['@vigil/test-kit/global-setup'],
  },
});
