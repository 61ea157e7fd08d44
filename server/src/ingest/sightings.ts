import { eq, sql } from 'drizzle-orm';
import { devices, handprints } from '@vigil/drizzle/schema';
import type { Tx } from '../db/handle.js';
import { column, epochMs, rows } from '../db/rows.js';
import { newId } from '../ids.js';
import type { NormalizedEvent } from './normalize.js';

export interface DeviceSighting {
  firstSeen: Date;
  model: string | null;
  osVersion: string | null;
}

export interface Sightings {
  devices: Map<string, DeviceSighting>;
  handprints: Map<string, Date>;
}

/**
 * `last_seen` is advanced only when it is this stale. Busy devices would otherwise take a row lock on every
 * event, and concurrent group commits would queue behind each other on their rows.
 */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

interface Span {
  first: Date;
  last: Date;
  lastHandprint: string;
  model: string | null;
  osVersion: string | null;
}

function widen(map: Map<string, Span>, key: string, e: NormalizedEvent, handprintId: string) {
  const span = map.get(key);
  if (!span) {
    map.set(key, { first: e.occurredAt, last: e.occurredAt, lastHandprint: handprintId, model: e.model, osVersion: e.osVersion });
    return;
  }
  if (e.occurredAt < span.first) span.first = e.occurredAt;
  if (e.occurredAt >= span.last) {
    span.last = e.occurredAt;
    span.lastHandprint = handprintId;
  }
  span.model = e.model ?? span.model;
  span.osVersion = e.osVersion ?? span.osVersion;
}

const byKey = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Records when each device and handprint in the batch was seen and returns their first sighting. First seen is
 * the earliest *event* time, so an offline event synced late still dates the device correctly.
 *
 * Written to avoid row locks on the hot path: new rows are inserted (conflicts ignored), known rows are only read,
 * and an UPDATE touches a row only when something changed (an earlier first sighting, a stale last_seen, a new
 * model). Rows are always visited in key order so concurrent group commits cannot deadlock.
 */
export async function recordSightings(tx: Tx, batch: { event: NormalizedEvent; handprintId: string }[]): Promise<Sightings> {
  const deviceSpans = new Map<string, Span>();
  const handprintSpans = new Map<string, Span>();
  for (const { event, handprintId } of batch) {
    if (event.deviceId) widen(deviceSpans, event.deviceId, event, handprintId);
    widen(handprintSpans, handprintId, event, handprintId);
  }
  return {
    devices: deviceSpans.size > 0 ? await recordDevices(tx, deviceSpans) : new Map(),
    handprints: await recordHandprints(tx, handprintSpans),
  };
}

interface Known {
  key: string;
  fresh: boolean;
  first_ms: number | null;
  last_ms: number | null;
  model: string | null;
  os_version: string | null;
}

/**
 * One statement inserts the new rows (conflicts ignored) and reads the known ones. A row committed by another
 * process after this statement's snapshot is neither inserted nor seen; it is read again separately (rare).
 */
