import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { EVENTS, partitionAt, partitionStart } from '../retention/partitions.js';
import { runRetention } from '../retention/run.js';
import type { StorageStats } from '../retention/stats.js';
import { assertBuilt, runCli } from '../test-support/cli.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';

beforeAll(() => assertBuilt());

const TWO_YEARS_AGO = Date.now() - 730 * 86_400_000;

describe.each(testDrivers())('vigil stats and vigil retention run on %s', (driver) => {
  let db: TestDatabase;
  const month = partitionAt(EVENTS, partitionStart(EVENTS, TWO_YEARS_AGO));
  beforeAll(async () => {
    db = await createTestDatabase(driver);
    // A store that has run for two years: that month's partition, with events in it.
    const database = await openDatabase(loadConfig({ VIGIL_LOG_LEVEL: 'silent', ...db.env }).env, { migrate: true, purpose: 'test' });
    try {
      await runRetention(database.db, { retentionDays: 0, now: TWO_YEARS_AGO });
      await database.db.execute(sql`INSERT INTO api_keys (id, kind, name, hash, display_prefix) VALUES ('key_s', 'write', 's', 'hash_s', 'p')`);
      await database.db.execute(sql`INSERT INTO events (id, key_id, name, handprint_id, properties, risk_score, response, occurred_at, received_at)
        SELECT 'evt_' || i, 'key_s', 'login', 'hp_1', jsonb_build_object('pad', repeat('x', 500)), 0, '{}',
               ${new Date(month.start).toISOString()}::timestamptz + i * interval '1 minute', now()
        FROM generate_series(1, 300) AS i`);
    } finally {
      await database.close();
    }
  });
  afterAll(async () => db?.drop());

  const stats = async (): Promise<StorageStats> => {
    const res = await runCli(['stats', '--json'], db.env);
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout);
  };

  it('prints rows and bytes per table, partitions summed per parent, and bytes per event', async () => {
    const res = await runCli(['stats'], db.env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^events\s+300\s+\d+\s+[\d.]+ MB\s+\d+$/m);
    expect(res.stdout).toMatch(/bytes per event: \d+ \(whole store\), \d+ \(events table\) over 300 events/);
    const json = await stats();
    const events = json.tables.find((t) => t.table === 'events')!;
    // This month, the next two, the default, and the three made two years ago.
    expect(events.partitions).toBe(7);
    expect(json.tables.find((t) => t.table === 'event_keys')!.partitions).toBe(0);
    expect(json.tables.some((t) => t.table.startsWith('events_p'))).toBe(false);
  });

  it('drops what the policy no longer keeps, says so, and the space comes back', async () => {
    const before = (await stats()).tables.find((t) => t.table === 'events')!;
    const res = await runCli(['retention', 'run'], { ...db.env, VIGIL_RETENTION_DAYS: '365' });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`dropped partition ${month.name} (`);
    const after = (await stats()).tables.find((t) => t.table === 'events')!;
    expect(after.rows).toBe(before.rows - 300);
    // This month, the next two and the default; and any made ahead by this run, where the month has turned since the
    // test database's template was migrated (a run across midnight at a month's end).
    const madeAhead = (res.stdout.match(new RegExp(`^created partition ${EVENTS.table}_`, 'gm')) ?? []).length;
    expect(after.partitions).toBe(4 + madeAhead);
    expect(after.bytes).toBeLessThan(before.bytes);
    const again = await runCli(['retention', 'run', '--json'], { ...db.env, VIGIL_RETENTION_DAYS: '365' });
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: true, dropped: [] });
    expect((await runCli(['retention', 'nope'], db.env)).code).toBe(2);
  });
});
