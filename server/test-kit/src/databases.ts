import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { copyPgliteTemplate, databaseUrl, pgliteEmptyTemplate, postgresTemplate, withClient } from './template.js';

/** The two databases Vigil runs on (the server's `Driver`). */
export type TestDriver = 'pglite' | 'postgres';

/** The driver an environment variable names, undefined when it is unset; any other value is refused. */
function driverNamedBy(variable: string, whenUnset: string): TestDriver | undefined {
  const value = process.env[variable];
  if (value === undefined || value === 'pglite' || value === 'postgres') return value;
  throw new Error(`${variable} is ${JSON.stringify(value)}: pglite, postgres, or unset ${whenUnset}`);
}

const noPostgres = (why: string) => new Error(`${why}VIGIL_TEST_DATABASE_URL is not set: the test command must start PostgreSQL`);

/**
 * The drivers an integration suite of storage runs on. PGlite always; PostgreSQL whenever the test command started a
 * server (VIGIL_TEST_DATABASE_URL). Under CI a missing PostgreSQL is an error, never a silent skip.
 * VIGIL_TEST_DRIVERS (`pglite` or `postgres`) runs one pass only: `make test` runs the server's two passes as two
 * suites side by side (`test:pglite`, `test:postgres`), which together run every storage test on both and every
 * surface test (surfaceDrivers) once.
 */
export function testDrivers(): TestDriver[] {
  const only = driverNamedBy('VIGIL_TEST_DRIVERS', 'for both');
  if (process.env.VIGIL_TEST_DATABASE_URL) return only ? [only] : ['pglite', 'postgres'];
  if (process.env.CI || only === 'postgres') throw noPostgres('');
  return ['pglite'];
}

/**
 * The one driver a test of Vigil's surface runs on: routes, GraphQL, the CLI's commands, the browser library end to
 * end, whose subject is the same code above either driver (the files that run on both, through testDrivers(), are
 * those whose subject is storage). PostgreSQL whenever the run has it, where the same file took less CPU and time
 * than on PGlite (PGlite's WebAssembly engine runs in the test process); PGlite when it does not.
 * VIGIL_TEST_SURFACE_DRIVER (`pglite` or `postgres`) picks one.
 */
export function surfaceDriver(): TestDriver {
  const chosen = driverNamedBy('VIGIL_TEST_SURFACE_DRIVER', 'for the default');
  if (chosen === 'postgres' && !process.env.VIGIL_TEST_DATABASE_URL) throw noPostgres('VIGIL_TEST_SURFACE_DRIVER is postgres but ');
  return chosen ?? (process.env.VIGIL_TEST_DATABASE_URL ? 'postgres' : 'pglite');
}

/**
 * For `describe.each`: the surface driver when this pass runs it (see testDrivers), else none, so of `make test`'s
 * two passes only the surface driver's runs a surface test.
 */
export function surfaceDrivers(): TestDriver[] {
  const driver = surfaceDriver();
  return testDrivers().includes(driver) ? [driver] : [];
}

export interface TestDatabase {
  /** Environment that points Vigil at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** `false`: an empty database (a test of the migrations themselves); else a copy of the migrated template. */
  migrated?: boolean;
}

/**
 * A fresh database for one suite, already migrated (Vigil's own migrate at start finds nothing to do): a temp
 * directory holding a copy of the PGlite template, or a new database on the PostgreSQL server made from its template.
 */
export async function createTestDatabase(driver: TestDriver, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if (driver === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-test-'));
    if (migrated) await copyPgliteTemplate(dir);
    return { env: { VIGIL_DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = process.env.VIGIL_TEST_DATABASE_URL;
  if (!admin) throw new Error('VIGIL_TEST_DATABASE_URL is not set');
  const name = `vigil_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const template = migrated ? ` TEMPLATE ${await postgresTemplate(admin)}` : '';
  await withClient(admin, (c) => c.query(`CREATE DATABASE ${name}${template}`));
  return {
    env: { DATABASE_URL: databaseUrl(admin, name) },
    drop: () => withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/** PGlite itself on an empty database of its own, for tests of code that takes a PGlite; `close` also removes it. */
export async function scratchPglite(): Promise<{ client: PGlite; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-scratch-'));
  cpSync(await pgliteEmptyTemplate(), join(dir, 'pgdata'), { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create(join(dir, 'pgdata'));
  return {
    client,
    close: async () => {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
