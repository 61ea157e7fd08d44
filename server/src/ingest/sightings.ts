import { sql } from 'drizzle-orm';
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

/**
 * Records when each device and handprint in the batch was seen and returns their first sighting. First seen is
 * the earliest *event* time, so an offline event synced late still dates the device correctly. Rows are written
 * in key order so concurrent group commits lock them in the same order and cannot deadlock.
 */
export async function recordSightings(tx: Tx, batch: { event: NormalizedEvent; handprintId: string }[]): Promise<Sightings> {
  const deviceSpans = new Map<string, Span>();
  const handprintSpans = new Map<string, Span>();
  for (const { event, handprintId } of batch) {
    if (event.deviceId) widen(deviceSpans, event.deviceId, event, handprintId);
    widen(handprintSpans, handprintId, event, handprintId);
  }
  const result: Sightings = { devices: new Map(), handprints: new Map() };

  if (deviceSpans.size > 0) {
    const rows = [...deviceSpans].sort(([a], [b]) => (a < b ? -1 : 1));
    const written = await tx
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
      .onConflictDoUpdate({
        target: devices.deviceId,
        set: {
          firstSeen: sql`LEAST(${devices.firstSeen}, excluded.first_seen)`,
          lastSeen: sql`GREATEST(${devices.lastSeen}, excluded.last_seen)`,
          handprintId: sql`CASE WHEN excluded.last_seen >= ${devices.lastSeen} THEN excluded.handprint_id ELSE ${devices.handprintId} END`,
          model: sql`COALESCE(excluded.model, ${devices.model})`,
          osVersion: sql`COALESCE(excluded.os_version, ${devices.osVersion})`,
        },
      })
      .returning({ deviceId: devices.deviceId, firstSeen: devices.firstSeen, model: devices.model, osVersion: devices.osVersion });
    for (const row of written) result.devices.set(row.deviceId, { firstSeen: row.firstSeen, model: row.model, osVersion: row.osVersion });
  }

  const rows = [...handprintSpans].sort(([a], [b]) => (a < b ? -1 : 1));
  const written = await tx
    .insert(handprints)
    .values(rows.map(([handprintId, s]) => ({ handprintId, firstSeen: s.first, lastSeen: s.last })))
    .onConflictDoUpdate({
      target: handprints.handprintId,
      set: {
        firstSeen: sql`LEAST(${handprints.firstSeen}, excluded.first_seen)`,
        lastSeen: sql`GREATEST(${handprints.lastSeen}, excluded.last_seen)`,
      },
    })
    .returning({ handprintId: handprints.handprintId, firstSeen: handprints.firstSeen });
  for (const row of written) result.handprints.set(row.handprintId, row.firstSeen);
  return result;
}
