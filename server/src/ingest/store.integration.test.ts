import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceIdentities, devices, events, intelLinks } from '@vigil/drizzle/schema';
import { KeyStore } from '../auth/key-store.js';
import { loadConfig } from '../config/load.js';
import type { RiskOptions } from '../risk/evaluate.js';
import type { InsightStage } from '../pipeline/stage.js';
import { createStages } from '../vigil.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { normalizeEvent } from './normalize.js';
import { ItemFailure } from './group-commit.js';
import { storeBatch as storeOutcomes, type PendingEvent, type StoredOutcome } from './store.js';

/** Every item's outcome; an item that alone failed fails the test with its error. */
async function storeBatch(...args: Parameters<typeof storeOutcomes>): Promise<StoredOutcome[]> {
  return (await storeOutcomes(...args)).map((o) => {
    if (o instanceof ItemFailure) throw o.error;
    return o;
  });
}

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

  const pendingEvent = (
    eventId: string,
    deviceId = 'dev-race',
    identity = 'racer@example.com',
    extra: { handprintId?: string; properties?: Record<string, unknown> } = {},
  ): PendingEvent => ({
    keyId,
    handprintId: extra.handprintId ?? 'hp_store_test',
    event: normalizeEvent(
      { event: 'login', identity, properties: { event_id: eventId, device_id: deviceId, ...extra.properties } },
      { ip: '198.51.100.7', userAgent: 'test', acceptLanguage: undefined, idempotencyKey: undefined, keyId, keyKind: 'write' },
    ),
  });

  const stored = async (eventId: string) => (await t.database.db.select({ n: count() }).from(events).where(eq(events.idempotencyKey, eventId)))[0]!.n;

  /**
   * Runs two batches at once such that both have read before either writes: on PostgreSQL their write statements
   * wait behind a lock on events until both are waiting (PGlite interleaves the statements of concurrent batches).
   */
  async function racing<T>(run: () => Promise<T>): Promise<T> {
    if (driver !== 'postgres') return run();
    const blocker = new pg.Client({ connectionString: testDb.env.DATABASE_URL });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE events IN SHARE MODE');
      const result = run();
      for (let i = 0; i < 500; i++) {
        const { rows } = await blocker.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'events'::regclass`);
        if (rows[0].n >= 2) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await blocker.query('COMMIT');
      return await result;
    } finally {
      await blocker.end();
    }
  }

  it('answers a retry that raced its original in another batch with the original answer, and counts it once', async () => {
    const outcomes = await racing(() =>
      Promise.all([storeBatch(t.database.db, [pendingEvent('race-1')], risk), storeBatch(t.database.db, [pendingEvent('race-1')], risk)]),
    );
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

  it('answers a batch where a replayed event is the only one on its device', async () => {
    // The batch's read covers the replay's device too; evaluating the new events must not trip over it.
    await storeBatch(t.database.db, [pendingEvent('solo-1', 'dev-solo', 'solo@example.com')], risk);
    const outcomes = await storeBatch(
      t.database.db,
      [pendingEvent('solo-1', 'dev-solo', 'solo@example.com'), pendingEvent('solo-2', 'dev-other', 'other@example.com')],
      risk,
    );
    expect(outcomes.map((o) => o.replayed)).toEqual([true, false]);
    expect(outcomes[1]!.insights.device_id).toBe('dev-other');
  });

  it('merges a new device that another batch inserted since its read: earliest first sighting, latest handprint', async () => {
    const now = Date.now();
    const early = pendingEvent('twice-1', 'dev-twice', 'twice@example.com', {
      handprintId: 'hp_early',
      properties: { timestamp: new Date(now - 60_000).toISOString(), device_model: 'Pixel 7' },
    });
    const late = pendingEvent('twice-2', 'dev-twice', 'twice@example.com', { handprintId: 'hp_late', properties: { device_model: 'Pixel 8' } });
    // The early batch writes first (lock waiters are served in order), so the late one meets its row at the insert.
    const outcomes = await racing(() => Promise.all([storeBatch(t.database.db, [early], risk), storeBatch(t.database.db, [late], risk)]));
    expect(outcomes.map(([o]) => o!.replayed)).toEqual([false, false]);
    const [row] = await t.database.db.select().from(devices).where(eq(devices.deviceId, 'dev-twice'));
    expect(row!.firstSeen.getTime()).toBe(early.event.occurredAt.getTime());
    expect(row!.lastSeen.getTime()).toBe(late.event.occurredAt.getTime());
    expect(row!.handprintId).toBe('hp_late');
  });
});
