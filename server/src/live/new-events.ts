import { and, asc, getTableColumns, inArray, sql } from 'drizzle-orm';
import { events } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import { eventConditions, type EventFilter } from '../reporting/event-filter.js';
import type { EventSummary } from '../reporting/events.js';

const { keyId: _keyId, idempotencyKey: _idem, ...columns } = getTableColumns(events);

/** Filters per statement: each is one boolean column, and a select list has at most 1,664. */
const FILTERS_PER_READ = 200;

/**
 * New events by id, with which of `filters` each one matches: the filters go through `eventConditions`, so a live
 * filter means exactly what the same filter means in the `events` listing. One statement per 200 distinct filters,
 * however many subscribers share them. Rows come in received order.
 */
export async function matchNewEvents(
  db: Queryable,
  ids: readonly string[],
  filters: readonly EventFilter[],
): Promise<{ event: EventSummary; matches: boolean[] }[]> {
  if (ids.length === 0 || filters.length === 0) return [];
  const out = new Map<string, { event: EventSummary; matches: boolean[] }>();
  for (let start = 0; start < filters.length; start += FILTERS_PER_READ) {
    const part = filters.slice(start, start + FILTERS_PER_READ);
    const flags = Object.fromEntries(part.map((f, i) => [`m${i}`, sql<boolean>`coalesce((${and(...eventConditions(f)) ?? sql`true`}), false)`]));
    const rows = (await db
      .select({ ...columns, ...flags })
      .from(events)
      .where(inArray(events.id, [...ids]))
      .orderBy(asc(events.receivedAt), asc(events.id))) as Record<string, unknown>[];
    for (const row of rows) {
      const id = row.id as string;
      let entry = out.get(id);
      if (!entry) {
        const event = Object.fromEntries(Object.keys(columns).map((k) => [k, row[k]])) as unknown as EventSummary;
        entry = { event, matches: new Array<boolean>(filters.length).fill(false) };
        out.set(id, entry);
      }
      part.forEach((_, i) => (entry!.matches[start + i] = row[`m${i}`] === true));
    }
  }
  return [...out.values()];
}
