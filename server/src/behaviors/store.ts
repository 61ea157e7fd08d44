import { keys, probe, records, writeAll } from '../db/compose.js';
import type { Queryable } from '../db/handle.js';
import { preparedRows, raw, sql, type Sql } from '../db/statement.js';
import { HyperLogLog } from './hll.js';
import { CLEAR_WINDOW_SUMMARY, SPAN_BUCKETS } from '@vigil/drizzle/schema';
import { SUMMARY_MAX_ITEMS, type BucketState, type Point, type Summary, type WindowRead, type windowCuts } from './window.js';

// Two-key advisory locks live in a key space apart from the one-key locks used for idempotency.
const LOCK_CLASS = 0x6268_7672; // "bhvr"

// Every statement here runs for every group commit with behaviors: prepared once per connection (planning the
// window read costs more than running it), with the batch as one jsonb parameter, as the ingest path does.

/**
 * Serialises every transaction that reads and then writes the same (behavior, group): across group commits and
 * across processes, each event sees exactly the events committed before it. Locks are taken in hash order so
 * two transactions can never wait on each other in a cycle.
 */
export async function lockGroups(tx: Queryable, groups: string[]): Promise<void> {
  if (groups.length === 0) return;
  await preparedRows(
    tx,
    sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int4, h) FROM (SELECT DISTINCT hashtext(q.k) AS h FROM ${keys(groups)} ORDER BY 1) AS locks`,
  );
}

interface BucketColumns {
  count: number | null;
  sum: number | null;
  items: string[] | null;
  hll: string | null;
  first_at: number | null;
  last_at: number | null;
}

/**
 * Arrays come back as json (`to_json`), here and in the window read: node-postgres parses a text[] in JavaScript a
 * character at a time on the main thread, 30 µs for the ~67 distinct recipients of a full 7-day window against 1.7 µs
 * for JSON.parse of the same list, and a full store reads one such list for every event its `unique` behaviors count.
 */
const BUCKET_COLUMNS =
  "b.count::float8 AS count, b.sum, to_json(b.items) AS items, encode(b.hll, 'hex') AS hll, b.first_at::float8 AS first_at, b.last_at::float8 AS last_at";

/** A stored bucket's state, or undefined when the outer join found none. */
function bucketState(r: BucketColumns): BucketState | undefined {
  if (r.count === null) return undefined;
  return {
    count: Number(r.count),
    sum: Number(r.sum),
    items: r.items,
    hll: r.hll ? HyperLogLog.fromHex(r.hll) : null,
    firstAt: r.first_at === null ? null : Number(r.first_at),
    lastAt: r.last_at === null ? null : Number(r.last_at),
  };
}

export interface BucketKey {
  behaviorId: string;
  groupKey: string;
  bucket: number;
}

/** The stored state of each bucket asked for (undefined: none yet), in the order asked. */
export async function readBuckets(tx: Queryable, wanted: BucketKey[]): Promise<(BucketState | undefined)[]> {
  if (wanted.length === 0) return [];
  const found = await preparedRows<BucketColumns & { n: number }>(
    tx,
    sql`SELECT q.n, ${raw(BUCKET_COLUMNS)}
        FROM ${records(
          wanted.map((k, n) => ({ n, id: k.behaviorId, g: k.groupKey, k: k.bucket })),
          'n int, id text, g text, k int8',
          'q',
        )}
        LEFT JOIN ${probe(sql`SELECT * FROM behavior_buckets WHERE behavior_id = q.id AND group_key = q.g AND bucket = q.k`)} AS b ON true`,
  );
  const states: (BucketState | undefined)[] = wanted.map(() => undefined);
  for (const r of found) states[r.n] = bucketState(r);
  return states;
}

/** One event's window for one (behavior, group), cut as windowCuts says. */
export interface WindowQuery extends ReturnType<typeof windowCuts> {
  behaviorId: string;
  groupKey: string;
  unique: boolean;
}

const SPAN = raw(String(SPAN_BUCKETS));

/** A window's first bucket, when it starts inside it, lies wholly inside by its events' times (and is exact). */
const WHOLE = 'coalesce(k.first_at >= w.head_from AND k.hll IS NULL, false)';

/**
 * The row is the last bucket and its summary is of this window's body. A `unique` summary without items is none: a
 * write that meant to keep the stored items found them cleared (see writeCounts).
 */
const KEPT = 'k.bucket = w.last AND k.body_from = w.body_from AND (k.body_items IS NOT NULL OR NOT w.uq)';

/**
 * The row is the window's first bucket and the window starts inside it, so the bucket is not part of the body (its
 * events from the window's start are the head). windowCuts starts the body after the first bucket exactly when the
 * head is not empty.
 */
const FIRST_BEFORE_BODY = 'k.bucket = w.first AND w.first < w.body_from';

/** The first bucket, before the body, lies wholly inside the window and is summed with the body (see WHOLE). */
const FIRST_WHOLE = `${FIRST_BEFORE_BODY} AND ${WHOLE}`;

/**
 * Count, sum and items of the rows of `t` (buckets or spans) that `only` keeps. The items are concatenated, not made
 * distinct: a sort per window and a function scan per row cost more than the server's set of items (0018).
 */
function sums(t: string, only = 'true'): Sql {
  return raw(`coalesce(sum(${t}.count) FILTER (WHERE ${only}), 0)::float8 AS c, coalesce(sum(${t}.sum) FILTER (WHERE ${only}), 0) AS s,
                 vigil_cat_items(${t}.items) FILTER (WHERE ${only}) AS items`);
}

/**
 * A span read as its buckets is built when it has at least this many: then one span row replaces them in every later
 * window that covers it. A sparser span costs about as much read either way, and building it would be a write.
 */
export const SPAN_MIN_BUCKETS = 3;

/** The spans that `spanned` (one entry per bucket read, by span) says are worth building, less the inexact ones. */
function worthBuilding(spanned: number[] | null, inexact: number[] | null): number[] {
  const buckets = new Map<number, number>();
  for (const span of spanned ?? []) buckets.set(span, (buckets.get(span) ?? 0) + 1);
  const skip = new Set(inexact ?? []);
  return [...buckets].filter(([span, n]) => n >= SPAN_MIN_BUCKETS && !skip.has(span)).map(([span]) => span);
}

/**
 * The body's whole spans as a list, not as generate_series bounds: the planner expects 1,000 rows of a series with
 * unknown bounds and 10 of an array, and with a thousand bucket probes per window the plan's cost passes the JIT
 * threshold; compiling it took a second per batch.
 */
const spanRange = (lo: number, hi: number) => Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => lo + i);

/** One window's row as the read statement answers it. */
type WindowRow = BucketColumns & {
  n: number;
  body_count: number;
  body_sum: number;
  body_items: string[] | null;
  body_hlls: string[] | null;
  first_count: number;
  first_sum: number;
  first_items: string[] | null;
  spanned: number[] | null;
  inexact: number[] | null;
  span_count: number;
  span_sum: number;
  span_items: string[] | null;
  last_spanned: boolean;
  summarized: boolean;
  summary_count: number | null;
  summary_sum: number | null;
  summary_items: string[] | null;
  later: number[] | null;
  earlier: number[] | null;
  head_count: number;
  head_sum: number;
  head_items: string[] | null;
  tail_count: number;
  tail_sum: number;
  last_items: string[] | null;
};

/** The read of readWindows, as one statement: the windows go in as one parameter (see records). */
export function windowRead(windows: WindowQuery[]): Sql {
  const input = windows.map((w, n) => ({
    n,
    id: w.behaviorId,
    g: w.groupKey,
    first: w.first,
    body_from: w.bodyFrom,
    span_lo: w.spanLo,
    span_hi: w.spanHi,
    spans: spanRange(w.spanLo, w.spanHi),
    left_to: w.leftTo,
    right_from: w.rightFrom,
    last: w.last,
    later_to: w.laterTo,
    head_from: w.headFrom,
    head_to: w.headTo,
    last_start: w.lastStart,
    tail_from: w.tailFrom,
    tail_to: w.tailTo,
    uq: w.unique,
  }));
  // The last bucket and the later ones come first: whether the body is its summary decides what else is read.
  // Then the body's built spans (with the last bucket's, which only says whether the write must drop it). Then every
  // bucket from the first to the last one's predecessor, by ranges, each an index range probed on its own (a filter
  // on the bucket would still visit every bucket's row): the whole window at once when no span is built, else its
  // two ends and each whole span not built; the first bucket alone when the body is a summary. One aggregate over
  // them gives the first one's event times (they say whether its points must be read at all: a first bucket wholly
  // inside the window, and exact, is summed with the body), and the body. Buckets and spans hold few items each
  // (distinct, 1,000 at most), so their items are concatenated; points may be many events of a few values, so theirs
  // are made distinct here.
  return sql`SELECT w.n,
             body.c AS body_count, body.s AS body_sum, to_json(body.items) AS body_items, to_json(body.hlls) AS body_hlls,
             body.first_count, body.first_sum, to_json(body.first_items) AS first_items, to_json(body.spanned) AS spanned,
             to_json(body.inexact) AS inexact, to_json(body.earlier) AS earlier,
             sp.c AS span_count, sp.s AS span_sum, to_json(sp.items) AS span_items, sp.last_spanned,
             lb.summarized, lb.summary_count, lb.summary_sum, to_json(lb.summary_items) AS summary_items, to_json(lb.later) AS later,
             head.c AS head_count, head.s AS head_sum, to_json(head.items) AS head_items,
             tail.c AS tail_count, tail.s AS tail_sum,
             CASE WHEN w.uq AND tail.c > 0 THEN to_json(coalesce(lp.items, '{}')) END AS last_items,
             lb.count, lb.sum, to_json(lb.items) AS items, lb.hll, lb.first_at, lb.last_at
      FROM ${records(
        input,
        'n int, id text, g text, first int8, body_from int8, span_lo int8, span_hi int8, spans int8[], left_to int8, right_from int8, last int8, later_to int8, head_from int8, head_to int8, last_start int8, tail_from int8, tail_to int8, uq bool',
        'w',
      )}
      CROSS JOIN LATERAL (
        SELECT s.*, s.summary_count IS NOT NULL AND NOT s.later_exists AS summarized
        FROM (
          -- the last bucket: one row at most, which max() and the concatenation pick as it is
          SELECT max(k.count) FILTER (WHERE k.bucket = w.last)::float8 AS count,
                 max(k.sum) FILTER (WHERE k.bucket = w.last) AS sum,
                 vigil_cat_items(k.items) FILTER (WHERE k.bucket = w.last) AS items,
                 max(encode(k.hll, 'hex')) FILTER (WHERE k.bucket = w.last) AS hll,
                 max(k.first_at) FILTER (WHERE k.bucket = w.last)::float8 AS first_at,
                 max(k.last_at) FILTER (WHERE k.bucket = w.last)::float8 AS last_at,
                 max(k.body_count) FILTER (WHERE ${raw(KEPT)})::float8 AS summary_count,
                 max(k.body_sum) FILTER (WHERE ${raw(KEPT)}) AS summary_sum,
                 vigil_cat_items(k.body_items) FILTER (WHERE ${raw(KEPT)}) AS summary_items,
                 coalesce(bool_or(k.bucket > w.last), false) AS later_exists,
                 array_agg(k.bucket::float8) FILTER (WHERE k.bucket > w.last AND k.body_from IS NOT NULL) AS later
          FROM ${probe(sql`SELECT * FROM behavior_buckets WHERE behavior_id = w.id AND group_key = w.g AND bucket >= w.last AND bucket <= w.later_to`)} AS k) AS s) AS lb
      CROSS JOIN LATERAL (
        SELECT array_agg(s.span) FILTER (WHERE s.span <= w.span_hi) AS built,
               ${sums('s', 's.span <= w.span_hi')},
               coalesce(bool_or(s.span = w.last / ${SPAN}), false) AS last_spanned
        FROM behavior_spans s
        WHERE NOT lb.summarized AND s.behavior_id = w.id AND s.group_key = w.g
          AND s.span >= least(w.span_lo, w.last / ${SPAN}) AND s.span <= w.last / ${SPAN}) AS sp
      CROSS JOIN LATERAL (
        SELECT ${sums('k', 'k.bucket >= w.body_from AND k.bucket < w.last')},
               coalesce(sum(k.count) FILTER (WHERE ${raw(FIRST_WHOLE)}), 0)::float8 AS first_count,
               coalesce(sum(k.sum) FILTER (WHERE ${raw(FIRST_WHOLE)}), 0) AS first_sum,
               vigil_cat_items(k.items) FILTER (WHERE ${raw(FIRST_WHOLE)}) AS first_items,
               array_agg(encode(k.hll, 'hex')) FILTER (WHERE k.hll IS NOT NULL AND k.bucket >= w.body_from AND k.bucket < w.last) AS hlls,
               array_agg(k.bucket::float8) FILTER (WHERE k.body_from IS NOT NULL) AS earlier,
               array_agg((k.bucket / ${SPAN})::float8) FILTER (WHERE k.bucket >= w.left_to AND k.bucket < w.right_from) AS spanned,
               array_agg((k.bucket / ${SPAN})::float8)
                 FILTER (WHERE k.bucket >= w.left_to AND k.bucket < w.right_from AND k.hll IS NOT NULL) AS inexact,
               bool_or(${raw(WHOLE)}) FILTER (WHERE ${raw(FIRST_BEFORE_BODY)}) AS first_whole,
               max(k.last_at) FILTER (WHERE ${raw(FIRST_BEFORE_BODY)}) AS first_last_at
        FROM (SELECT w.first AS lo, CASE WHEN lb.summarized THEN w.first + 1 WHEN sp.built IS NULL THEN w.last ELSE w.left_to END AS hi
                WHERE NOT lb.summarized OR w.first < w.body_from
              UNION ALL SELECT w.right_from, w.last WHERE NOT lb.summarized AND sp.built IS NOT NULL
              UNION ALL SELECT g * ${SPAN}, (g + 1) * ${SPAN}
                FROM unnest(w.spans) AS g WHERE NOT lb.summarized AND sp.built IS NOT NULL AND g <> ALL (sp.built)) AS r
        CROSS JOIN ${probe(sql`SELECT * FROM behavior_buckets WHERE behavior_id = w.id AND group_key = w.g AND bucket >= r.lo AND bucket < r.hi`)} AS k) AS body
      CROSS JOIN LATERAL (
        SELECT count(*)::float8 AS c, coalesce(sum(p.value), 0) AS s, array_agg(DISTINCT p.item) FILTER (WHERE p.item IS NOT NULL) AS items
        FROM behavior_points p
        WHERE NOT body.first_whole AND coalesce(body.first_last_at >= w.head_from, true)
          AND p.behavior_id = w.id AND p.group_key = w.g AND p.at >= w.head_from AND p.at < w.head_to) AS head
      CROSS JOIN LATERAL (
        SELECT count(*)::float8 AS c, coalesce(sum(p.value), 0) AS s
        FROM behavior_points p
        WHERE lb.count IS NOT NULL AND coalesce(lb.last_at >= w.tail_from, true)
          AND p.behavior_id = w.id AND p.group_key = w.g AND p.at >= w.tail_from AND p.at < w.tail_to) AS tail
      LEFT JOIN LATERAL (
        SELECT array_agg(DISTINCT p.item) FILTER (WHERE p.item IS NOT NULL) AS items
        FROM behavior_points p
        WHERE w.uq AND tail.c > 0
          AND p.behavior_id = w.id AND p.group_key = w.g AND p.at >= w.last_start AND p.at < w.tail_from) AS lp ON true`;
}

/**
 * Each window's stored part in one row: the database sums the body's spans and buckets and the edges' points, so
 * the rows crossing to the server do not grow with history or with the events in a window. The last bucket comes
 * whole, as the event's own write needs it too.
 *
 * The last bucket (with the later ones its summary could be stale in) is read first. When it holds a summary of this
 * window's body and no later bucket exists, the body is that summary: the read is the last and the first bucket, as
 * in an empty store, however full the window. Otherwise the body is read from spans and buckets, and its sums are
 * what the write keeps as the summary.
 */
export async function readWindows(tx: Queryable, windows: WindowQuery[]): Promise<{ read: WindowRead; last: BucketState | undefined }[]> {
  if (windows.length === 0) return [];
  const found = await preparedRows<WindowRow>(tx, windowRead(windows));
  const out: { read: WindowRead; last: BucketState | undefined }[] = new Array(windows.length);
  for (const r of found) {
    const w = windows[r.n]!;
    // The body before the first bucket is added: the buckets [bodyFrom, last), from the summary or as read.
    const core = r.summarized
      ? { count: Number(r.summary_count), sum: Number(r.summary_sum), items: r.summary_items ?? [] }
      : {
          count: Number(r.body_count) + Number(r.span_count),
          sum: Number(r.body_sum) + Number(r.span_sum),
          items: [...new Set([...(r.body_items ?? []), ...(r.span_items ?? [])])],
        };
    const hlls = (r.body_hlls ?? []).map((h) => HyperLogLog.fromHex(h));
    out[r.n] = {
      read: {
        body: {
          count: core.count + Number(r.first_count),
          sum: core.sum + Number(r.first_sum),
          items: [...core.items, ...(r.first_items ?? [])],
          hlls,
        },
        head: { count: Number(r.head_count), sum: Number(r.head_sum), items: r.head_items ?? [] },
        tail: { count: Number(r.tail_count), sum: Number(r.tail_sum) },
        lastItems: r.last_items,
        unbuilt: worthBuilding(r.spanned, r.inexact),
        lastSpanned: r.last_spanned,
        summary:
          hlls.length > 0 || core.items.length > SUMMARY_MAX_ITEMS
            ? null
            : { bodyFrom: w.bodyFrom, count: core.count, sum: core.sum, items: w.unique ? core.items : null, stored: r.summarized },
        stale: [...(r.later ?? []), ...(r.earlier ?? [])],
      },
      last: bucketState(r),
    };
  }
  return out;
}

export interface PointRow extends Point {
  behaviorId: string;
  groupKey: string;
}

export interface BucketRow {
  behaviorId: string;
  groupKey: string;
  bucket: number;
  state: BucketState;
  /** The window summary the row keeps (see WindowRead.summary); null clears it. */
  summary: Summary | null;
}

/** Buckets (after, to] of a group whose summaries a write makes stale, less the ones the same write stores (`except`). */
export interface StaleSummaries {
  behaviorId: string;
  groupKey: string;
  after: number;
  to: number;
  except: number[];
}

export interface SpanKey {
  behaviorId: string;
  groupKey: string;
  span: number;
  unique: boolean;
}

/** What a batch does to spans: drops the built ones its buckets change, builds the ones its reads found worth it. */
export interface SpanWrites {
  /** Built spans holding a bucket the batch writes (a late event, a backfill). */
  drop: Omit<SpanKey, 'unique'>[];
  /** Spans to build from their buckets; none the batch writes into (the statement's reads do not see its writes). */
  build: SpanKey[];
}

/**
 * Stores the batch's points and whole bucket states in one statement: the caller holds the groups' locks, so
 * what it read is still current. The same statement drops and builds spans as `spans` says; a span with a
 * HyperLogLog bucket is left unbuilt.
 */
export async function writeCounts(
  tx: Queryable,
  points: PointRow[],
  buckets: BucketRow[],
  spans: SpanWrites = { drop: [], build: [] },
  stale: StaleSummaries[] = [],
): Promise<void> {
  const writes = [];
  if (points.length > 0) {
    writes.push(sql`INSERT INTO behavior_points (behavior_id, group_key, at, value, item)
      SELECT id, g, at, v, it FROM ${records(
        points.map((p) => ({ id: p.behaviorId, g: p.groupKey, at: p.at, v: p.value, it: p.item })),
        'id text, g text, at int8, v float8, it text',
      )}`);
  }
  if (buckets.length > 0) {
    const rowsIn = buckets.map((b) => ({
      id: b.behaviorId,
      g: b.groupKey,
      k: b.bucket,
      c: b.state.count,
      s: b.state.sum,
      it: b.state.items,
      h: b.state.hll?.toHex() ?? null,
      f: b.state.firstAt,
      l: b.state.lastAt,
      bf: b.summary?.bodyFrom ?? null,
      bc: b.summary?.count ?? null,
      bs: b.summary?.sum ?? null,
      // A summary read from the row is not sent again: the update keeps the stored items (see KEPT).
      bi: b.summary?.stored ? null : (b.summary?.items ?? null),
    }));
    // The items arrive as text[] (a JSON array becomes the column's array), not as jsonb unpacked by a subquery a row.
    writes.push(sql`INSERT INTO behavior_buckets (behavior_id, group_key, bucket, count, sum, items, hll, first_at, last_at, body_from, body_count, body_sum, body_items)
      SELECT id, g, k, c, s, it, decode(h, 'hex'), f, l, bf, bc, bs, bi
      FROM ${records(rowsIn, 'id text, g text, k int8, c int8, s float8, it text[], h text, f int8, l int8, bf int8, bc int8, bs float8, bi text[]')}
      ON CONFLICT (behavior_id, group_key, bucket)
      DO UPDATE SET count = excluded.count, sum = excluded.sum, items = excluded.items, hll = excluded.hll,
                    first_at = excluded.first_at, last_at = excluded.last_at, body_from = excluded.body_from,
                    body_count = excluded.body_count, body_sum = excluded.body_sum,
                    body_items = CASE WHEN excluded.body_items IS NULL AND excluded.body_from = behavior_buckets.body_from
                                      THEN behavior_buckets.body_items ELSE excluded.body_items END`);
  }
  if (stale.length > 0) {
    writes.push(sql`UPDATE behavior_buckets SET ${raw(CLEAR_WINDOW_SUMMARY)}
      WHERE ctid = ANY(ARRAY(
        SELECT k.ctid FROM ${records(
          stale.map((r) => ({ id: r.behaviorId, g: r.groupKey, a: r.after, z: r.to, x: r.except })),
          'id text, g text, a int8, z int8, x int8[]',
        )} CROSS JOIN ${probe(sql`SELECT ctid, bucket FROM behavior_buckets WHERE behavior_id = t.id AND group_key = t.g AND bucket > t.a AND bucket <= t.z AND body_from IS NOT NULL`)} AS k
        WHERE k.bucket <> ALL (t.x)))`);
  }
  if (spans.drop.length > 0) {
    writes.push(sql`DELETE FROM behavior_spans WHERE ctid = ANY(ARRAY(
      SELECT s.ctid FROM ${records(
        spans.drop.map((d) => ({ id: d.behaviorId, g: d.groupKey, s: d.span })),
        'id text, g text, s int8',
      )} CROSS JOIN ${probe(sql`SELECT ctid FROM behavior_spans WHERE behavior_id = t.id AND group_key = t.g AND span = t.s`)} AS s))`);
  }
  if (spans.build.length > 0) {
    writes.push(sql`INSERT INTO behavior_spans (behavior_id, group_key, span, count, sum, items)
      SELECT q.id, q.g, q.s, a.c, a.s, CASE WHEN q.uq THEN ARRAY(SELECT DISTINCT v FROM unnest(a.items) AS v) END
      FROM ${records(
        spans.build.map((s) => ({ id: s.behaviorId, g: s.groupKey, s: s.span, uq: s.unique })),
        'id text, g text, s int8, uq bool',
        'q',
      )}
      CROSS JOIN LATERAL (
        SELECT count(*) AS n, bool_and(k.hll IS NULL) AS exact, ${sums('k')}
        FROM behavior_buckets k
        WHERE k.behavior_id = q.id AND k.group_key = q.g
          AND k.bucket >= q.s * ${SPAN} AND k.bucket < (q.s + 1) * ${SPAN}) AS a
      WHERE a.n > 0 AND a.exact
      ON CONFLICT (behavior_id, group_key, span) DO NOTHING`);
  }
  if (writes.length > 0) await writeAll(tx, writes, sql`SELECT 1`);
}
