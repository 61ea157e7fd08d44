import { and, sql, type SQL } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import { eventConditions, registeredAtEvent, type EventFilter } from './event-filter.js';
import { MAX_STATS_ROWS, statsRows } from './stats-rows.js';
import { ianaTimeZone, refusedTimeZone } from './time-zone.js';

export type EventGroupKey = 'tag' | 'event' | 'branch' | 'role' | 'user';
export type TimeBucket = 'hour' | 'day' | 'week';

export interface EventStatsRequest {
  filter: EventFilter;
  groupBy: readonly EventGroupKey[];
  /** Buckets of the filter's time field (event time unless `timeField` says received); none: no time grouping. */
  bucket?: TimeBucket | null | undefined;
  /** IANA name; where days and weeks (Mondays) start. */
  timeZone?: string | null | undefined;
}

/** One group. A key that is not grouped on is null; so is a grouped key the events lack (no tag, no registration). */
export interface EventStatsRow {
  bucket: Date | null;
  tag: string | null;
  event: string | null;
  branch: string | null;
  role: string | null;
  userId: string | null;
  count: number;
  meanScore: number | null;
  maxScore: number | null;
  /** Distinct non-null device ids. */
  distinctDevices: number;
}

// An event counts once under each of its tags; one without tags counts under tag null, so no event drops out.
const TAGS = sql`CROSS JOIN LATERAL unnest(CASE WHEN cardinality(${events.tags}) = 0 THEN ARRAY[NULL]::text[] ELSE ${events.tags} END) AS t(tag)`;

const KEYS: Record<EventGroupKey, { column: string; expr: SQL }> = {
  tag: { column: 'tag', expr: sql`t.tag` },
  event: { column: 'event', expr: sql`${events.name}` },
  branch: { column: 'branch', expr: registeredAtEvent.branch },
  role: { column: 'role', expr: registeredAtEvent.role },
  user: { column: 'user_id', expr: registeredAtEvent.userId },
};

/** Column order of the answer (and of its sort): bucket first, then these. */
const ORDER: EventGroupKey[] = ['event', 'tag', 'branch', 'role', 'user'];

interface RawRow {
  bucket_ms?: number | null;
  tag?: string | null;
  event?: string | null;
  branch?: string | null;
  role?: string | null;
  user_id?: string | null;
  n: number;
  mean: number | null;
  max: number | null;
  devices: number;
}

/** The statement eventStats runs (exported for the benchmark, which compares it with hand-written SQL). */
export function eventStatsQuery(request: EventStatsRequest): SQL {
  const keys = [...new Set(request.groupBy)].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  const columns: SQL[] = [];
  if (request.bucket) {
    const zone = ianaTimeZone(request.timeZone ?? 'UTC');
    const time = request.filter.timeField === 'received' ? events.receivedAt : events.occurredAt;
    columns.push(sql`(extract(epoch from date_trunc(${request.bucket}, ${time}, ${zone})) * 1000)::float8 AS bucket_ms`);
  }
  for (const key of keys) columns.push(sql`${KEYS[key].expr} AS ${sql.raw(KEYS[key].column)}`);
  // Positions, not expressions: the same parameter twice is two expressions to PostgreSQL's GROUP BY.
  const positions = sql.raw(columns.map((_, i) => String(i + 1)).join(', '));
  const where = and(...eventConditions(request.filter));
  return sql`SELECT ${sql.join([...columns, sql`count(*)::int AS n`], sql`, `)},
      avg(${events.riskScore})::float8 AS mean, max(${events.riskScore})::float8 AS max,
      count(DISTINCT ${events.deviceId})::int AS devices
    FROM ${events} ${keys.includes('tag') ? TAGS : sql``}
    ${where ? sql`WHERE ${where}` : sql``}
    ${columns.length > 0 ? sql`GROUP BY ${positions} ORDER BY ${positions}` : sql``}
    LIMIT ${MAX_STATS_ROWS + 1}`;
}

/**
 * Counts, mean and max score and distinct devices of the filtered events, per group: time bucket in a time zone ×
 * any of tag, event name, branch, role, registered user. Without keys or bucket, one row of totals. Rows are
 * ordered by bucket, then event, tag, branch, role and user (nulls last).
 */
export async function eventStats(db: Queryable, request: EventStatsRequest): Promise<EventStatsRow[]> {
  let rows: RawRow[];
  try {
    rows = await statsRows<RawRow>(db, eventStatsQuery(request), 'eventStats');
  } catch (error) {
    throw refusedTimeZone(error, request.timeZone ?? 'UTC') ?? error;
  }
  return rows.map((r) => ({
    bucket: r.bucket_ms == null ? null : new Date(Number(r.bucket_ms)),
    tag: r.tag ?? null,
    event: r.event ?? null,
    branch: r.branch ?? null,
    role: r.role ?? null,
    userId: r.user_id ?? null,
    count: Number(r.n),
    meanScore: r.mean == null ? null : Number(r.mean),
    maxScore: r.max == null ? null : Number(r.max),
    distinctDevices: Number(r.devices),
  }));
}
