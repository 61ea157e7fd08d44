import { gte, lt, lte, eq, sql, type SQL } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';

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
}

/** The WHERE conditions of a filter on the events table (empty: every event). */
export function eventConditions(filter: EventFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.deviceId != null) where.push(eq(events.deviceId, filter.deviceId));
  if (filter.identity != null) where.push(eq(events.identity, filter.identity));
  if (filter.handprintId != null) where.push(eq(events.handprintId, filter.handprintId));
  if (filter.event != null) where.push(eq(events.name, filter.event));
  if (filter.tag != null) where.push(sql`${events.tags} @> ARRAY[${filter.tag}]::text[]`);
  if (filter.minScore != null) where.push(gte(events.riskScore, filter.minScore));
  if (filter.maxScore != null) where.push(lte(events.riskScore, filter.maxScore));
  const time = filter.timeField === 'received' ? events.receivedAt : events.occurredAt;
  if (filter.from != null) where.push(gte(time, filter.from));
  if (filter.to != null) where.push(lt(time, filter.to));
  return where;
}
