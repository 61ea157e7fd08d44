import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '../db/compose.js';
import type { Db } from '../db/handle.js';
import { factKey, FactCache } from '../pipeline/fact-cache.js';
import type { EvaluationInput } from '../pipeline/stage.js';
import { testDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { rowsProcessed } from '../test-support/rows-processed.js';
import { rows } from '../db/rows.js';
import { runRetention } from '../retention/run.js';
import { createRegistryStage } from './stage.js';

const NOW = Date.now();
const stage = createRegistryStage({ multiUserWindowDays: 30 });

/** A device seen with `n` identities over the last hours, as `n` events would have left it. */
async function seedDevice(db: Db, deviceId: string, n: number): Promise<void> {
  await db.execute(
    sql`INSERT INTO device_identities (device_id, identity, first_seen, last_seen)
        SELECT ${deviceId}, 'user-' || i, to_timestamp(${NOW / 1000}::float8 - i * 10), to_timestamp(${NOW / 1000}::float8 - i * 10)
        FROM generate_series(1, ${n}) AS i`,
  );
}

/** One event of `deviceId` under a new identity, as the stage reads it. */
const batchOf = (deviceId: string) =>
  [
    { eventId: 'evt_1', keyId: 'key_1', handprintId: 'hp_1', event: { deviceId, identity: 'newcomer', occurredAt: new Date(NOW) } },
  ] as unknown as EvaluationInput[];

describe.each(testDrivers())('device identity pairs on %s', (driver) => {
  let server: TestVigil;
  let db: Db;
  beforeAll(async () => {
    server = await startTestVigil(driver);
    db = server.database.db;
    await seedDevice(db, 'kiosk-100', 100);
    await seedDevice(db, 'kiosk-3000', 3000);
    // The devices of a store around them, a pair or two each.
    await db.execute(
      sql`INSERT INTO device_identities (device_id, identity, first_seen, last_seen)
          SELECT 'phone-' || (i / 2), 'user-' || i, now(), now() FROM generate_series(1, 20000) AS i`,
    );
  });
  afterAll(async () => server?.close());

  it('hands the server at most 65 pairs of a device, however many it has', async () => {
    const [read] = (await readAll(db, [stage.read!(batchOf('kiosk-3000'))!])) as [[unknown, [string, string, number][] | null, unknown]];
    const pairs = read[1]!;
    expect(pairs).toHaveLength(65);
    // The most recent ones: what counts towards multi_user.
    expect(pairs.map(([, identity]) => identity)).toContain('user-1');
  });

  it('reads as many rows for an event of a device seen with 3,000 identities as for one seen with 100, after the daily run', async () => {
    // Without statistics the planner may walk the device's pairs in a bitmap scan, and only what it hands the server
    // is bounded (above). PostgreSQL's autovacuum gathers them; on PGlite, which has none, the daily run does.
    await runRetention(db, { retentionDays: 0 });
    const read = async (deviceId: string) => rowsProcessed(db, stage.read!(batchOf(deviceId))!);
    expect(await read('kiosk-3000')).toBe(await read('kiosk-100'));
    // What the cache's check of a device reads, when the cache holds one of its pairs (another process added the rest).
    const check = async (deviceId: string) => {
      const cache = new FactCache(10);
      cache.set(factKey.registration(deviceId), null);
      cache.set(factKey.identities(deviceId), [['user-1', NOW - 10_000]]);
      return rowsProcessed(db, stage.cached!(batchOf(deviceId), cache)!.stale!());
    };
    expect(await check('kiosk-3000')).toBe(await check('kiosk-100'));
  });

  it('still tells a shared device, and the first identity of one never shared', async () => {
    const send = async (deviceId: string, identity: string) => {
      const res = await server.post('/events', { event: 'login', identity, properties: { device_id: deviceId } });
      expect(res.status).toBe(200);
      return res.body.current_tags as string[];
    };
    expect(await send('kiosk-3000', 'newcomer')).toContain('multi_user');
    // An identity far below the 65 most recent: written as if new, the stored row keeps its first sighting.
    expect(await send('kiosk-3000', 'user-2999')).toContain('multi_user');
    const [pair] = await rows<{ first: string; last: string }>(
      db,
      sql`SELECT (extract(epoch from first_seen) * 1000)::float8 AS first, (extract(epoch from last_seen) * 1000)::float8 AS last
          FROM device_identities WHERE device_id = 'kiosk-3000' AND identity = 'user-2999'`,
    );
    expect(Number(pair!.first)).toBe(NOW - 29_990_000);
    expect(Number(pair!.last)).toBeGreaterThan(NOW - 1000);
    expect(await send('lone-device', 'solo')).not.toContain('multi_user');
    expect(await send('lone-device', 'solo')).not.toContain('multi_user');
  });
});
