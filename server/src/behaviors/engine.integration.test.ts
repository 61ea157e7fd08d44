import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { rows } from '../db/rows.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import type { DatabaseHandle } from '../db/handle.js';
import { openDatabase } from '../db/open.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { behaviorConfigSchema } from './config.js';
import { compileBehavior } from './definition.js';
import { countEvents } from './engine.js';
import type { EventFacts } from './fields.js';
import { EXACT_UNIQUE_BOUND, windowCuts } from './window.js';
import { HLL_STANDARD_ERROR } from './hll.js';

const behaviors = [
  { name: 'n', group_by: 'identity', operation: 'count', window_duration_seconds: 10 },
  { name: 's', group_by: 'identity', operation: 'sum', field: 'properties.amount', window_duration_seconds: 7 },
  { name: 'u', group_by: 'identity', operation: 'unique', field: 'properties.item', window_duration_seconds: 13, return_values: true },
  {
    name: 'f',
    group_by: 'properties.account',
    operation: 'count',
    window_duration_seconds: 5,
    filters: ['transfer', { field: 'properties.amount', operator: 'gt', value: 10 }],
  },
].map((b) => compileBehavior(behaviorConfigSchema.parse(b)));

const BASE = Date.UTC(2026, 0, 1);

function facts(partial: Partial<EventFacts> & { at: number }): EventFacts {
  return {
    name: 'transfer',
    identity: null,
    deviceId: null,
    handprintId: 'hp_x',
    ip: null,
    sessionId: null,
    properties: {},
    receivedAt: partial.at,
    ...partial,
  };
}

/** The definition, by brute force over every earlier event (in processing order) and this one. */
function expected(all: EventFacts[], j: number) {
  const e = all[j]!;
  const out: Record<string, unknown> = {};
  for (const b of behaviors) {
    if (!b.matches(e) || b.groupKey(e) === null) continue;
    const inWindow = all.slice(0, j + 1).filter((x) => b.matches(x) && b.groupKey(x) === b.groupKey(e) && x.at > e.at - b.windowMs && x.at <= e.at);
    const items = [...new Set(inWindow.map((x) => b.item(x)).filter((v): v is string => v !== null))].sort();
    out[b.name] = {
      count: b.operation === 'count' ? inWindow.length : null,
      sum: b.operation === 'sum' ? inWindow.reduce((a, x) => a + (b.value(x) ?? 0), 0) : null,
      unique: b.operation === 'unique' ? items.length : null,
      values: b.returnValues ? items : null,
    };
  }
  return out;
}

