import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import type { DatabaseHandle, Queryable } from '../db/handle.js';
import { openDatabase } from '../db/open.js';
import { column, rows } from '../db/rows.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { rowsProcessedBy } from '../test-support/rows-processed.js';
import { behaviorConfigSchema } from './config.js';
import { compileBehavior } from './definition.js';
import { countEvents } from './engine.js';
import type { EventFacts } from './fields.js';
import { windowRead } from './store.js';
import { windowCuts } from './window.js';

const behaviors = [
  { name: 'c', group_by: 'identity', operation: 'count', window_duration_seconds: 60 },
  { name: 's', group_by: 'identity', operation: 'sum', field: 'properties.amount', window_duration_seconds: 30 },
  { name: 'u', group_by: 'identity', operation: 'unique', field: 'properties.item', window_duration_seconds: 90, return_values: true },
].map((b) => compileBehavior(behaviorConfigSchema.parse(b)));

const DAY = 86_400_000;
const T = Date.UTC(2026, 2, 1, 12, 0, 0, 123);
/** Only this much before T can be in any window read here (the longest window, twice, for the late events). */
const REACH = 2 * Math.max(...behaviors.map((b) => b.windowMs));
/**
 * Every store's group has the same recent traffic, an event every 250 ms over the reach (a 60 s window holds 240),
 * and differs only in its history before that, which no window read here can see.
 */
const RECENT_EVERY = 250;
const RECENT = REACH / RECENT_EVERY;

/** The j-th of the recent events: its time, amount and item. */
const recent = (j: number) => ({ at: T - REACH + 1 + j * RECENT_EVERY, amount: j % 10, item: `v${j % 37}` });

/** The days a group's stored events span: retention keeps the points and buckets of the last one (and the reach). */
const HISTORY_DAYS = 30;

/**
 * A group's `total` stored events, the recent ones and the rest spread over the 30 days before, as ingestion and the
 * daily retention run leave them in the tables a window read reads: the points, and buckets summed from them, of the
 * recent events and of the older ones of the last day (the windows here are minutes long: retention keeps their
 * points and buckets for the longest window and a day, see retention/run.ts). A million events leave 33,309 older
 * ones there, a thousand leave 9. Written by the database itself from generate_series. Without `times`, the buckets
 * lack their first and last event times, as buckets written before they were kept do.
 */
async function seed(db: Queryable, identity: string, total: number, times: boolean): Promise<void> {
  const older = Math.round((total - RECENT) / HISTORY_DAYS);
  const ids = column(
    behaviors.map((b) => b.id),
    'text',
  );
  const ops = column(
    behaviors.map((b) => b.operation),
    'text',
  );
  await db.execute(
    sql`INSERT INTO behavior_points (behavior_id, group_key, at, value, item)
        SELECT b.id, ${identity}, e.at,
               CASE WHEN b.op = 'sum' THEN (e.j % 10)::float8 END, CASE WHEN b.op = 'unique' THEN 'v' || (e.j % 37) END
        FROM unnest(${ids}, ${ops}) AS b(id, op)
        CROSS JOIN (SELECT j, ${T - REACH + 1}::int8 + j * ${RECENT_EVERY} AS at FROM generate_series(0, ${RECENT - 1}) AS j
                    UNION ALL
                    SELECT j, ${T - REACH}::int8 - 1 - floor(j::numeric * ${DAY} / ${older})::int8 FROM generate_series(0, ${older - 1}) AS j) AS e`,
  );
  await db.execute(
    sql`INSERT INTO behavior_buckets (behavior_id, group_key, bucket, count, sum, items, first_at, last_at)
        SELECT p.behavior_id, p.group_key, floor(p.at::float8 / b.ms)::int8, count(*), coalesce(sum(p.value), 0),
               CASE WHEN b.op = 'unique' THEN array_agg(DISTINCT p.item) END,
               CASE WHEN ${times} THEN min(p.at) END, CASE WHEN ${times} THEN max(p.at) END
        FROM behavior_points p
        JOIN unnest(${ids}, ${ops}, ${column(
          behaviors.map((b) => b.bucketMs),
          'int8',
        )}) AS b(id, op, ms) ON b.id = p.behavior_id
        WHERE p.group_key = ${identity}
        GROUP BY p.behavior_id, p.group_key, b.op, floor(p.at::float8 / b.ms)::int8`,
  );
}

