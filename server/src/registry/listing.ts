import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { devices, events, registrations } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import { VigilError } from '../errors.js';
import { unstorable } from '../db/safe-text.js';
import { cappedCount } from '../db/capped-count.js';
import type { Registration } from './state.js';
import type { DeviceStatus } from './views.js';

export interface DeviceFilter {
  role?: string | undefined;
  /** Registration metadata `branch`. */
  branch?: string | undefined;
  status?: DeviceStatus | undefined;
  userId?: string | undefined;
  /** A tag of the device's latest event. */
  tag?: string | undefined;
}

export type DeviceSort = 'device_id' | 'last_seen';

export interface DevicePageRequest {
  filter: DeviceFilter;
  sort: DeviceSort;
  limit: number;
  cursor?: string | undefined;
}

/** One device as listings see it: what events taught (first/last seen…) and its registration, if any. */
export interface DeviceSummary {
  deviceId: string;
  status: DeviceStatus;
  registration: Registration | null;
  firstSeen: Date | null;
  lastSeen: Date | null;
  handprintId: string | null;
  model: string | null;
  osVersion: string | null;
}

export interface DevicePage {
  devices: DeviceSummary[];
  nextCursor: string | null;
}

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 500;

export const deviceIdExpr = sql<string>`COALESCE(${registrations.deviceId}, ${devices.deviceId})`;
// Never-seen (registered only) devices sort last by last_seen. Milliseconds as float8 are exact for JS dates.
const lastSeenMs = sql<number>`(extract(epoch from COALESCE(${devices.lastSeen}, 'epoch'::timestamptz)) * 1000)::float8`;

const fields = {
  deviceId: deviceIdExpr,
  sortMs: lastSeenMs,
  firstSeen: devices.firstSeen,
  lastSeen: devices.lastSeen,
  handprintId: devices.handprintId,
  model: devices.model,
  osVersion: devices.osVersion,
  regDeviceId: registrations.deviceId,
  userId: registrations.userId,
  role: registrations.role,
  metadata: registrations.metadata,
  status: registrations.status,
  registeredAt: registrations.registeredAt,
  associatedSince: registrations.associatedSince,
  deactivatedAt: registrations.deactivatedAt,
  deactivationReason: registrations.deactivationReason,
  deactivatedBy: registrations.deactivatedBy,
  conflictAt: registrations.conflictAt,
};

export type Shape = 'registered' | 'unregistered' | 'all';

/** The cheapest join that can answer the filter: a registry filter never needs devices that are not registered. */
export function shapeOf(filter: DeviceFilter): Shape {
  if (filter.status === 'unregistered') return 'unregistered';
  if (filter.status || filter.role !== undefined || filter.branch !== undefined || filter.userId !== undefined) return 'registered';
  return 'all';
}

export function conditions(filter: DeviceFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.status === 'unregistered') {
    where.push(isNull(registrations.deviceId));
    // A registry filter cannot match a device without registration.
    if (filter.role !== undefined || filter.branch !== undefined || filter.userId !== undefined) where.push(sql`false`);
  } else if (filter.status) where.push(eq(registrations.status, filter.status));
  if (filter.role !== undefined) where.push(eq(registrations.role, filter.role));
  if (filter.branch !== undefined) where.push(sql`(${registrations.metadata}->>'branch') = ${filter.branch}`);
  if (filter.userId !== undefined) where.push(eq(registrations.userId, filter.userId));
  if (filter.tag !== undefined) {
    where.push(
      sql`(SELECT ${events.tags} FROM ${events} WHERE ${events.deviceId} = ${deviceIdExpr} ORDER BY ${events.occurredAt} DESC LIMIT 1) @> ARRAY[${filter.tag}]::text[]`,
    );
  }
  return where;
}

export function from(db: Queryable, shape: Shape, selection: Record<string, unknown>) {
  const on = eq(devices.deviceId, registrations.deviceId);
  const select = db.select(selection as typeof fields);
  if (shape === 'registered') return select.from(registrations).leftJoin(devices, on);
  if (shape === 'unregistered') return select.from(devices).leftJoin(registrations, on);
  return select.from(registrations).fullJoin(devices, on);
}

interface Cursor {
  /** Sort value: last seen in ms (last_seen sort) or null (device_id sort). */
  s: number | null;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.s, c.id])).toString('base64url');
}

