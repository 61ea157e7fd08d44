import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdentities, events, intelLinks } from '@vigil/drizzle/schema';
import { KeyStore } from '../auth/key-store.js';
import { loadConfig } from '../config/load.js';
import type { RiskOptions } from '../risk/evaluate.js';
import type { InsightStage } from '../risk/stage.js';
import { createStages } from '../risk/stages.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { normalizeEvent } from './normalize.js';
import { storeBatch, type PendingEvent } from './store.js';

describe.each(testDrivers())('storing batches on %s', (driver) => {
  let testDb: TestDatabase;
  let t: TestVigil;
  let stages: InsightStage[];
  let risk: RiskOptions;
  let keyId: string;

  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    t = await startTestVigil(driver, {}, testDb);
    const config = loadConfig({ VIGIL_LOG_LEVEL: 'silent', ...testDb.env });
    stages = await createStages(config, t.database);
    risk = { tagWeights: config.tagWeights, stages };
    keyId = (await new KeyStore(t.database).create('write', 'store test')).id;
  });

  afterAll(async () => {
    await Promise.all(stages.map((s) => s.close?.()));
    await t.close();
    await testDb.drop();
  });

  const pendingEvent = (eventId: string): PendingEvent => ({
    keyId,
    handprintId: 'hp_store_test',
    event: normalizeEvent(
      { event: 'login', identity: 'racer@example.com', properties: { event_id: eventId, device_id: 'dev-race' } },
      { ip: '198.51.100.7', userAgent: 'test', acceptLanguage: undefined, idempotencyKey: undefined, keyId, keyKind: 'write' },
    ),
  });

  const stored = async (eventId: string) =>
    (await t.database.db.select({ n: count() }).from(events).where(eq(events.idempotencyKey, eventId)))[0]!.n;

  it('answers a retry that raced its original in another batch with the original answer, and counts it once', async () => {
    const run = () => Promise.all([storeBatch(t.database.db, [pendingEvent('race-1')], risk), storeBatch(t.database.db, [pendingEvent('race-1')], risk)]);
    let outcomes: Awaited<ReturnType<typeof run>>;
    if (driver === 'postgres') {
      // Hold both writes until both batches have read: neither sees the other's event, so the second must lose at
      // the unique index and answer what the first stored.
      const blocker = new pg.Client({ connectionString: testDb.env.DATABASE_URL });
      await blocker.connect();
      try {
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE events IN SHARE MODE');
        const racing = run();
        for (let i = 0; i < 500; i++) {
          const { rows } = await blocker.query(
            `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'events'::regclass`,
          );
          if (rows[0].n >= 2) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        await blocker.query('COMMIT');
        outcomes = await racing;
      } finally {
        await blocker.end();
      }
    } else {
      outcomes = await run();
    }
    const [[first], [second]] = outcomes;
    expect(first!.insights.event_id).toBe(second!.insights.event_id);
    expect([first!.replayed, second!.replayed].sort()).toEqual([false, true]);
    expect(await stored('race-1')).toBe(1);
    const pairs = await t.database.db.select({ n: count() }).from(deviceIdentities).where(eq(deviceIdentities.deviceId, 'dev-race'));
    expect(pairs[0]!.n).toBe(1);
    const links = await t.database.db.select({ n: count() }).from(intelLinks).where(eq(intelLinks.value, 'racer@example.com'));
    expect(links[0]!.n).toBe(1);
  });

  it('answers a batch of new and replayed events in order, replaying the stored answer', async () => {
    const [original] = await storeBatch(t.database.db, [pendingEvent('mixed-1')], risk);
    const outcomes = await storeBatch(t.database.db, [pendingEvent('mixed-2'), pendingEvent('mixed-1'), pendingEvent('mixed-2')], risk);
    expect(outcomes.map((o) => o.replayed)).toEqual([false, true, true]);
    expect(outcomes[1]!.insights).toEqual(original!.insights);
    expect(outcomes[2]!.insights.event_id).toBe(outcomes[0]!.insights.event_id);
    expect(await stored('mixed-2')).toBe(1);
  });
});
