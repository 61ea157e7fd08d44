import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import type { DatabaseHandle } from '../db/handle.js';
import { openDatabase } from '../db/open.js';
import { rows } from '../db/rows.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { SPAN_BUCKETS } from '@vigil/drizzle/schema';
import { BATCH, BY_INDEX, oldBuckets, oldDefaultRows, oldSpans } from './deletes.js';
import { POINTS } from './partitions.js';
import { runRetention } from './run.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const HOUR_BUCKET = HOUR / 32;
const DAY_BUCKET = DAY / 32;
const WEEK_BUCKET = (7 * DAY) / 32;
const ROWS = 8 * BATCH;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

describe.each(testDrivers())('retention deletes through an index on %s', (driver) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  const now = Date.now();
  const count = async (query: SQL) => Number((await rows<{ n: number }>(database.db, query))[0]!.n);

  beforeAll(async () => {
    testDb = await createTestDatabase(driver);
    database = await openDatabase(loadConfig({ VIGIL_LOG_LEVEL: 'silent', ...testDb.env }).env, { migrate: true, purpose: 'test' });
    const db = database.db;
    // Two enabled behaviors, of an hour and a day (points older than the longest window and a day go: 48 h), and a
    // disabled one of a week.
    await db.execute(sql`INSERT INTO behavior_definitions (id, name, definition, source, enabled, bucket_ms, status) VALUES
      ('bhv_hour', 'hour', '{"window_duration_seconds": 3600}', 'config', true, ${HOUR_BUCKET}, 'ready'),
      ('bhv_day', 'day', '{"window_duration_seconds": 86400}', 'config', true, ${DAY_BUCKET}, 'ready'),
      ('bhv_week', 'week', '{"window_duration_seconds": 604800}', 'config', false, ${WEEK_BUCKET}, 'ready')`);
    // Twelve days of history in the default partition (no day of it has a partition) and in the buckets, written in
    // shuffled time order, as late events arrive: the table's order says nothing about their time.
    await db.execute(sql`INSERT INTO behavior_points_default (behavior_id, group_key, at)
      SELECT 'bhv_hour', 'g' || (n % 500), ${now - 12 * DAY} + (n::int8 * ${10 * DAY}) / ${ROWS}
      FROM generate_series(0, ${ROWS - 1}) AS n ORDER BY (n * 7919) % ${ROWS}`);
    for (const [id, ms] of [
      ['bhv_hour', HOUR_BUCKET],
      ['bhv_day', DAY_BUCKET],
      ['bhv_week', WEEK_BUCKET],
    ] as const) {
      const first = Math.floor((now - 12 * DAY) / ms);
      const span = Math.floor((12 * DAY) / ms);
      await db.execute(sql`INSERT INTO behavior_buckets (behavior_id, group_key, bucket, count, sum)
        SELECT ${id}, 'g' || (n % 1000), ${first} + (n / 1000) * ${span} / ${ROWS / 1000}, 1, 0
        FROM generate_series(0, ${ROWS - 1}) AS n ORDER BY (n * 7919) % ${ROWS}`);
    }
    // Every span of those buckets built, as windows reading them would have.
    await db.execute(sql`INSERT INTO behavior_spans (behavior_id, group_key, span, count, sum)
      SELECT behavior_id, group_key, bucket / ${SPAN_BUCKETS}, sum(count), 0 FROM behavior_buckets GROUP BY 1, 2, 3`);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  /** The plan of a batch as the run executes it (`deleteBatch`: its planner settings, in a transaction). */
  async function plan(statement: SQL): Promise<PlanNode[]> {
    const json = await database.db.transaction(async (tx) => {
      await tx.execute(BY_INDEX);
      return (await rows<{ 'QUERY PLAN': unknown }>(tx, sql`EXPLAIN (FORMAT JSON) ${statement}`))[0]!['QUERY PLAN'];
    });
    return nodes((typeof json === 'string' ? JSON.parse(json) : json)[0].Plan);
  }

  /**
   * Nothing to delete (the daily run), half of it, all of it; before and after statistics exist (PGlite never
   * gathers them by itself): the plan reads a range of the time index each time, never the whole table.
   */
  const cutoffs = { 'nothing old': now - 30 * DAY, 'half old': now - 7 * DAY, 'everything old': now };
  const cases = (analyzed: boolean) =>
    Object.entries(cutoffs)
      .flatMap(([what, cutoff]) => [
        { what: `points, ${what}`, statement: oldDefaultRows(POINTS, cutoff), index: 'behavior_points_default_at_idx', range: /\bat < / },
        { what: `buckets, ${what}`, statement: oldBuckets('bhv_hour', HOUR_BUCKET, cutoff), index: 'behavior_buckets_age_idx', range: /\(bucket \+ 0\) < / },
        { what: `spans, ${what}`, statement: oldSpans('bhv_hour', HOUR_BUCKET, cutoff), index: 'behavior_spans_age_idx', range: /\(span \+ 0\) < / },
      ])
      .map((c) => ({ ...c, analyzed }));

  it.each([false, true])('plans every batch as an index range, never a sequential scan (statistics: %s)', async (analyzed) => {
    if (analyzed) await database.db.execute(sql`ANALYZE behavior_points_default, behavior_buckets, behavior_spans`);
    for (const c of cases(analyzed)) {
      const steps = await plan(c.statement);
      const described = JSON.stringify(steps.map(({ Plans: _, ...step }) => step));
      expect(
        steps.filter((s) => s['Node Type'] === 'Seq Scan'),
        `${c.what}: ${described}`,
      ).toEqual([]);
      // An index scan walks the range in order and stops at the batch's end; a bitmap scan or a sort would first
      // collect every match, a whole backlog per batch.
      expect(
        steps.filter((s) => s['Node Type'].startsWith('Bitmap') || s['Node Type'] === 'Sort'),
        `${c.what}: ${described}`,
      ).toEqual([]);
      const scan = steps.find((s) => s['Index Name'] === c.index);
      expect(scan?.['Node Type'], `${c.what}: ${described}`).toBe('Index Scan');
      expect(scan?.['Index Cond'], `${c.what}: ${described}`).toMatch(c.range);
    }
  });

  it('deletes every old point and bucket, a batch at a time, and keeps the rest', async () => {
    // Each behavior's buckets live as long as its own window needs, and a day; a disabled one's no longer than the
    // longest enabled window's.
    const cutoffs = { bhv_hour: now - HOUR - DAY, bhv_day: now - 2 * DAY, bhv_week: now - 2 * DAY };
    // Rows of `table` (as b, its definition as d, its behavior's cutoff as c) in `range`.
    const within = (table: 'behavior_buckets' | 'behavior_spans', range: SQL) =>
      count(sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} b JOIN behavior_definitions d ON d.id = b.behavior_id
                JOIN (VALUES ${sql.join(
                  Object.entries(cutoffs).map(([id, cutoff]) => sql`(${id}, ${cutoff}::float8)`),
                  sql`, `,
                )}) AS c(id, cutoff) ON c.id = b.behavior_id
                WHERE ${range}`);
    const ending = (range: SQL) => within('behavior_buckets', range);
    const oldBucketRows = await ending(sql`(b.bucket + 1) * d.bucket_ms <= c.cutoff`);
    const buckets = await count(sql`SELECT count(*)::int AS n FROM behavior_buckets`);
    expect(oldBucketRows).toBeGreaterThan(BATCH);
    expect(oldBucketRows).toBeLessThan(buckets);
    // Buckets of the day's behavior that only the hour's cutoff would delete.
    const pastTheHour = sql`b.behavior_id = 'bhv_day' AND (b.bucket + 1) * d.bucket_ms > c.cutoff AND (b.bucket + 1) * d.bucket_ms <= ${cutoffs.bhv_hour}`;
    const dayOnly = await ending(pastTheHour);
    expect(dayOnly).toBeGreaterThan(0);
    // A span goes with the first of its buckets that goes: kept, it would still count the deleted ones.
    const spansOf = (range: SQL) => within('behavior_spans', range);
    const holdsOld = sql`(b.span * ${SPAN_BUCKETS} + 1) * d.bucket_ms <= c.cutoff`;
    const oldSpanRows = await spansOf(holdsOld);
    const spans = await count(sql`SELECT count(*)::int AS n FROM behavior_spans`);
    expect(oldSpanRows).toBeGreaterThan(0);
    expect(oldSpanRows).toBeLessThan(spans);

    const report = await runRetention(database.db, { retentionDays: 365, now });
    expect(report.ran).toBe(true);
    expect(report.pointsCutoff).toBe(new Date(now - 2 * DAY).toISOString());
    expect(report.deletedRows.behavior_points_default).toBe(ROWS);
    expect(report.deletedRows.behavior_buckets).toBe(oldBucketRows);
    expect(await count(sql`SELECT count(*)::int AS n FROM behavior_points_default`)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM behavior_buckets`)).toBe(buckets - oldBucketRows);
    const oldest = await rows<{ id: keyof typeof cutoffs; end: number }>(
      database.db,
      sql`SELECT b.behavior_id AS id, min((b.bucket + 1) * d.bucket_ms)::float8 AS end FROM behavior_buckets b
          JOIN behavior_definitions d ON d.id = b.behavior_id GROUP BY 1 ORDER BY 1`,
    );
    expect(oldest.map((o) => o.id)).toEqual(['bhv_day', 'bhv_hour', 'bhv_week']);
    for (const { id, end } of oldest) expect(end, id).toBeGreaterThan(cutoffs[id]);
    // The hour's cutoff was not applied to every behavior.
    expect(await ending(pastTheHour)).toBe(dayOnly);
    expect(report.deletedRows.behavior_spans).toBe(oldSpanRows);
    expect(await spansOf(holdsOld)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM behavior_spans`)).toBe(spans - oldSpanRows);
  });
});
