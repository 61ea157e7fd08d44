import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { surfaceDriver, type TestDriver, testDrivers } from '@vigil/test-kit';
import { defineConfig } from 'vitest/config';
import { TEST_NODE_FLAGS } from './src/test-support/node-flags.js';

/*
 * `make test` runs the PGlite and PostgreSQL passes as two suites side by side (VIGIL_TEST_DRIVERS, see testDrivers
 * in the test kit). A file's tests take their drivers from testDrivers() (storage: every driver of the pass),
 * surfaceDrivers() (Vigil's surface: the one surface driver, PostgreSQL when the run has it) or name one; a file with
 * no such call (unit tests) runs in the PGlite pass. Each pass runs the files with a test for its driver; without
 * VIGIL_TEST_DRIVERS, every file runs.
 */
function passFiles(driver: TestDriver): string[] {
  const src = fileURLToPath(new URL('src', import.meta.url));
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
  const onSurfaceDriver = surfaceDriver() === driver;
  return files
    .filter((f) => {
      const text = readFileSync(join(src, f), 'utf8');
      const storage = text.includes('testDrivers(');
      const surface = text.includes('surfaceDrivers(');
      if (storage || (surface && onSurfaceDriver)) return true;
      // The PGlite pass also runs every file that names no pass (unit tests and fixed-driver tests).
      return driver === 'pglite' && !surface;
    })
    .map((f) => `src/${f}`);
}

const workers = Number(process.env.VIGIL_TEST_WORKERS) || 2;

export default defineConfig({
  // graphql has both index.mjs and index.js; Node (type-graphql, Apollo) loads index.js, so tests must too, or
  // two copies of graphql meet and refuse each other's types.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: process.env.VIGIL_TEST_DRIVERS ? passFiles(testDrivers()[0]) : ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Workers run PGlite as the CLI and server children of the tests do (see TEST_NODE_FLAGS for why).
    poolOptions: { forks: { execArgv: TEST_NODE_FLAGS } },
    // A worker process runs file after file with its modules kept loaded. A fresh process per file cost each
    // integration file ~4.5 s of CPU before its first test (loading Fastify, Apollo, type-graphql and the server,
    // building the GraphQL schema, compiling PGlite's WebAssembly), about half of the suite's CPU. Every file still makes its own databases and
    // servers and closes them; no test changes process-wide state other files see (the one that must see the
    // production password cost loads its own copy of that module).
    isolate: false,
    // Two files at a time although the machine has two cores (vitest's default would be one): a file spends most of
    // its time waiting on PGlite's disk, PostgreSQL and child servers, so a PGlite file and a PostgreSQL one overlap.
    // Measured on 6 integration files, both drivers, a shared and loaded machine: 128 s one at a time, 119 s two,
    // 107 s three. Two, because `make test` runs other suites beside this one; VIGIL_TEST_WORKERS sets it (suites.sh
    // gives the PGlite pass, the longest suite, three).
    maxWorkers: workers,
    // As many from start to end: a pool that shrinks terminates idle workers, and that termination raced the end of
    // a run as an unhandled "Terminating worker thread" rejection (vitest#8564), failing a run whose tests passed.
    minWorkers: workers,
    reporters: ['default'],
    // The migrated template databases, made once before any file asks for a test database.
    globalSetup: ['@vigil/test-kit/global-setup'],
  },
});
