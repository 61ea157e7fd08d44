import { sql, type Sql } from '../db/statement.js';
import { keys, ms, probe, records } from '../db/compose.js';
import { newId } from '../ids.js';
import { cachedAll, factKey, staleWhen, type CachedPart, type FactCache } from './fact-cache.js';
import type { NormalizedEvent } from './event.js';

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

type Sighted = { event: NormalizedEvent; handprintId: string };

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
 * A map's entries in key order. Rows are handed over in key order, so concurrent batches usually lock them in the
 * same order; the plan decides in the end, and the rare deadlock is retried by the ingestor.
 */
export const byKey = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

function spansOf(batch: readonly Sighted[]) {
  const devices = new Map<string, Span>();
  const handprints = new Map<string, Span>();
  for (const { event, handprintId } of batch) {
    if (event.deviceId) widen(devices, event.deviceId, event, handprintId);
    widen(handprints, handprintId, event, handprintId);
  }
  return { devices: byKey(devices), handprints: byKey(handprints) };
}

const idsOf = (batch: readonly Sighted[]) => ({
  devices: [...new Set(batch.map((b) => b.event.deviceId).filter((d): d is string => d !== null))],
  handprints: [...new Set(batch.map((b) => b.handprintId))],
});

const DEVICE_ROW = sql`json_build_array(d.device_id, ${ms('d.first_seen')}, ${ms('d.last_seen')}, d.model, d.os_version)`;
const HANDPRINT_ROW = sql`json_build_array(h.handprint_id, ${ms('h.first_seen')}, ${ms('h.last_seen')})`;

/** The stored rows of the batch's devices and handprints, as two parts of the batch's read. */
export function readSightings(batch: readonly Sighted[]): Sql[] {
  const ids = idsOf(batch);
  return [
    ids.devices.length === 0
      ? sql`NULL::json`
      : sql`(SELECT json_agg(${DEVICE_ROW}) FROM ${keys(ids.devices)} CROSS JOIN ${probe(sql`SELECT * FROM devices WHERE device_id = q.k`)} AS d)`,
    sql`(SELECT json_agg(${HANDPRINT_ROW}) FROM ${keys(ids.handprints)} CROSS JOIN ${probe(sql`SELECT * FROM handprints WHERE handprint_id = q.k`)} AS h)`,
  ];
}

/** The two parts of `readSightings` from the cache, each undefined when one of its rows is not cached. */
export function cachedSightings(batch: readonly Sighted[], cache: FactCache): (CachedPart | undefined)[] {
  const ids = idsOf(batch);
  const devices = cachedAll<DeviceRow>(cache, ids.devices, factKey.device);
  const handprints = cachedAll<HandprintRow>(cache, ids.handprints, factKey.handprint);
  const rows = <T>(found: { v: T | null }[]) => found.flatMap((f) => (f.v === null ? [] : [f.v]));
  // last_seen is left out of the check: it is in no answer, only decides whether a row is refreshed (GREATEST
  // makes an early refresh harmless), and checking it would fail every batch that met another's refresh.
  const answered = <T extends unknown[]>(found: { k: string; v: T | null }[]) => found.map(({ k, v }) => ({ k, v: v && [v[0], v[1], ...v.slice(3)] }));
  return [
    ids.devices.length === 0
      ? { facts: null }
      : devices && {
          facts: rows(devices),
          stale: () =>
            staleWhen(
              answered(devices),
              sql`SELECT jsonb_build_array(d.device_id, ${ms('d.first_seen')}, d.model, d.os_version) FROM devices d WHERE d.device_id = q.k`,
            ),
        },
    handprints && {
      facts: rows(handprints),
      stale: () =>
        staleWhen(answered(handprints), sql`SELECT jsonb_build_array(h.handprint_id, ${ms('h.first_seen')}) FROM handprints h WHERE h.handprint_id = q.k`),
    },
  ];
}

type DeviceRow = [key: string, firstMs: number, lastMs: number, model: string | null, osVersion: string | null];
type HandprintRow = [key: string, firstMs: number, lastMs: number];

const iso = (d: Date) => d.toISOString();

/**
 * A batch's span against its stored row: the first sighting to answer (the earlier of the two), and whether the
 * row's times need writing (an earlier first sighting, or a last_seen older than the resolution).
 */
function against(span: Span, firstMs: number, lastMs: number): { firstSeen: Date; moved: boolean } {
  const earlier = span.first.getTime() < firstMs;
  return {
    firstSeen: earlier ? span.first : new Date(firstMs),
    moved: earlier || span.last.getTime() - lastMs >= LAST_SEEN_RESOLUTION_MS,
  };
}

/**
 * First sightings of the batch's devices and handprints (the earliest *event* time, so an offline event synced
 * late still dates its device correctly), and the writes that record the batch.
 *
 * Written to avoid row locks on the hot path: new rows are inserted, known rows were only read, and a known row
 * is updated only when something changed (an earlier first sighting, a stale last_seen, a new model). A row
 * another batch inserted since the read is merged by the insert's conflict clause, as the update would have; this
 * batch then answers from its own events (both batches saw a new device).
 */
