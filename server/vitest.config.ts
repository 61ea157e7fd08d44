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
    // Two files at a time although the machine has two cores (vitest's default would be one): a file spends most of
    // its time waiting on PGlite's disk, PostgreSQL and child servers, so a PGlite file and a PostgreSQL one overlap.
    // Measured on 6 integration files, both drivers, a shared and loaded machine: 128 s one at a time, 119 s two,
    // 107 s three. Two, because `make test` runs other suites beside this one.
    maxWorkers: 2,
    minWorkers: 1,
    reporters: ['default'],
    // The migrated template databases, made once before any file asks for a test database.
    globalSetup: ['@vigil/test-kit/global-setup'],
  },
});
