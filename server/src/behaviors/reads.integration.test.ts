import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import type { DatabaseHandle, Queryable } from '../db/handle.js';
import { column } from '../db/rows.js';
import { openDatabase } from '../db/open.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { behaviorConfigSchema } from './config.js';
import { compileBehavior } from './definition.js';
import { countEvents } from './engine.js';
import type { EventFacts } from './fields.js';

const behaviors = [
  { name: 'c', group_by: 'identity', operation: 'count', window_duration_seconds: 60 },
  { name: 's', group_by: 'identity', operation: 'sum', field: 'properties.amount', window_duration_seconds: 30 },
  { name: 'u', group_by: 'identity', operation: 'unique', field: 'properties.item', window_duration_seconds: 90, return_values: true },
].map((b) => compileBehavior(behaviorConfigSchema.parse(b)));

const DAY = 86_400_000;
const T = Date.UTC(2026, 2, 1, 12, 0, 0, 123);
/** Only this much before T can be in any window read here (the longest window, twice, for the late event). */
const REACH = 2 * Math.max(...behaviors.map((b) => b.windowMs));

/** The i-th of `total` events one group had over the day before T: its time, amount and item. */
function stored(i: number, total: number) {
  return { at: T - DAY + Math.floor((i * DAY) / total) - 1000, amount: i % 10, item: `v${i % 37}` };
}

/** The stored events within reach of the windows (the rest of the day no window can see). */
function storedInReach(total: number) {
  const first = Math.max(1, Math.floor(((DAY + 1000 - REACH) * total) / DAY) - 1);
  const out = [];
  for (let i = first; i <= total; i++) if (stored(i, total).at >= T - REACH) out.push(stored(i, total));
  return { first, events: out };
}

/**
 * A group's history as ingestion would have stored it (points, and buckets summed from them), written by the
 * database itself from generate_series: a million events go in as fast as a thousand. Without `spans`, the
 * buckets lack their first and last event times, as buckets written before they were kept do.
 */
async function seed(db: Queryable, identity: string, total: number, spans: boolean): Promise<void> {
  const { first } = storedInReach(total);
  await db.execute(
    sql`INSERT INTO behavior_points (behavior_id, group_key, at, value, item)
        SELECT b.id, ${identity}, e.at,
               CASE WHEN b.op = 'sum' THEN (e.i % 10)::float8 END, CASE WHEN b.op = 'unique' THEN 'v' || (e.i % 37) END
        FROM unnest(${column(
          behaviors.map((b) => b.id),
          'text',
        )}, ${column(
          behaviors.map((b) => b.operation),
          'text',
        )}) AS b(id, op)
        CROSS JOIN (SELECT i, ${T - DAY - 1000}::int8 + floor(i::numeric * ${DAY} / ${total})::int8 AS at
                    FROM generate_series(${first}::int8, ${total}::int8) AS i) AS e
        WHERE e.at >= ${T - REACH}`,
  );
  await db.execute(
    sql`INSERT INTO behavior_buckets (behavior_id, group_key, bucket, count, sum, items, first_at, last_at)
        SELECT p.behavior_id, p.group_key, floor(p.at::float8 / b.ms)::int8, count(*), coalesce(sum(p.value), 0),
               CASE WHEN b.op = 'unique' THEN array_agg(DISTINCT p.item) END,
               CASE WHEN ${spans} THEN min(p.at) END, CASE WHEN ${spans} THEN max(p.at) END
        FROM behavior_points p
        JOIN unnest(${column(
          behaviors.map((b) => b.id),
          'text',
        )}, ${column(
          behaviors.map((b) => b.operation),
          'text',
        )},
                    ${column(
                      behaviors.map((b) => b.bucketMs),
                      'int8',
                    )}) AS b(id, op, ms) ON b.id = p.behavior_id
        WHERE p.group_key = ${identity}
        GROUP BY p.behavior_id, p.group_key, b.op, floor(p.at::float8 / b.ms)::int8`,
  );
}

/** A method of `target`, bound to it, or the property as it is. */
function bound(target: object, prop: string | symbol): unknown {
  const value: unknown = Reflect.get(target, prop);
  return typeof value === 'function' ? value.bind(target) : value;
}