async function upsertAndRead(
  tx: Tx,
  table: 'devices' | 'handprints',
  rowsIn: [string, Span][],
): Promise<Map<string, Known>> {
  const keyCol = table === 'devices' ? 'device_id' : 'handprint_id';
  const keys = rowsIn.map(([k]) => k);
  const first = rowsIn.map(([, s]) => s.first.toISOString());
  const last = rowsIn.map(([, s]) => s.last.toISOString());
  const insert =
    table === 'devices'
      ? sql`INSERT INTO devices (id, device_id, first_seen, last_seen, handprint_id, model, os_version)
            SELECT id, k, f::timestamptz, l::timestamptz, hp, model, os FROM input ORDER BY k
            ON CONFLICT (device_id) DO NOTHING RETURNING device_id AS k`
      : sql`INSERT INTO handprints (handprint_id, first_seen, last_seen)
            SELECT k, f::timestamptz, l::timestamptz FROM input ORDER BY k
            ON CONFLICT (handprint_id) DO NOTHING RETURNING handprint_id AS k`;
  const extra =
    table === 'devices'
      ? sql`, ${column(rowsIn.map(() => newId('dev')), 'text')}, ${column(rowsIn.map(([, s]) => s.lastHandprint), 'text')},
           ${column(rowsIn.map(([, s]) => s.model), 'text')}, ${column(rowsIn.map(([, s]) => s.osVersion), 'text')}`
      : sql``;
  const names = table === 'devices' ? sql`(k, f, l, id, hp, model, os)` : sql`(k, f, l)`;
  const modelCols = table === 'devices' ? sql`d.model, d.os_version` : sql`NULL::text AS model, NULL::text AS os_version`;
  const read = (where: ReturnType<typeof sql>) =>
    sql`SELECT d.${sql.raw(keyCol)} AS key, false AS fresh, ${epochMs('d.first_seen')} AS first_ms,
               ${epochMs('d.last_seen')} AS last_ms, ${modelCols}
        FROM ${sql.raw(table)} d ${where}`;
  const result = await rows<Known>(
    tx,
    sql`WITH input AS (SELECT * FROM unnest(${column(keys, 'text')}, ${column(first, 'text')}, ${column(last, 'text')}${extra}) AS t${names}),
         ins AS (${insert})
        ${read(sql`JOIN input ON input.k = d.${sql.raw(keyCol)}`)}
        UNION ALL
        SELECT k, true, NULL, NULL, NULL, NULL FROM ins`,
  );
  const found = new Map(result.map((r) => [r.key, r]));
  const missing = keys.filter((k) => !found.has(k));
  if (missing.length > 0) {
    for (const r of await rows<Known>(tx, read(sql`WHERE d.${sql.raw(keyCol)} = ANY(${column(missing, 'text')})`))) found.set(r.key, r);
  }
  return found;
}

async function recordDevices(tx: Tx, spans: Map<string, Span>): Promise<Map<string, DeviceSighting>> {
  const rowsIn = byKey(spans);
  const known = await upsertAndRead(tx, 'devices', rowsIn);
  const seen = new Map<string, DeviceSighting>();
  for (const [deviceId, s] of rowsIn) {
    const row = known.get(deviceId);
    if (!row || row.fresh) {
      seen.set(deviceId, { firstSeen: s.first, model: s.model, osVersion: s.osVersion });
      continue;
    }
    const rowFirst = new Date(row.first_ms!);
    const firstSeen = s.first < rowFirst ? s.first : rowFirst;
    const model = s.model ?? row.model;
    const osVersion = s.osVersion ?? row.os_version;
    seen.set(deviceId, { firstSeen, model, osVersion });
    const stale = s.last.getTime() - row.last_ms! >= LAST_SEEN_RESOLUTION_MS;
    if (firstSeen < rowFirst || stale || model !== row.model || osVersion !== row.os_version) {
      await tx
        .update(devices)
        .set({
          firstSeen: sql`LEAST(${devices.firstSeen}, ${firstSeen})`,
          lastSeen: sql`GREATEST(${devices.lastSeen}, ${s.last})`,
          handprintId: s.last.getTime() >= row.last_ms! ? s.lastHandprint : sql`${devices.handprintId}`,
          model,
          osVersion,
        })
        .where(eq(devices.deviceId, deviceId));
    }
  }
  return seen;
}

async function recordHandprints(tx: Tx, spans: Map<string, Span>): Promise<Map<string, Date>> {
  const rowsIn = byKey(spans);
  const known = await upsertAndRead(tx, 'handprints', rowsIn);
  const seen = new Map<string, Date>();
  for (const [id, s] of rowsIn) {
    const row = known.get(id);
    if (!row || row.fresh) {
      seen.set(id, s.first);
      continue;
    }
    const rowFirst = new Date(row.first_ms!);
    seen.set(id, s.first < rowFirst ? s.first : rowFirst);
    if (s.first < rowFirst || s.last.getTime() - row.last_ms! >= LAST_SEEN_RESOLUTION_MS) {
      await tx
        .update(handprints)
        .set({ firstSeen: sql`LEAST(${handprints.firstSeen}, ${s.first})`, lastSeen: sql`GREATEST(${handprints.lastSeen}, ${s.last})` })
        .where(eq(handprints.handprintId, id));
    }
  }
  return seen;
}
