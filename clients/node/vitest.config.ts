import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Unit tests run against the shared policy's source (no build needed); the package test runs the built one.
  resolve: { alias: { '@vigil/client-core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) } },
  test: {
    // Integration files each start their own Vigil server; two at once suits a 2-core machine.
    maxWorkers: 2,
    minWorkers: 1,
    // A worker runs file after file with its modules kept loaded, instead of a fresh module graph (vitest, the
    // library, the test kit) per file: the suite's CPU went from 38 to 26 s. No file changes process-wide state the
    // next one sees: no mocks, globals or process listeners, env stubs undone after each test, and each integration
    // file stops the servers it starts.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.integration.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