/** `target`'s method `method`, adding the rows of each result it returns to the tally. */
function countingRows(target: object, method: string | symbol, tally: { rows: number }): unknown {
  const run = bound(target, method);
  if (typeof run !== 'function') return run;
  return async (...args: unknown[]) => {
    const result = (await run(...args)) as { rows?: unknown[] };
    tally.rows += result.rows?.length ?? 0;
    return result;
  };
}

/**
 * The query layer with a tally of every row any statement returns to the server: drizzle runs every statement,
 * prepared or not, through its session's prepareQuery, so that is where the rows are counted: the prepared query's
 * execute, or its client's `prepared` (named statements on PGlite, see preparedRows).
 */
function counting(tx: Queryable, tally: { rows: number }): Queryable {
  type Prepared = { execute(...args: unknown[]): Promise<{ rows?: unknown[] }>; client?: object };
  const session = tx._.session;
  const countedSession = new Proxy(session, {
    get(target, prop) {
      if (prop !== 'prepareQuery') return bound(target, prop);
      return (...args: unknown[]) => {
        const prepared = (target.prepareQuery as (...a: unknown[]) => Prepared)(...args);
        return new Proxy(prepared, {
          get(p, name) {
            if (name === 'execute') return countingRows(p, name, tally);
            if (name === 'client' && p.client) {
              return new Proxy(p.client, { get: (c, m) => (m === 'prepared' ? countingRows(c, m, tally) : bound(c, m)) });
            }
            return bound(p, name);
          },
        });
      };
    },
  });
  const internals = new Proxy(tx._, { get: (target, prop) => (prop === 'session' ? countedSession : bound(target, prop)) });
  return new Proxy(tx, {
    get(target, prop, receiver) {
      if (prop === '_') return internals;
      if (prop === 'session') return countedSession;
      // execute() runs on this.session: called on the proxy, it finds the counted one.
      if (prop === 'execute') return (query: Parameters<Queryable['execute']>[0]) => target.execute.call(receiver, query);
      return bound(target, prop);
    },
  });
}

/** The latest time up to `before` whose window (lo = t - window + 1) starts where one of the behavior's buckets does. */
function startingOnBucket(b: (typeof behaviors)[number], before: number): number {
  return Math.floor((before - b.windowMs + 1) / b.bucketMs) * b.bucketMs + b.windowMs - 1;
}

function facts(identity: string, at: number, amount: number, item: string): EventFacts {
  return { name: 'transfer', identity, deviceId: null, handprintId: 'hp_x', ip: null, sessionId: null, properties: { amount, item }, at, receivedAt: at };
}

/** The values by brute force over the seeded events and the ones sent since. */
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

  /** Rows read for a live event and then a late one, and their answers checked against brute force. */
  async function readsWith(total: number, spans: boolean): Promise<number[]> {
    const identity = `${driver}-${total}-${spans}`;
    await seed(database.db, identity, total, spans);
    const all = storedInReach(total).events;
    const tallies: number[] = [];
    // A live event, then a late one whose last bucket holds stored events after it (the unique tail case), then for
    // each behavior a late one whose window starts on a bucket boundary: its first bucket is then the body's, not a
    // head to add to it.
    for (const at of [T, T - 20_000 + 7, ...behaviors.map((b) => startingOnBucket(b, T - 40_000))]) {
      const sent = { at, amount: 3, item: 'new' };
      all.push(sent);
      const tally = { rows: 0 };
      const [got] = await database.db.transaction((tx) => countEvents(counting(tx, tally), behaviors, [facts(identity, at, sent.amount, sent.item)], true));
      expect(got).toEqual(expected(all, at));
      tallies.push(tally.rows);
    }
    return tallies;
  }

  it('reads as many rows per event with a million stored events as with a thousand', async () => {
    const small = await readsWith(1_000, true);
    const large = await readsWith(1_000_000, true);
    // Buckets without their event times (written before they were kept) read their points and stay exact.
    expect(await readsWith(1_000_000, false)).toEqual(large);
    // Sanity: the large store really fills every window (a 60 s window holds ~700 of its events).
    expect(storedInReach(1_000_000).events.filter((e) => e.at > T - 60_000).length).toBeGreaterThan(600);
    // The tally sees the reads: at least one row per behavior for each event.
    expect(Math.min(...small)).toBeGreaterThanOrEqual(behaviors.length);
    expect(large).toEqual(small);
  }, 120_000);
});