/** The latest time up to `before` whose window (lo = t - window + 1) starts where one of the behavior's buckets does. */
function startingOnBucket(b: (typeof behaviors)[number], before: number): number {
  return Math.floor((before - b.windowMs + 1) / b.bucketMs) * b.bucketMs + b.windowMs - 1;
}

/**
 * The events each store is sent, in order: a live one, then a late one whose last bucket holds stored events after it
 * (the unique tail case), then for each behavior a late one whose window starts on a bucket boundary (its first bucket
 * is then the body's, not a head to add to it).
 */
const SENT = [T, T - 20_000 + 7, ...behaviors.map((b) => startingOnBucket(b, T - 40_000))];

function facts(identity: string, at: number, amount: number, item: string): EventFacts {
  return { name: 'transfer', identity, deviceId: null, handprintId: 'hp_x', ip: null, sessionId: null, properties: { amount, item }, at, receivedAt: at };
}

/** The values by brute force over the group's events that any window here can hold (the recent ones and those sent). */
function expected(all: { at: number; amount: number; item: string }[], t: number) {
  const out: Record<string, unknown> = {};
  for (const b of behaviors) {
    const inWindow = all.filter((e) => e.at > t - b.windowMs && e.at <= t);
    const items = [...new Set(inWindow.map((e) => e.item))].sort();
    out[b.name] = {
      count: b.operation === 'count' ? inWindow.length : null,
      sum: b.operation === 'sum' ? inWindow.reduce((a, e) => a + e.amount, 0) : null,
      unique: b.operation === 'unique' ? items.length : null,
      values: b.returnValues ? items : null,
    };
  }
  return out;
}

describe.each(testDrivers())('behavior window reads on %s', (driver) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    database = await openDatabase(loadConfig({ ...testDb.env }).env, { migrate: true, purpose: 'test' });
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  /**
   * For each event of SENT, in order: the rows the database processed reading its windows (every row of every plan
   * node, from EXPLAIN ANALYZE: what a read that scanned more of the history would show, where the one row it returns
   * per window would not), then the event counted, its answer checked against brute force.
   */
  async function readsOf(identity: string): Promise<number[]> {
    const all = Array.from({ length: RECENT }, (_, j) => recent(j));
    const processed: number[] = [];
    for (const at of SENT) {
      const windows = behaviors.map((b) => ({ behaviorId: b.id, groupKey: identity, unique: b.operation === 'unique', ...windowCuts(b, at) }));
      processed.push(await rowsProcessedBy(database.db, windowRead(windows)));
      const sent = { at, amount: 3, item: 'new' };
      all.push(sent);
      const [got] = await database.db.transaction((tx) => countEvents(tx, behaviors, [facts(identity, at, sent.amount, sent.item)], true));
      expect(got).toEqual(expected(all, at));
    }
    return processed;
  }

  it('processes as many rows per event with a million stored events as with a thousand', async () => {
    for (const times of [true, false]) {
      await seed(database.db, `small-${times}`, 1_000, times);
      await seed(database.db, `large-${times}`, 1_000_000, times);
    }
    // Both stores are read with the same statistics (autovacuum would take them at any moment), so with the same plan.
    if (driver === 'postgres') await database.db.execute(sql`ANALYZE behavior_points, behavior_buckets`);
    const [stored] = await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM behavior_points WHERE group_key = 'large-true'`);
    expect(stored!.n).toBe((RECENT + 33_309) * behaviors.length);

    const small = await readsOf('small-true');
    const large = await readsOf('large-true');
    expect(large).toEqual(small);
    // Buckets without their event times (written before they were kept) read their first bucket's points, and no more.
    expect(await readsOf('large-false')).toEqual(await readsOf('small-false'));
    // The counts see the reads: at least one row per behavior, and far fewer than the large group's 102,189 points.
    expect(Math.min(...small)).toBeGreaterThanOrEqual(behaviors.length);
    expect(Math.max(...large)).toBeLessThan(10_000);
  }, 300_000);
});