export function decodeCursor(text: string, field = 'cursor'): Cursor {
  try {
    const [s, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [unknown, unknown];
    // The cursor comes back from the caller: its id goes into SQL, so it must be text PostgreSQL accepts.
    if ((s === null || Number.isFinite(s)) && typeof id === 'string' && !unstorable(id)) return { s: s as number | null, id };
  } catch {
    // Reported below.
  }
  throw new VigilError('validation_failed', `${field} is not a cursor this API returned`, {
    errors: [{ path: field, message: 'must be a cursor returned by a previous page' }],
  });
}

/** Keyset paging: stable under inserts, and each page costs the same however deep it is. */
export async function listDevices(db: Queryable, request: DevicePageRequest): Promise<DevicePage> {
  const where = conditions(request.filter);
  if (request.cursor) {
    const c = decodeCursor(request.cursor);
    if (request.sort === 'device_id') where.push(sql`${deviceIdExpr} > ${c.id}`);
    else where.push(or(sql`${lastSeenMs} < ${c.s ?? 0}`, and(sql`${lastSeenMs} = ${c.s ?? 0}`, sql`${deviceIdExpr} > ${c.id}`))!);
  }
  const order = request.sort === 'device_id' ? [asc(deviceIdExpr)] : [desc(lastSeenMs), asc(deviceIdExpr)];
  const rows = await from(db, shapeOf(request.filter), fields)
    .where(and(...where))
    .orderBy(...order)
    .limit(request.limit + 1);
  const page = rows.slice(0, request.limit);
  const last = page.at(-1);
  return {
    devices: page.map(toSummary),
    nextCursor:
      rows.length > request.limit && last
        ? encodeCursor({ s: request.sort === 'last_seen' ? Number(last.sortMs) : null, id: last.deviceId })
        : null,
  };
}

/** With `cap`, reads at most that many devices and refuses to count more (see cappedCount). */
export async function countDevices(db: Queryable, filter: DeviceFilter, cap: number | null = null): Promise<number> {
  if (cap !== null) return cappedCount(db, from(db, shapeOf(filter), { one: sql`1` }).where(and(...conditions(filter))) as never, cap, 'devices totalCount');
  const [row] = await from(db, shapeOf(filter), { n: sql<number>`count(*)::int` }).where(and(...conditions(filter)));
  return Number((row as unknown as { n: number }).n);
}

/** Summaries of given devices (for `device(id)`), unknown ids omitted. */
export async function devicesById(db: Queryable, deviceIds: readonly string[]): Promise<Map<string, DeviceSummary>> {
  if (deviceIds.length === 0) return new Map();
  const ids = [...deviceIds];
  // Two index lookups: a condition on the full join's COALESCE(device_id) would read both tables whole.
  const registered = await from(db, 'registered', fields).where(inArray(registrations.deviceId, ids));
  const seenOnly = await from(db, 'unregistered', fields).where(and(inArray(devices.deviceId, ids), isNull(registrations.deviceId)));
  return new Map([...registered, ...seenOnly].map((r) => [r.deviceId, toSummary(r)]));
}

type Row = { [K in keyof typeof fields]: unknown };

function toSummary(raw: Row): DeviceSummary {
  const r = raw as {
    deviceId: string;
    firstSeen: Date | null;
    lastSeen: Date | null;
    handprintId: string | null;
    model: string | null;
    osVersion: string | null;
    regDeviceId: string | null;
    userId: string;
    role: string | null;
    metadata: Record<string, unknown>;
    status: 'active' | 'deactivated';
    registeredAt: Date;
    associatedSince: Date;
    deactivatedAt: Date | null;
    deactivationReason: string | null;
    deactivatedBy: string | null;
    conflictAt: Date | null;
  };
  const registration: Registration | null = r.regDeviceId
    ? {
        deviceId: r.regDeviceId,
        userId: r.userId,
        role: r.role,
        metadata: r.metadata,
        status: r.status,
        registeredAt: r.registeredAt,
        associatedSince: r.associatedSince,
        deactivatedAt: r.deactivatedAt,
        deactivationReason: r.deactivationReason,
        deactivatedBy: r.deactivatedBy,
        conflictAt: r.conflictAt,
      }
    : null;
  return {
    deviceId: r.deviceId,
    status: registration?.status ?? 'unregistered',
    registration,
    firstSeen: r.firstSeen,
    lastSeen: r.lastSeen,
    handprintId: r.handprintId,
    model: r.model,
    osVersion: r.osVersion,
  };
}

/** Tags of each device's latest event, one query for a whole page: one index probe per device, not all its events. */
export async function currentTagsOf(db: Queryable, deviceIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return out;
  const latest = db
    .select({ deviceId: events.deviceId, tags: events.tags })
    .from(events)
    .where(sql`${events.deviceId} = q.k`)
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(1)
    .as('latest');
  const rows = await db
    .select({ deviceId: latest.deviceId, tags: latest.tags })
    .from(sql`json_array_elements_text(${JSON.stringify(deviceIds)}::json) AS q(k)`)
    .crossJoinLateral(latest);
  for (const r of rows) if (r.deviceId) out.set(r.deviceId, r.tags);
  return out;
}
