import { and, inArray, sql } from 'drizzle-orm';
import { devices, handprints } from '@vigil/drizzle/schema';
import type { Tx } from '../db/handle.js';
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

async function recordDevices(tx: Tx, spans: Map<string, Span>): Promise<Map<string, DeviceSighting>> {
  const rows = byKey(spans);
  const seen = new Map<string, DeviceSighting>();
  const inserted = await tx
    .insert(devices)
    .values(
      rows.map(([deviceId, s]) => ({
        id: newId('dev'),
        deviceId,
        firstSeen: s.first,
        lastSeen: s.last,
        handprintId: s.lastHandprint,
        model: s.model,
        osVersion: s.osVersion,
      })),
    )
    .onConflictDoNothing({ target: devices.deviceId })
    .returning({ deviceId: devices.deviceId });
  const fresh = new Set(inserted.map((r) => r.deviceId));
  for (const [deviceId, s] of rows) {
    if (fresh.has(deviceId)) seen.set(deviceId, { firstSeen: s.first, model: s.model, osVersion: s.osVersion });
  }
  const known = rows.filter(([deviceId]) => !fresh.has(deviceId));
  if (known.length === 0) return seen;

  const existing = await tx
    .select({
      deviceId: devices.deviceId,
      firstSeen: devices.firstSeen,
      lastSeen: devices.lastSeen,
      model: devices.model,
      osVersion: devices.osVersion,
    })
    .from(devices)
    .where(inArray(devices.deviceId, known.map(([id]) => id)));
  const current = new Map(existing.map((r) => [r.deviceId, r]));
  for (const [deviceId, s] of known) {
    const row = current.get(deviceId);
    if (!row) continue;
    const firstSeen = s.first < row.firstSeen ? s.first : row.firstSeen;
    const model = s.model ?? row.model;
    const osVersion = s.osVersion ?? row.osVersion;
    seen.set(deviceId, { firstSeen, model, osVersion });
    const stale = s.last.getTime() - row.lastSeen.getTime() >= LAST_SEEN_RESOLUTION_MS;
    if (firstSeen < row.firstSeen || stale || model !== row.model || osVersion !== row.osVersion) {
      await tx
        .update(devices)
        .set({
          firstSeen: sql`LEAST(${devices.firstSeen}, ${firstSeen})`,
          lastSeen: sql`GREATEST(${devices.lastSeen}, ${s.last})`,
          handprintId: s.last >= row.lastSeen ? s.lastHandprint : sql`${devices.handprintId}`,
          model,
          osVersion,
        })
        .where(inArray(devices.deviceId, [deviceId]));
    }
  }
  return seen;
}

async function recordHandprints(tx: Tx, spans: Map<string, Span>): Promise<Map<string, Date>> {
  const rows = byKey(spans);
  const seen = new Map<string, Date>();
  const inserted = await tx
    .insert(handprints)
    .values(rows.map(([handprintId, s]) => ({ handprintId, firstSeen: s.first, lastSeen: s.last })))
    .onConflictDoNothing({ target: handprints.handprintId })
    .returning({ handprintId: handprints.handprintId });
  const fresh = new Set(inserted.map((r) => r.handprintId));
  for (const [id, s] of rows) if (fresh.has(id)) seen.set(id, s.first);
  const known = rows.filter(([id]) => !fresh.has(id));
  if (known.length === 0) return seen;
  const existing = await tx
    .select({ handprintId: handprints.handprintId, firstSeen: handprints.firstSeen, lastSeen: handprints.lastSeen })
    .from(handprints)
    .where(inArray(handprints.handprintId, known.map(([id]) => id)));
  const current = new Map(existing.map((r) => [r.handprintId, r]));
  for (const [id, s] of known) {
    const row = current.get(id);
    if (!row) continue;
    seen.set(id, s.first < row.firstSeen ? s.first : row.firstSeen);
    if (s.first < row.firstSeen || s.last.getTime() - row.lastSeen.getTime() >= LAST_SEEN_RESOLUTION_MS) {
      await tx
        .update(handprints)
        .set({ firstSeen: sql`LEAST(${handprints.firstSeen}, ${s.first})`, lastSeen: sql`GREATEST(${handprints.lastSeen}, ${s.last})` })
        .where(and(inArray(handprints.handprintId, [id])));
    }
  }
  return seen;
}
