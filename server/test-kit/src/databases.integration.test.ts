import { PGlite } from '@electric-sql/pglite';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDrivers, type TestDatabase, type TestDriver } from './databases.js';
import { databaseUrl, migrationsHash, renameIntoPlace, withClient } from './template.js';

/** The tables of a test database and the migrations drizzle recorded in it. */
async function inspect(driver: TestDriver, db: TestDatabase): Promise<{ tables: string[]; migrations: number }> {
  const tablesSql = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1";
  const migrationsSql = "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'drizzle'";
  if (driver === 'pglite') {
    const client = await PGlite.create(join(db.env.VIGIL_DATA_DIR!, 'pgdata'));
    try {
      const tables = (await client.query<{ table_name: string }>(tablesSql)).rows.map((r) => r.table_name);
      const hasJournal = (await client.query<{ n: number }>(migrationsSql)).rows[0]!.n > 0;
      const migrations = hasJournal ? (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')).rows[0]!.n : 0;
      return { tables, migrations };
    } finally {
      await client.close();
    }
  }
  const client = new pg.Client({ connectionString: db.env.DATABASE_URL });
  await client.connect();
  try {
    const tables = (await client.query<{ table_name: string }>(tablesSql)).rows.map((r) => r.table_name);
    const hasJournal = (await client.query<{ n: number }>(migrationsSql)).rows[0]!.n > 0;
    const migrations = hasJournal ? (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')).rows[0]!.n : 0;
    return { tables, migrations };
  } finally {
    await client.end();
  }
}

describe.each(testDrivers())('test databases on %s', (driver) => {
  const made: TestDatabase[] = [];
  afterAll(async () => Promise.all(made.map((db) => db.drop())));

  it('are copies of the migrated template, each its own', async () => {
    const [a, b] = [await createTestDatabase(driver), await createTestDatabase(driver)];
    made.push(a!, b!);
    const seenA = await inspect(driver, a!);
    expect(seenA.tables).toContain('events');
    expect(seenA.migrations).toBeGreaterThan(0);
    expect(await inspect(driver, b!)).toEqual(seenA);
    expect(a!.env).not.toEqual(b!.env);
  });

  it('are empty when asked (tests of the migrations themselves)', async () => {
    const db = await createTestDatabase(driver, { migrated: false });
    made.push(db);
    expect(await inspect(driver, db)).toEqual({ tables: [], migrations: 0 });
  });
});

describe('the template name', () => {
  it('is a hash of the migrations, stable within a run', () => {
    expect(migrationsHash()).toMatch(/^[0-9a-f]{12}$/);
    expect(migrationsHash()).toBe(migrationsHash());
  });
});

// PostgreSQL only: the PGlite template is a directory renamed into place, which the file system does at once.
describe.each(testDrivers().filter((d) => d === 'postgres'))('the template on %s, made by suites at once', () => {
  const admin = process.env.VIGIL_TEST_DATABASE_URL!;
  const names: string[] = [];
  afterAll(async () => {
    await withClient(admin, async (c) => {
      for (const name of names) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  });

  it('lets every suite that lost the race to rename its copy into place go on with the winner', async () => {
    const tag = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    for (let round = 0; round < 5; round++) {
      const name = `vigil_race_${tag}_${round}`;
      const building = [0, 1, 2].map((n) => `${name}_b${n}`);
      names.push(name, ...building);
      await withClient(admin, async (c) => {
        for (const b of building) await c.query(`CREATE DATABASE ${b}`);
      });
      // Each on a connection of its own, as each suite's process has.
      await Promise.all(building.map((b) => renameIntoPlace(admin, b, name)));
      await withClient(databaseUrl(admin, name), (c) => c.query('SELECT 1'));
    }
  });
});
