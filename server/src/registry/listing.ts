import { and, asc, desc, eq, inArray, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { devices, events, registrations } from '@vigil/drizzle/schema';
import type { Queryable } from '../db/handle.js';
import { VigilError } from '../errors.js';
import { unstorable } from '../db/safe-text.js';
import { cappedCount } from '../db/capped-count.js';
import { startsWith } from '../db/like.js';
import type { DeviceStatus, Registration } from './state.js';

export interface DeviceFilter {
  role?: string | undefined;
  /** Registration metadata `branch`. */
  branch?: string | undefined;
  status?: DeviceStatus | undefined;
  userId?: string | undefined;
  /** A tag of the device's latest event. */
  tag?: string | undefined;
  /** The device id starts with this text (case-sensitive, `%` and `_` literal). */
  idPrefix?: string | undefined;
  /** The registered user's id starts with this text (case-sensitive, `%` and `_` literal). */
  userIdPrefix?: string | undefined;
}

/** `last_seen` is newest first; never-seen devices sort last in every order, as do never-scored ones by risk. */
export const deviceSorts = ['device_id', 'last_seen', 'last_seen_asc', 'risk_desc', 'risk_asc'] as const;
export type DeviceSort = (typeof deviceSorts)[number];

export interface DevicePageRequest {
  filter: DeviceFilter;
  sort: DeviceSort;
  limit: number;
  cursor?: string | undefined;
  /** How the caller named the cursor, for the error when it is not one (`cursor`, `after`). */
  cursorField?: string;
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
  /** The cursor after each device, to resume right after it (an export's rows, a connection's edges). */
  cursors: string[];
  nextCursor: string | null;
}

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 500;

export const deviceIdExpr = sql<string>`COALESCE(${registrations.deviceId}, ${devices.deviceId})`;
// Null for never-seen (registered only) devices. Milliseconds as float8 are exact for JS dates.
const lastSeenMs = sql<number | null>`(extract(epoch from ${devices.lastSeen}) * 1000)::float8`;
/** Risk: the score of the device's latest event (latest as in latestEventsOf), null when it sent none. */
const latestRisk = sql<number | null>`(SELECT e.risk_score FROM ${events} e WHERE e.device_id = ${deviceIdExpr}
  ORDER BY e.occurred_at DESC, e.id DESC LIMIT 1)`;

const fields = {
  deviceId: deviceIdExpr,
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

/**
 * The device id as the shape's driving table has it: equal to COALESCE(…) there, but a plain column, so its index
 * serves a prefix, an order and a keyset position (a page by id then reads a page, not every row).
 */
const idColumn = (shape: Shape) => (shape === 'registered' ? registrations.deviceId : shape === 'unregistered' ? devices.deviceId : deviceIdExpr);

const registryFiltered = (f: DeviceFilter) => f.role !== undefined || f.branch !== undefined || f.userId !== undefined || f.userIdPrefix !== undefined;

/** The cheapest join that can answer the filter: a registry filter never needs devices that are not registered. */
export function shapeOf(filter: DeviceFilter): Shape {
  if (filter.status === 'unregistered') return 'unregistered';
  if (filter.status || registryFiltered(filter)) return 'registered';
  return 'all';
}

export function conditions(filter: DeviceFilter): SQL[] {
  const where: SQL[] = [];
  const shape = shapeOf(filter);
  if (filter.status === 'unregistered') {
    where.push(isNull(registrations.deviceId));
    // A registry filter cannot match a device without registration.
    if (registryFiltered(filter)) where.push(sql`false`);
  } else if (filter.status) where.push(eq(registrations.status, filter.status));
  if (filter.role !== undefined) where.push(eq(registrations.role, filter.role));
  if (filter.branch !== undefined) where.push(sql`(${registrations.metadata}->>'branch') = ${filter.branch}`);
  if (filter.userId !== undefined) where.push(eq(registrations.userId, filter.userId));
  if (filter.userIdPrefix !== undefined) where.push(startsWith(registrations.userId, filter.userIdPrefix));
  if (filter.idPrefix !== undefined) {
    // On the driving table's own column, so its index serves the prefix (see `from` for the full join).
    where.push(startsWith(idColumn(shape), filter.idPrefix));
  }
  if (filter.tag !== undefined) {
    where.push(
      sql`(SELECT ${events.tags} FROM ${events} WHERE ${events.deviceId} = ${deviceIdExpr} ORDER BY ${events.occurredAt} DESC LIMIT 1) @> ARRAY[${filter.tag}]::text[]`,
    );
  }
  return where;
}

export function from<S extends SelectedFields>(db: Queryable, shape: Shape, selection: S, idPrefix?: string) {
  const on = eq(devices.deviceId, registrations.deviceId);
  const select = db.select(selection);
  if (shape === 'registered') return select.from(registrations).leftJoin(devices, on);
  if (shape === 'unregistered') return select.from(devices).leftJoin(registrations, on);
  if (idPrefix === undefined) return select.from(registrations).fullJoin(devices, on);
  // A condition above a full join is applied after it (both tables read whole): each side is narrowed first,
  // under its own table's name, so the columns the rest of the query names still resolve.
  const narrowed = db.select().from(registrations).where(startsWith(registrations.deviceId, idPrefix)).as('registrations');
  const seen = db.select().from(devices).where(startsWith(devices.deviceId, idPrefix)).as('devices');
  return select.from(narrowed).fullJoin(seen, on);
}

interface Cursor {
  /** Sort value (last seen in ms, a risk score), null for the device_id sort and for devices without one. */
  s: number | null;
  id: string;
  /** Which order the cursor belongs to; when given, a cursor of another order is refused. */
  t?: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c.t === undefined ? [c.s, c.id] : [c.s, c.id, c.t])).toString('base64url');
}