describe.each(testDrivers())('behaviors engine on %s', (driver) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    database = await openDatabase(loadConfig({ ...testDb.env }).env, { migrate: true, purpose: 'test' });
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const run = (batch: EventFacts[]) => database.db.transaction((tx) => countEvents(tx, behaviors, batch, true));

  /**
   * Random events over `range` ms, sent in random batches, each answer checked against brute force. Two users and
   * random times make events late at random: a late one lands in buckets already counted, and in spans already
   * built from them.
   */
  async function bruteForce(range: number, events: { min: number; max: number }, numRuns: number): Promise<void> {
    const event = fc.record({
      user: fc.constantFrom('a', 'b'),
      at: fc.integer({ min: 0, max: range }),
      amount: fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constant('x'), fc.constant(undefined), fc.double({ min: -5, max: 5, noNaN: true })),
      // Values that array literals and JSON quote or escape: every one must come back from the buckets as it went in.
      item: fc.option(fc.constantFrom('v0', 'v1', 'a,b', '{x}', '"q"', 'back\\slash', 'NULL', 'ünï ☃'), { nil: undefined }),
      name: fc.constantFrom('transfer', 'login'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { minLength: events.min, maxLength: events.max }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1 }),
        async (input, sizes) => {
          runId++;
          const all = input.map((e) =>
            facts({
              name: e.name,
              identity: `${driver}-${runId}-${e.user}`,
              at: BASE + e.at,
              properties: { amount: e.amount, item: e.item, account: `${driver}-${runId}-acct` },
            }),
          );
          let done = 0;
          for (let s = 0; done < all.length; s++) {
            const size = sizes[s % sizes.length]!;
            const batch = all.slice(done, done + size);
            const got = await run(batch);
            batch.forEach((_, i) => {
              const want = expected(all, done + i) as Record<string, { sum: number | null }>;
              const have = got[i]! as Record<string, { sum: number | null }>;
              for (const [name, value] of Object.entries(want)) {
                if (value.sum !== null) {
                  expect(have[name]!.sum).toBeCloseTo(value.sum, 6);
                  have[name] = { ...have[name]!, sum: value.sum };
                }
              }
              expect(have).toEqual(want);
            });
            done += batch.length;
          }
        },
      ),
      { numRuns },
    );
  }
  let runId = 0;
  const spansBuilt = async () => (await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM behavior_spans`))[0]!.n;

  it('is exact against brute force for any order, batching and lateness', async () => {
    await bruteForce(40_000, { min: 1, max: 60 }, driver === 'pglite' ? 40 : 25);
  });

  it('is exact against brute force when windows read built spans, and late events land in them', async () => {
    const before = await spansBuilt();
    // About ten events a second a user: most of a window's 8-bucket spans hold three buckets or more, so they are
    // built, read whole, and (events arriving in random order) written into again.
    await bruteForce(12_000, { min: 80, max: 120 }, driver === 'pglite' ? 30 : 20);
    expect(await spansBuilt()).toBeGreaterThan(before);
  });

  it('leaves out an event exactly window seconds old and keeps one a millisecond younger', async () => {
    const id = `${driver}-edge`;
    await run([facts({ identity: id, at: BASE })]);
    const [younger] = await run([facts({ identity: id, at: BASE + 9_999 })]);
    expect(younger!.n!.count).toBe(2);
    const [exact] = await run([facts({ identity: id, at: BASE + 10_000 })]);
    expect(exact!.n!.count).toBe(2); // BASE is out; BASE+9999 and itself are in
  });

  it('counts a late event at its own time, and later events see it', async () => {
    const id = `${driver}-late`;
    await run([facts({ identity: id, at: BASE + 100_000 })]);
    const [late] = await run([facts({ identity: id, at: BASE + 50_000 })]);
    expect(late!.n!.count).toBe(1); // the later event is outside the late event's window
    const [next] = await run([facts({ identity: id, at: BASE + 59_000 })]);
    expect(next!.n!.count).toBe(2);
  });

  it('answers later events in a bucket from the summary the first one left, until a late event or a backfill clears it', async () => {
    const id = `${driver}-summary`;
    const n = behaviors.find((b) => b.name === 'n')!;
    const start = BASE + 300_000;
    const sent = Array.from({ length: 18 }, (_, i) => start + i * 500);
    const send = async (at: number) => {
      sent.push(at);
      const [got] = await run([facts({ identity: id, at })]);
      return got!.n!.count;
    };
    const inWindow = (t: number) => sent.filter((at) => at > t - n.windowMs && at <= t).length;
    // Events every 500 ms, then one at the start of the bucket whose window's first bucket holds the second of them.
    await run(sent.map((at) => facts({ identity: id, at })));
    const bucket = Math.floor((start + 500) / n.bucketMs) + 32;
    const t = bucket * n.bucketMs;
    expect(await send(t)).toBe(inWindow(t));
    const summary = async () =>
      (
        await rows<{ body_from: number | null; body_count: number | null }>(
          database.db,
          sql`SELECT body_from::float8 AS body_from, body_count::float8 AS body_count FROM behavior_buckets
              WHERE behavior_id = ${n.id} AND group_key = ${id} AND bucket = ${bucket}`,
        )
      )[0]!;
    // The body before the bucket, without its first bucket (read apart: the window's start splits it).
    const { bodyFrom } = windowCuts(n, t);
    const kept = await summary();
    expect(kept.body_from).toBe(bodyFrom);
    expect(kept.body_count).toBe(sent.filter((at) => Math.floor(at / n.bucketMs) >= bodyFrom && Math.floor(at / n.bucketMs) < bucket).length);
    // The next event in the bucket sums the summary, not the buckets: a summary made wrong on purpose shows it.
    await database.db.execute(
      sql`UPDATE behavior_buckets SET body_count = body_count + 1000 WHERE behavior_id = ${n.id} AND group_key = ${id} AND bucket = ${bucket}`,
    );
    expect(await send(t + 1)).toBe(inWindow(t + 1) + 1000);
    // At the bucket's end the window starts a bucket later (10 s is not 32 whole buckets): that body is not the
    // summary's, and is read.
    const end = t + n.bucketMs - 1;
    expect(windowCuts(n, end).bodyFrom).not.toBe(bodyFrom);
    expect(await send(end)).toBe(inWindow(end));
    // A late event in the body clears the summary in the same write: the next event reads the buckets again.
    await database.db.execute(
      sql`UPDATE behavior_buckets SET body_count = body_count + 1000 WHERE behavior_id = ${n.id} AND group_key = ${id} AND bucket = ${bucket}`,
    );
    expect(await send(start + 4_000 + 1)).toBe(inWindow(start + 4_001));
    expect((await summary()).body_from).toBeNull();
    expect(await send(end)).toBe(inWindow(end));
    // So does a backfill's write (it reads no window): an older event it counts is in the next answer.
    expect((await summary()).body_from).not.toBeNull();
    sent.push(start + 3_001);
    await database.db.transaction((tx) => countEvents(tx, behaviors, [facts({ identity: id, at: start + 3_001 })], false));
    expect(await send(end)).toBe(inWindow(end));
    // The first event of the next bucket reads the body, this bucket in it: this bucket's summary, which only a late
    // event would read, goes (a group keeps the newest, and those of late events' buckets under built spans).
    expect(await send(end + 1)).toBe(inWindow(end + 1));
    const summarized = await rows<{ bucket: number }>(
      database.db,
      sql`SELECT bucket::float8 AS bucket FROM behavior_buckets WHERE behavior_id = ${n.id} AND group_key = ${id} AND body_from IS NOT NULL`,
    );
    expect(summarized.map((r) => r.bucket)).toContain(bucket + 1);
    expect(summarized.map((r) => r.bucket)).not.toContain(bucket);
  });

  it("keeps a unique summary's items through the events that read it, and ignores a summary without them", async () => {
    const id = `${driver}-summary-items`;
    const u = behaviors.find((b) => b.name === 'u')!;
    const start = BASE + 400_000;
    const sent = Array.from({ length: 20 }, (_, i) => ({ at: start + i * 500, item: `v${i % 7}` }));
    await run(sent.map(({ at, item }) => facts({ identity: id, at, properties: { item } })));
    const send = async (at: number, item: string) => {
      sent.push({ at, item });
      const [got] = await run([facts({ identity: id, at, properties: { item } })]);
      return got!.u!.values;
    };
    const inWindow = (t: number) => [...new Set(sent.filter((e) => e.at > t - u.windowMs && e.at <= t).map((e) => e.item))].sort();
    const bucket = Math.floor(sent.at(-1)!.at / u.bucketMs) + 2;
    const t = bucket * u.bucketMs;
    const stored = async () =>
      (
        await rows<{ body_from: number | null; body_items: string[] | null }>(
          database.db,
          sql`SELECT body_from::float8 AS body_from, body_items FROM behavior_buckets WHERE behavior_id = ${u.id} AND group_key = ${id} AND bucket = ${bucket}`,
        )
      )[0]!;
    expect(await send(t, 'w1')).toEqual(inWindow(t));
    const made = await stored();
    expect(made.body_from).toBe(windowCuts(u, t).bodyFrom);
    // The events that read the summary do not send its items again; the row keeps them.
    for (const [i, item] of ['w2', 'w3'].entries()) {
      expect(await send(t + 1 + i, item)).toEqual(inWindow(t + 1 + i));
      expect((await stored()).body_items?.sort()).toEqual(made.body_items?.sort());
    }
    // A summary whose items are gone (a write kept items that were cleared meanwhile) is not one: the body is read.
    await database.db.execute(sql`UPDATE behavior_buckets SET body_items = NULL WHERE behavior_id = ${u.id} AND group_key = ${id} AND bucket = ${bucket}`);
    expect(await send(t + 3, 'w4')).toEqual(inWindow(t + 3));
    // ...and the write stores the body as read in its place.
    expect((await stored()).body_items?.sort()).toEqual(made.body_items?.sort());
  });

  it('estimates unique beyond the exact bound within three standard errors', async () => {
    const id = `${driver}-many`;
    const n = EXACT_UNIQUE_BOUND * 3;
    const batch = Array.from({ length: n }, (_, i) => facts({ identity: id, at: BASE + 200_000 + (i % 400), properties: { item: `value-${i}` } }));
    await run(batch);
    const [after] = await run([facts({ identity: id, at: BASE + 200_500, properties: { item: 'one-more' } })]);
    const estimate = after!.u!.unique!;
    expect(Math.abs(estimate - (n + 1)) / (n + 1)).toBeLessThan(3 * HLL_STANDARD_ERROR);
    expect(after!.u!.values).toHaveLength(100);
  });
});
