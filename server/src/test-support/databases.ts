import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Driver } from '../db/handle.js';

/**
 * The drivers an integration suite runs on. PGlite always; PostgreSQL whenever the test command started a server
 * (VIGIL_TEST_DATABASE_URL). Under CI a missing PostgreSQL is an error, never a silent skip.
 */
export function testDrivers(): Driver[] {
  if (process.env.VIGIL_TEST_DATABASE_URL) return ['pglite', 'postgres'];
  if (process.env.CI) throw new Error('VIGIL_TEST_DATABASE_URL is not set: the test command must start PostgreSQL');
  return ['pglite'];
}

export interface TestDatabase {
  /** Environment that points Vigil at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh, empty database for one suite: a temp directory for PGlite, a new database on the PostgreSQL server. */
export async function createTestDatabase(driver: Driver): Promise<TestDatabase> {
  if (driver === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-test-'));
    return { env: { VIGIL_DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = process.env.VIGIL_TEST_DATABASE_URL;
  if (!admin) throw new Error('VIGIL_TEST_DATABASE_URL is not set');
  const name = `vigil_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
