import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, doublePrecision, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Behavior definitions (velocity counters). The id is a hash of everything that changes what is counted, so a
 * changed definition is a new row that gets backfilled, and the old row is disabled.
 */
export const behaviorDefinitions = pgTable(
  'behavior_definitions',
  {
    /** `bhv_` + hash of the counting definition (group_by, operation, field, window, filters). */
    id: text('id').primaryKey(),
    /** Name in responses (`behaviors.<name>`); unique among enabled definitions. */
    name: text('name').notNull(),
    /** The definition as configured (snake_case, as in the config file). */
    definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
    /** `config` (VIGIL_CONFIG) or `admin` (service API / GraphQL). */
    source: text('source', { enum: ['config', 'admin'] }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Width of one aggregate bucket in milliseconds (window / 32). */
    bucketMs: bigint('bucket_ms', { mode: 'number' }).notNull(),
    /** `backfilling` until every event stored before `created_at` has been counted, then `ready`. */
    status: text('status', { enum: ['backfilling', 'ready'] }).notNull(),
    /** Events received before this instant are counted by the backfill; later ones by ingestion. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Resume point of the backfill: the last (received_at, id) done, as `epochMs id`. */
    backfillCursor: text('backfill_cursor'),
    backfillDone: bigint('backfill_done', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('behavior_definitions_enabled_name_uq').on(t.name).where(sql`${t.enabled}`)],
);

/**
 * One row per (event, behavior) the event matched: the exact record used for the partial buckets at a window's
 * edges. It is an index of events per behavior and group, so edge reads are index range scans. Partitioned by day
 * of `at` (migration 0005): retention drops the days older than the longest enabled window.
 */
export const behaviorPoints = pgTable(
  'behavior_points',
  {
    behaviorId: text('behavior_id').notNull(),
    groupKey: text('group_key').notNull(),
    /** Event time in epoch milliseconds. */
    at: bigint('at', { mode: 'number' }).notNull(),
    /** The numeric field for `sum` (null when missing or not numeric). */
    value: doublePrecision('value'),
    /** The field's value for `unique` (null when missing). */
    item: text('item'),
  },
  (t) => [index('behavior_points_lookup_idx').on(t.behaviorId, t.groupKey, t.at)],
);

/** Aggregates per behavior, group and time bucket (`bucket` = floor(at / bucket_ms)). */
export const behaviorBuckets = pgTable(
  'behavior_buckets',
  {
    behaviorId: text('behavior_id').notNull(),
    groupKey: text('group_key').notNull(),
    bucket: bigint('bucket', { mode: 'number' }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
    sum: doublePrecision('sum').notNull(),
    /** Distinct values while at most the exact bound; after the switch to `hll`, a sample of 100 for return_values. */
    items: text('items').array(),
    /** HyperLogLog registers (2^12 bytes) once the bucket holds more distinct values than the exact bound. */
    hll: bytea('hll'),
    /** Earliest event time in the bucket (epoch ms), so a window starting inside it reads its points only when split; null: not known (written before 0006). */
    firstAt: bigint('first_at', { mode: 'number' }),
    /** Latest event time in the bucket (epoch ms), so a window ending inside it reads later points only when there are some; null: not known. */
    lastAt: bigint('last_at', { mode: 'number' }),
    /** Window summary: the first bucket of the body it sums ([body_from, bucket)); null: none (never read, or a write since made it stale). */
    bodyFrom: bigint('body_from', { mode: 'number' }),
    /** Window summary: count of the buckets [body_from, bucket), so later events landing here read this row, not the body. */
    bodyCount: bigint('body_count', { mode: 'number' }),
    /** Window summary: sum of those buckets' sums. */
    bodySum: doublePrecision('body_sum'),
    /** Window summary: those buckets' distinct items (unique only; a summary is kept only when they are exact and few). */
    bodyItems: text('body_items').array(),
  },
  (t) => [
    primaryKey({ columns: [t.behaviorId, t.groupKey, t.bucket] }),
    // Retention deletes a behavior's buckets older than its window as one index range (migration 0016), not a
    // sequential scan of every bucket: the primary key's bucket comes after group_key. On `bucket + 0`, which only
    // retention asks for (0020): on the plain column, a planner without statistics (PGlite's, always) took it for a
    // window's read of one group's buckets, a range over every group's.
    index('behavior_buckets_age_idx').on(t.behaviorId, sql`(${t.bucket} + 0)`),
  ],
);

/** The SET list that clears a bucket's window summary: a write made it stale, or erasure rewrote what it quotes. */
export const CLEAR_WINDOW_SUMMARY = 'body_from = NULL, body_count = NULL, body_sum = NULL, body_items = NULL';

/** Buckets per span: span `s` of `behavior_spans` sums buckets [s * 8, s * 8 + 8). */
export const SPAN_BUCKETS = 8;

/**
 * Sums of 8 consecutive buckets (`span` = floor(bucket / 8)), so a window's body reads a few span rows and the
 * buckets at its ends, not one row per bucket: ingestion leaves a group's buckets on a page each. A cache of
 * `behavior_buckets`, built when a window first reads a span whole and deleted by any write to one of its buckets
 * (a late event, a backfill); a span with a HyperLogLog bucket is not built.
 */
export const behaviorSpans = pgTable(
  'behavior_spans',
  {
    behaviorId: text('behavior_id').notNull(),
    groupKey: text('group_key').notNull(),
    /** floor(bucket / 8): the span holds buckets [span * 8, span * 8 + 8). */
    span: bigint('span', { mode: 'number' }).notNull(),
    /** Sum of the buckets' counts. */
    count: bigint('count', { mode: 'number' }).notNull(),
    /** Sum of the buckets' sums. */
    sum: doublePrecision('sum').notNull(),
    /** Unique only: the distinct values of all its buckets; null for count and sum. */
    items: text('items').array(),
  },
  (t) => [
    primaryKey({ columns: [t.behaviorId, t.groupKey, t.span] }),
    // Retention deletes a behavior's old spans as one index range, as it does its buckets (and on `span + 0` for
    // the same reason).
    index('behavior_spans_age_idx').on(t.behaviorId, sql`(${t.span} + 0)`),
  ],
);
