import { gte, lt, lte, eq, sql, type SQL } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import { VigilError } from '../errors.js';

/** Which of an event's two times a time range applies to. */
export type EventTimeField = 'occurred' | 'received';

/**
 * The one description of "which events" shared by every reporting reader: listings, counts, aggregates, exports and
 * the live feed. Each reader turns it into SQL through `eventConditions`, so a filter means the same everywhere.
 */
export interface EventFilter {
  deviceId?: string | null | undefined;
  identity?: string | null | undefined;
  handprintId?: string | null | undefined;
  /** Event name. */
  event?: string | null | undefined;
  tag?: string | null | undefined;
  minScore?: number | null | undefined;
  maxScore?: number | null | undefined;
  from?: Date | null | undefined;
  to?: Date | null | undefined;
  /** What `from`/`to` bound; default `occurred` (the event's own time). */
  timeField?: EventTimeField | null | undefined;
  /** The device's registration when the event was answered (not now): its `metadata.branch`, role and user. */
  branch?: string | null | undefined;
  role?: string | null | undefined;
  userId?: string | null | undefined;
}

/**
 * The device's registration as it was when the event was answered, read from the stored answer (`response.device`),
 * so a device transferred or re-branched later still counts where it was. Expression indexes of migration 0008
 * match these expressions exactly; readers that group by them (aggregates) use these same expressions.
 */
export const registeredAtEvent = {
  userId: sql<string | null>`(${events.response}->'device'->>'registered_to')`,
  role: sql<string | null>`(${events.response}->'device'->>'role')`,
  branch: sql<string | null>`(${events.response}->'device'->'metadata'->>'branch')`,
} as const;

/** The column a time range or a time bucket of this filter applies to. */
export const eventTime = (field: EventTimeField | null | undefined) => (field === 'received' ? events.receivedAt : events.occurredAt);

/** ISO 8601 and JavaScript have a year 0; PostgreSQL refuses it (an internal error, were it let through). */
function storableInstant(at: Date, field: 'from' | 'to'): Date {
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1) {
    throw new VigilError('validation_failed', `filter.${field} must be a time in the year 1 or later`, {
      errors: [{ path: `filter.${field}`, message: 'must be in the year 1 or later' }],
    });
  }
  return at;
}

/**
 * A handprint's events, including those stored under its id from before server-side ids were keyed with the
 * installation secret (`handprint_aliases`), whichever of the two ids is asked for.
 */
function sameHandprint(id: string): SQL {
  return sql`${events.handprintId} IN (SELECT ${id}::text UNION ALL SELECT legacy_id FROM handprint_aliases WHERE handprint_id = ${id}
    UNION ALL SELECT handprint_id FROM handprint_aliases WHERE legacy_id = ${id})`;
}

/** The WHERE conditions of a filter on the events table (empty: every event); a time PostgreSQL cannot hold is a 400. */
export function eventConditions(filter: EventFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.deviceId != null) where.push(eq(events.deviceId, filter.deviceId));
  if (filter.identity != null) where.push(eq(events.identity, filter.identity));
  if (filter.handprintId != null) where.push(sameHandprint(filter.handprintId));
  if (filter.event != null) where.push(eq(events.name, filter.event));
  if (filter.tag != null) where.push(sql`${events.tags} @> ARRAY[${filter.tag}]::text[]`);
  if (filter.minScore != null) where.push(gte(events.riskScore, filter.minScore));
  if (filter.maxScore != null) where.push(lte(events.riskScore, filter.maxScore));
  if (filter.userId != null) where.push(sql`${registeredAtEvent.userId} = ${filter.userId}`);
  if (filter.role != null) where.push(sql`${registeredAtEvent.role} = ${filter.role}`);
  if (filter.branch != null) where.push(sql`${registeredAtEvent.branch} = ${filter.branch}`);
  const time = eventTime(filter.timeField);
  if (filter.from != null) where.push(gte(time, storableInstant(filter.from, 'from')));
  if (filter.to != null) where.push(lt(time, storableInstant(filter.to, 'to')));
  return where;
}
