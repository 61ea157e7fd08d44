import { and, gte, lt, sql } from 'drizzle-orm';
import { devices, events, registrations } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import { VigilError } from '../errors.js';

export type Bucket = 'hour' | 'day';

export interface RiskBucket {
  start: Date;
  eventCount: number;
  /** null for a bucket without events. */
  meanScore: number | null;
  tagCounts: { tag: string; count: number }[];
}

const BUCKET_MS: Record<Bucket, number> = { hour: 3600_000, day: 86_400_000 };
/** Enough for 90 days by the hour or 5 years by the day; keeps one answer bounded. */
export const MAX_BUCKETS = 2200;

const truncate = (d: Date, bucket: Bucket) => new Date(Math.floor(d.getTime() / BUCKET_MS[bucket]) * BUCKET_MS[bucket]);

/**
 * Events per bucket (UTC) in [from, to): count, mean score and count per tag. Empty buckets are included so a
 * chart can be drawn from the answer as is.
 */
export async function riskSummary(db: Queryable, from: Date, to: Date, bucket: Bucket): Promise<RiskBucket[]> {
  if (!(to > from)) throw new VigilError('validation_failed', '`to` must be after `from`', { errors: [{ path: 'to', message: 'must be after from' }] });
  const first = truncate(from, bucket);
  const count = Math.ceil((to.getTime() - first.getTime()) / BUCKET_MS[bucket]);
  if (count > MAX_BUCKETS) {
    throw new VigilError('validation_failed', `At most ${MAX_BUCKETS} buckets per summary; narrow the range or use DAY`, {
      errors: [{ path: 'from', message: `range spans ${count} buckets (max ${MAX_BUCKETS})` }],
    });
  }
  const size = BUCKET_MS[bucket];
  // Bucket index computed in milliseconds: the same on every server time zone and driver.
  // The numbers are inlined (they are integers computed here, never input): GROUP BY must see one expression,
  // and two parameters with equal values are two expressions to PostgreSQL.
  const index = sql<number>`floor(((extract(epoch from ${events.occurredAt}) * 1000) - ${sql.raw(String(first.getTime()))}) / ${sql.raw(String(size))})::int`;
  const range = and(gte(events.occurredAt, from), lt(events.occurredAt, to));
  const totals = await db
    .select({ i: index, n: sql<number>`count(*)::int`, mean: sql<number>`avg(${events.riskScore})::float8` })
    .from(events)
    .where(range)
    .groupBy(index);
  const tag = sql<string>`unnest(${events.tags})`;
  const tagged = db
    .select({ i: index.as('i'), tag: tag.as('tag') })
    .from(events)
    .where(range)
    .as('tagged');
  const tags = await db.select({ i: tagged.i, tag: tagged.tag, n: sql<number>`count(*)::int` }).from(tagged).groupBy(tagged.i, tagged.tag);

  const buckets: RiskBucket[] = Array.from({ length: count }, (_, i) => ({
    start: new Date(first.getTime() + i * size),
    eventCount: 0,
    meanScore: null,
    tagCounts: [],
  }));
  for (const t of totals) {
    const b = buckets[Number(t.i)];
    if (b) Object.assign(b, { eventCount: Number(t.n), meanScore: Number(t.mean) });
  }
  for (const t of tags) buckets[Number(t.i)]?.tagCounts.push({ tag: t.tag, count: Number(t.n) });
  for (const b of buckets) b.tagCounts.sort((x, y) => y.count - x.count || (x.tag < y.tag ? -1 : 1));
  return buckets;
}

export interface FacetValue {
  value: string;
  count: number;
}

export interface Facets {
  roles: FacetValue[];
  branches: FacetValue[];
  statuses: FacetValue[];
  tags: FacetValue[];
}

/** Tags are counted over this many recent days of events: a full scan of history would grow without bound. */
export const TAG_FACET_DAYS = 30;

/** The values in use, with counts, for the console's filters. */
export async function facets(db: Queryable, now: Date = new Date()): Promise<Facets> {
  const roles = await db
    .select({ value: registrations.role, count: sql<number>`count(*)::int` })
    .from(registrations)
    .where(sql`${registrations.role} IS NOT NULL`)
    .groupBy(registrations.role);
  const branch = sql<string>`${registrations.metadata}->>'branch'`;
  const branches = await db.select({ value: branch, count: sql<number>`count(*)::int` }).from(registrations).where(sql`${branch} IS NOT NULL`).groupBy(branch);
  const statuses = await db.select({ value: registrations.status, count: sql<number>`count(*)::int` }).from(registrations).groupBy(registrations.status);
  const [unregistered] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(devices)
    .where(sql`NOT EXISTS (SELECT 1 FROM ${registrations} WHERE ${registrations.deviceId} = ${devices.deviceId})`);
  const since = new Date(now.getTime() - TAG_FACET_DAYS * 86_400_000);
  const tag = sql<string>`unnest(${events.tags})`;
  const recent = db
    .select({ tag: tag.as('tag') })
    .from(events)
    .where(gte(events.occurredAt, since))
    .as('recent');
  const tags = await db.select({ value: recent.tag, count: sql<number>`count(*)::int` }).from(recent).groupBy(recent.tag);

  const sorted = (list: { value: string | null; count: number }[]) =>
    list
      .filter((v): v is FacetValue => v.value !== null)
      .map((v) => ({ value: v.value, count: Number(v.count) }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
  return {
    roles: sorted(roles),
    branches: sorted(branches),
    statuses: sorted([...statuses, { value: 'unregistered', count: Number(unregistered?.count ?? 0) }].filter((s) => s.count > 0)),
    tags: sorted(tags),
  };
}
