import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '@vigil/drizzle';
import { loadConfig } from '../config/load.js';
import type { DatabaseHandle, Driver } from '../db/handle.js';
import { openDatabase } from '../db/open.js';
import { rows } from '../db/rows.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { EVENTS, listPartitions, partitionAt, partitionStart } from './partitions.js';

/** The migration history up to 0004: the store of a live install from before partitioning. */
function historyBeforePartitions(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-migrations-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= 4);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const MARCH_2024 = Date.UTC(2024, 2, 10, 12);

const OLD_ROWS = `
  INSERT INTO api_keys (id, kind, name, hash, display_prefix) VALUES ('key_m', 'write', 'm', 'hash_m', 'vigil_wk_m');
  INSERT INTO events (id, key_id, idempotency_key, name, handprint_id, properties, risk_score, response, occurred_at, received_at) VALUES
    ('evt_now', 'key_m', 'k-now', 'login', 'hp_1', '{}', 0, '{"event_id":"evt_now"}', now(), now()),
    ('evt_old', 'key_m', 'k-old', 'login', 'hp_1', '{}', 0, '{"event_id":"evt_old"}', to_timestamp(${MARCH_2024 / 1000}), now()),
    ('evt_nokey', 'key_m', NULL, 'login', 'hp_1', '{}', 0, '{"event_id":"evt_nokey"}', to_timestamp(${MARCH_2024 / 1000 + 86400}), now());
  INSERT INTO behavior_points (behavior_id, group_key, at, value, item) VALUES
    ('bhv_a', 'g', ${MARCH_2024}, 1, NULL), ('bhv_a', 'g', (extract(epoch from now()) * 1000)::int8, 2, 'x');`;

/** Migrates to 0004 with the driver's own migrator, writes rows as that version did, and closes. */
async function liveInstallBefore(driver: Driver, env: Record<string, string>): Promise<void> {
  const folder = historyBeforePartitions();
  try {
    if (driver === 'pglite') {
      const { PGlite } = await import('@electric-sql/pglite');
      const { drizzle } = await import('drizzle-orm/pglite');
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      const client = await PGlite.create(join(env.VIGIL_DATA_DIR!, 'pgdata'));
      await migrate(drizzle(client), { migrationsFolder: folder });
      await client.exec(OLD_ROWS);
      await client.close();
    } else {
      const { drizzle } = await import('drizzle-orm/node-postgres');
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      await migrate(drizzle(client), { migrationsFolder: folder });
      await client.query(OLD_ROWS);
      await client.end();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe.each(testDrivers())('migration 0005 of a live install on %s', (driver) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  beforeAll(async () => {
    testDb = await createTestDatabase(driver, { migrated: false });
    await liveInstallBefore(driver, testDb.env);
    database = await openDatabase(loadConfig({ VIGIL_LOG_LEVEL: 'silent', ...testDb.env }).env, { migrate: true, purpose: 'test' });
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  const count = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(database.db, query))[0]!.n);

  it('carries every event into the partition of its month, none into the default', async () => {
    expect(await count(sql`SELECT count(*)::int AS n FROM events`)).toBe(3);
    expect(await count(sql`SELECT count(*)::int AS n FROM events_p202403`)).toBe(2);
    const current = partitionAt(EVENTS, partitionStart(EVENTS, Date.now())).name;
    expect(await count(sql`SELECT count(*)::int AS n FROM ${sql.identifier(current)} WHERE id = 'evt_now'`)).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM events_default`)).toBe(0);
    // Months with rows and the ones ahead; none for the empty months in between.
    const names = (await listPartitions(database.db, EVENTS)).map((p) => p.name);
    expect(names[0]).toBe('events_p202403');
    expect(names).not.toContain('events_p202404');
  });

  it('carries the idempotency keys, each naming its event, so a retry of an old event still finds its answer', async () => {
    const keys = await rows<{ key: string; response: { event_id: string } }>(
      database.db,
      sql`SELECT k.idempotency_key AS key, e.response FROM event_keys k
          JOIN events e ON e.id = k.event_id AND e.occurred_at = k.occurred_at ORDER BY 1`,
    );
    expect(keys).toEqual([
      { key: 'k-now', response: { event_id: 'evt_now' } },
      { key: 'k-old', response: { event_id: 'evt_old' } },
    ]);
    await expect(
      database.db.execute(sql`INSERT INTO event_keys (key_id, idempotency_key, event_id, occurred_at) VALUES ('key_m', 'k-old', 'evt_2', now())`),
    ).rejects.toThrow();
  });

  it('carries behavior points into their days', async () => {
    expect(await count(sql`SELECT count(*)::int AS n FROM behavior_points`)).toBe(2);
    expect(await count(sql`SELECT count(*)::int AS n FROM behavior_points_p20240310`)).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM behavior_points_default`)).toBe(0);
  });
});
