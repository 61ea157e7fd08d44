import { and, sql, type SQL } from 'drizzle-orm';
import { events, registrations } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import { conditions, deviceIdExpr, from, shapeOf, type DeviceFilter } from '../registry/listing.js';
import type { DeviceStatus } from '../registry/state.js';
import { MAX_STATS_ROWS, statsRows } from './stats-rows.js';

export type DeviceGroupKey = 'status' | 'role' | 'branch' | 'tag';

/** One group; a key not grouped on is null, as is a grouped key the devices lack (no registration, no tag). */
export interface DeviceStatsRow {
  status: DeviceStatus | null;
  role: string | null;
  branch: string | null;
  tag: string | null;
  count: number;
}

const ORDER: DeviceGroupKey[] = ['status', 'role', 'branch', 'tag'];

// The same notion of a device's tags as the listing's tag filter: the tags of its latest event. A device counts
// once under each; one without events or tags counts under tag null.
const TAGS = sql`CROSS JOIN LATERAL unnest(COALESCE(NULLIF(
    (SELECT ${events.tags} FROM ${events} WHERE ${events.deviceId} = d.device_id ORDER BY ${events.occurredAt} DESC LIMIT 1),
    '{}'::text[]), ARRAY[NULL]::text[])) AS t(tag)`;

/** The statement deviceStats runs (exported for the benchmark). */
export function deviceStatsQuery(db: Queryable, filter: DeviceFilter, groupBy: readonly DeviceGroupKey[]): SQL {
  const keys = ORDER.filter((k) => groupBy.includes(k));
  // The listing's own join and conditions, so a filter means here what it means in `devices`.
  const matching = from(db, shapeOf(filter), {
    device_id: deviceIdExpr.as('device_id'),
    status: sql<string>`COALESCE(${registrations.status}, 'unregistered')`.as('status'),
    role: sql<string | null>`${registrations.role}`.as('role'),
    branch: sql<string | null>`${registrations.metadata}->>'branch'`.as('branch'),
  }).where(and(...conditions(filter)));
  const columns = keys.map((k) => sql.raw(k === 'tag' ? 't.tag AS tag' : `d.${k}`));
  const positions = sql.raw(keys.map((_, i) => String(i + 1)).join(', '));
  return sql`SELECT ${sql.join([...columns, sql`count(*)::int AS n`], sql`, `)}
    FROM (${matching}) AS d ${keys.includes('tag') ? TAGS : sql``}
    ${keys.length > 0 ? sql`GROUP BY ${positions} ORDER BY ${positions}` : sql``}
    LIMIT ${MAX_STATS_ROWS + 1}`;
}

/** Devices (registered, seen or both, as `devices` lists them) matching the filter, counted per group. */
export async function deviceStats(db: Queryable, filter: DeviceFilter, groupBy: readonly DeviceGroupKey[]): Promise<DeviceStatsRow[]> {
  const rows = await statsRows<Record<string, unknown>>(db, deviceStatsQuery(db, filter, groupBy), 'deviceStats');
  const text = (v: unknown) => (v == null ? null : String(v));
  return rows.map((r) => ({
    status: text(r.status) as DeviceStatus | null,
    role: text(r.role),
    branch: text(r.branch),
    tag: text(r.tag),
    count: Number(r.n),
  }));
}