export function decodeCursor(text: string, field = 'cursor', order?: string): Cursor {
  try {
    const [s, id, t] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [unknown, unknown, unknown];
    // The cursor comes back from the caller: its id goes into SQL, so it must be text PostgreSQL accepts.
    if ((s === null || Number.isFinite(s)) && typeof id === 'string' && !unstorable(id) && t === order) return { s: s as number | null, id };
  } catch {
    // Reported below.
  }
  throw new VigilError('validation_failed', `${field} is not a cursor this API returned${order ? ` for sort ${order}` : ''}`, {
    errors: [{ path: field, message: 'must be a cursor returned by a previous page of the same sort' }],
  });
}

/** Each order: a nullable key (nulls last), its direction, and the device id breaking ties. */
const orders: Record<DeviceSort, { key: SQL<number | null> | null; dir: 'asc' | 'desc' }> = {
  device_id: { key: null, dir: 'asc' },
  last_seen: { key: lastSeenMs, dir: 'desc' },
  last_seen_asc: { key: lastSeenMs, dir: 'asc' },
  risk_desc: { key: latestRisk, dir: 'desc' },
  risk_asc: { key: latestRisk, dir: 'asc' },
};

/** Rows after the cursor's device in `ORDER BY key dir NULLS LAST, id`: the cursor holds two values, however deep. */
function after(sort: DeviceSort, c: Cursor, idExpr: SQLWrapper): SQL {
  const { key, dir } = orders[sort];
  const id = sql`${idExpr} > ${c.id}`;
  if (key === null) return id;
  if (c.s === null) return sql`(${key} IS NULL AND ${id})`;
  const beyond = dir === 'desc' ? sql`${key} < ${c.s}::float8` : sql`${key} > ${c.s}::float8`;
  return sql`(${beyond} OR (${key} = ${c.s}::float8 AND ${id}) OR ${key} IS NULL)`;
}

/** The statement of one page (limit + 1 rows, to know whether more follow). */
export function deviceListQuery(db: Queryable, request: DevicePageRequest) {
  const { filter, sort, limit } = request;
  const { key, dir } = orders[sort];
  const shape = shapeOf(filter);
  const id = idColumn(shape);
  const where = conditions(filter);
  if (request.cursor) where.push(after(sort, decodeCursor(request.cursor, request.cursorField ?? 'cursor', sort), id));
  // The key is selected too, so ORDER BY reuses its value (the risk is a probe of the device's latest event).
  const sortKey = key ?? sql<null>`NULL::float8`;
  const order = key === null ? [asc(id)] : [sql`${key} ${sql.raw(dir)} NULLS LAST`, asc(id)];
  return from(db, shape, { ...fields, sortKey }, filter.idPrefix)
    .where(and(...where))
    .orderBy(...order)
    .limit(limit + 1);
}

/** Keyset paging: stable under inserts, and each page costs the same however deep it is. */
export async function listDevices(db: Queryable, request: DevicePageRequest): Promise<DevicePage> {
  const { sort, limit } = request;
  const rows = await deviceListQuery(db, request);
  const page = rows.slice(0, limit);
  const cursors = page.map((r) => encodeCursor({ s: r.sortKey === null ? null : Number(r.sortKey), id: r.deviceId, t: sort }));
  return { devices: page.map(toSummary), cursors, nextCursor: rows.length > limit ? cursors.at(-1)! : null };
}

/** With `cap`, reads at most that many devices and refuses to count more (see cappedCount). */
export async function countDevices(db: Queryable, filter: DeviceFilter, cap: number | null = null): Promise<number> {
  const where = and(...conditions(filter));
  if (cap !== null) return cappedCount(db, from(db, shapeOf(filter), { one: sql`1` }, filter.idPrefix).where(where) as never, cap, 'devices totalCount');
  const [row] = await from(db, shapeOf(filter), { n: sql<number>`count(*)::int` }, filter.idPrefix).where(where);
  return Number(row!.n);
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

/** What a device's latest event says now: its tags and its score (the device's risk). */
export interface LatestEvent {
  tags: string[];
  riskScore: number | null;
}

/** The latest event of each device, one query for a whole page: one index probe per device, not all its events. */
export async function latestEventsOf(db: Queryable, deviceIds: readonly string[]): Promise<Map<string, LatestEvent>> {
  const out = new Map<string, LatestEvent>(deviceIds.map((id) => [id, { tags: [], riskScore: null }]));
  if (deviceIds.length === 0) return out;
  const latest = db
    .select({ deviceId: events.deviceId, tags: events.tags, riskScore: events.riskScore })
    .from(events)
    .where(sql`${events.deviceId} = q.k`)
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(1)
    .as('latest');
  const rows = await db
    .select({ deviceId: latest.deviceId, tags: latest.tags, riskScore: latest.riskScore })
    .from(sql`json_array_elements_text(${JSON.stringify(deviceIds)}::json) AS q(k)`)
    .crossJoinLateral(latest);
  for (const r of rows) if (r.deviceId) out.set(r.deviceId, { tags: r.tags, riskScore: r.riskScore });
  return out;
}
