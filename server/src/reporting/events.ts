import { and, asc, desc, getTableColumns, lt, or, sql } from 'drizzle-orm';
import { events, type EventRow } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import { decodeCursor, encodeCursor } from '../registry/listing.js';
import { cappedCount } from '../db/capped-count.js';
import { eventConditions, type EventFilter } from './event-filter.js';
import { afterPosition, decodeReceivedCursor, encodeReceivedCursor, receivedMicros } from './received-cursor.js';

export type { EventFilter } from './event-filter.js';

/** What event listings carry: the stored answer too (its insights are fields of an event), not the key's secrets. */
export type EventSummary = Omit<EventRow, 'keyId' | 'idempotencyKey'>;

const { keyId: _keyId, idempotencyKey: _idem, ...summaryColumns } = getTableColumns(events);
const occurredMs = sql<number>`(extract(epoch from ${events.occurredAt}) * 1000)::float8`;

/** NEWEST_FIRST: by event time, for people; RECEIVED_ASC: by arrival, for incremental readers. */
export type EventOrder = 'newest_first' | 'received_asc';

export interface EventListOptions {
  order?: EventOrder;
  /**
   * Received order only: events received at or after this instant are left out. An event is stamped on arrival and
   * stored a moment later, so a page read up to "now" could pass over one still being stored; reading only up to a
   * settled past means a cursor never moves beyond an event that has yet to appear.
   */
  receivedBefore?: Date;
}

export interface EventPage {
  events: EventSummary[];
  cursors: string[];
  nextCursor: string | null;
}

/** Keyset-paged: newest first on (occurred_at, id), or oldest received first on (received_at, id). */
export async function listEvents(
  db: Queryable,
  filter: EventFilter,
  limit: number,
  cursor?: string | null,
  options: EventListOptions = {},
): Promise<EventPage> {
  if (options.order === 'received_asc') return listReceived(db, filter, limit, cursor, options.receivedBefore);
  const where = eventConditions(filter);
  if (cursor) {
    const c = decodeCursor(cursor, 'after');
    const at = c.s ?? 0;
    where.push(or(sql`${occurredMs} < ${at}`, and(sql`${occurredMs} = ${at}`, lt(events.id, c.id)))!);
  }
  const rows = await db
    .select({ ...summaryColumns, sortMs: occurredMs })
    .from(events)
    .where(and(...where))
    .orderBy(desc(occurredMs), desc(events.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    events: page.map(({ sortMs: _s, ...e }) => e as EventSummary),
    cursors: page.map((e) => encodeCursor({ s: Number(e.sortMs), id: e.id })),
    nextCursor: rows.length > limit && last ? encodeCursor({ s: Number(last.sortMs), id: last.id }) : null,
  };
}

async function listReceived(
  db: Queryable,
  filter: EventFilter,
  limit: number,
  cursor: string | null | undefined,
  before: Date | undefined,
): Promise<EventPage> {
  const where = eventConditions(filter);
  if (cursor) where.push(afterPosition(decodeReceivedCursor(cursor)));
  if (before) where.push(lt(events.receivedAt, before));
  const rows = await db
    .select({ ...summaryColumns, us: receivedMicros })
    .from(events)
    .where(and(...where))
    .orderBy(asc(events.receivedAt), asc(events.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const cursors = page.map((e) => encodeReceivedCursor({ us: String(e.us), id: e.id }));
  return {
    events: page.map(({ us: _us, ...e }) => e as EventSummary),
    cursors,
    nextCursor: rows.length > limit ? cursors.at(-1)! : null,
  };
}

/** With `cap`, reads at most that many events and refuses to count more (see cappedCount). */
export async function countEvents(db: Queryable, filter: EventFilter, cap: number | null = null): Promise<number> {
  if (cap !== null)
    return cappedCount(
      db,
      db
        .select({ one: sql`1` })
        .from(events)
        .where(and(...eventConditions(filter))) as never,
      cap,
      'events totalCount',
    );
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(and(...eventConditions(filter)));
  return Number(row?.n ?? 0);
}

/**
 * The latest `limit` events of each device, in one query for a whole page of devices. Each device's events are
 * read newest first from its (device_id, occurred_at) index and stop at `limit`, so a device with millions of
 * events costs what the page asks for, not what the device has sent.
 */
export async function recentEventsOf(db: Queryable, deviceIds: readonly string[], limit: number): Promise<Map<string, EventSummary[]>> {
  const out = new Map<string, EventSummary[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return out;
  const latest = db
    .select(summaryColumns)
    .from(events)
    .where(sql`${events.deviceId} = q.k`)
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(limit)
    .as('latest');
  const fields = Object.fromEntries(Object.keys(summaryColumns).map((k) => [k, latest[k as keyof typeof summaryColumns]])) as {
    [K in keyof typeof summaryColumns]: (typeof latest)[K];
  };
  const rows = await db
    .select(fields)
    .from(sql`json_array_elements_text(${JSON.stringify(deviceIds)}::json) AS q(k)`)
    .crossJoinLateral(latest);
  for (const event of rows) out.get(event.deviceId!)?.push(event);
  for (const list of out.values()) list.sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || (a.id < b.id ? 1 : -1));
  return out;
}