export function resolveSightings(
  batch: readonly Sighted[],
  [deviceRows, handprintRows]: unknown[],
): { sightings: Sightings; writes: Sql[]; remember(cache: FactCache): void } {
  const spans = spansOf(batch);
  const storedDevices = new Map(((deviceRows as DeviceRow[] | null) ?? []).map((r) => [r[0], r]));
  const storedHandprints = new Map(((handprintRows as HandprintRow[] | null) ?? []).map((r) => [r[0], r]));

  const devices = new Map<string, DeviceSighting>();
  // The rows as they are once the write commits (what a read would then return), for the cache.
  const deviceAfter: DeviceRow[] = [];
  const handprintAfter: HandprintRow[] = [];
  const newDevices: object[] = [];
  const changedDevices: object[] = [];
  for (const [k, s] of spans.devices) {
    const row = storedDevices.get(k);
    if (!row) {
      devices.set(k, { firstSeen: s.first, model: s.model, osVersion: s.osVersion });
      deviceAfter.push([k, s.first.getTime(), s.last.getTime(), s.model, s.osVersion]);
      newDevices.push({ id: newId('dev'), k, f: iso(s.first), l: iso(s.last), hp: s.lastHandprint, model: s.model, os: s.osVersion });
      continue;
    }
    const [, firstMs, lastMs, storedModel, storedOs] = row;
    const { firstSeen, moved } = against(s, firstMs, lastMs);
    const model = s.model ?? storedModel;
    const osVersion = s.osVersion ?? storedOs;
    devices.set(k, { firstSeen, model, osVersion });
    if (moved || model !== storedModel || osVersion !== storedOs) {
      changedDevices.push({ k, f: iso(s.first), l: iso(s.last), hp: s.lastHandprint, model, os: osVersion });
      deviceAfter.push([k, Math.min(firstMs, s.first.getTime()), Math.max(lastMs, s.last.getTime()), model, osVersion]);
    } else deviceAfter.push(row);
  }

  const handprints = new Map<string, Date>();
  const newHandprints: object[] = [];
  const changedHandprints: object[] = [];
  for (const [k, s] of spans.handprints) {
    const row = storedHandprints.get(k);
    if (!row) {
      handprints.set(k, s.first);
      handprintAfter.push([k, s.first.getTime(), s.last.getTime()]);
      newHandprints.push({ k, f: iso(s.first), l: iso(s.last) });
      continue;
    }
    const [, firstMs, lastMs] = row;
    const { firstSeen, moved } = against(s, firstMs, lastMs);
    handprints.set(k, firstSeen);
    if (moved) {
      changedHandprints.push({ k, f: iso(s.first), l: iso(s.last) });
      handprintAfter.push([k, Math.min(firstMs, s.first.getTime()), Math.max(lastMs, s.last.getTime())]);
    } else handprintAfter.push(row);
  }

  const writes: Sql[] = [];
  if (newDevices.length > 0) {
    writes.push(sql`INSERT INTO devices (id, device_id, first_seen, last_seen, handprint_id, model, os_version)
      SELECT id, k, f, l, hp, model, os FROM ${records(newDevices, 'id text, k text, f timestamptz, l timestamptz, hp text, model text, os text')}
      ON CONFLICT (device_id) DO UPDATE SET first_seen = LEAST(devices.first_seen, excluded.first_seen),
        last_seen = GREATEST(devices.last_seen, excluded.last_seen),
        handprint_id = CASE WHEN excluded.last_seen >= devices.last_seen THEN excluded.handprint_id ELSE devices.handprint_id END,
        model = COALESCE(excluded.model, devices.model), os_version = COALESCE(excluded.os_version, devices.os_version)
      WHERE devices.first_seen > excluded.first_seen OR devices.last_seen < excluded.last_seen
        OR (excluded.model IS NOT NULL AND excluded.model IS DISTINCT FROM devices.model)
        OR (excluded.os_version IS NOT NULL AND excluded.os_version IS DISTINCT FROM devices.os_version)`);
  }
  if (changedDevices.length > 0) {
    writes.push(sql`UPDATE devices d SET first_seen = LEAST(d.first_seen, u.f), last_seen = GREATEST(d.last_seen, u.l),
        handprint_id = CASE WHEN u.l >= d.last_seen THEN u.hp ELSE d.handprint_id END, model = u.model, os_version = u.os
      FROM (SELECT * FROM ${records(changedDevices, 'k text, f timestamptz, l timestamptz, hp text, model text, os text')} ORDER BY k) u
      WHERE d.device_id = u.k`);
  }
  if (newHandprints.length > 0) {
    writes.push(sql`INSERT INTO handprints (handprint_id, first_seen, last_seen)
      SELECT k, f, l FROM ${records(newHandprints, 'k text, f timestamptz, l timestamptz')}
      ON CONFLICT (handprint_id) DO UPDATE SET first_seen = LEAST(handprints.first_seen, excluded.first_seen),
        last_seen = GREATEST(handprints.last_seen, excluded.last_seen)
      WHERE handprints.first_seen > excluded.first_seen OR handprints.last_seen < excluded.last_seen`);
  }
  if (changedHandprints.length > 0) {
    writes.push(sql`UPDATE handprints h SET first_seen = LEAST(h.first_seen, u.f), last_seen = GREATEST(h.last_seen, u.l)
      FROM (SELECT * FROM ${records(changedHandprints, 'k text, f timestamptz, l timestamptz')} ORDER BY k) u
      WHERE h.handprint_id = u.k`);
  }
  const remember = (cache: FactCache) => {
    for (const row of deviceAfter) cache.set(factKey.device(row[0]), row);
    for (const row of handprintAfter) cache.set(factKey.handprint(row[0]), row);
  };
  return { sightings: { devices, handprints }, writes, remember };
}
