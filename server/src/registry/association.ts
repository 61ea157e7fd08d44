import { raw, sql, type Sql } from '../db/statement.js';
import { MAX_CACHED_LIST } from '../pipeline/fact-cache.js';
import { keys, ms, probe, records } from '../db/compose.js';
import { byKey } from '../pipeline/sightings.js';

/**
 * `last_seen` of a device/identity pair is advanced only when this stale (or when it predates the device's
 * current association). The multi-user window is counted in days, so an hour of slack changes nothing, and busy
 * devices do not take a row lock per event.
 */
export const IDENTITY_LAST_SEEN_RESOLUTION_MS = 60 * 60 * 1000;

export interface Sighting {
  deviceId: string;
  identity: string;
  at: Date;
}

interface Span {
  deviceId: string;
  identity: string;
  first: Date;
  last: Date;
}

const pairKey = (deviceId: string, identity: string) => `${deviceId}\u0000${identity}`;

/**
 * Most pairs of one device a statement reads: one more than the cache keeps, since a device with more is never
 * cached, and more than enough to tell `multi_user` (two identities).
 */
const PAIRS_READ = MAX_CACHED_LIST + 1;

/**
 * A device's pairs (`where`), at most PAIRS_READ of them, as a FROM item `i` (`last_seen`): what is counted to know
 * whether a read or the cache holds all of them.
 */
export function cappedPairs(where: Sql): Sql {
  return sql`(SELECT last_seen FROM device_identities WHERE ${where} LIMIT ${raw(String(PAIRS_READ))}) AS i`;
}

/**
 * Each of the batch's devices' most recent stored identity pairs (PAIRS_READ, through its last_seen index), as one
 * part of the batch's read. They suffice to count: if two identities were seen since a device's association began,
 * its two most recent pairs were. A pair of the batch that is not among them (a device with more, seen again under
 * an identity it had not used for a while) is written as a new one, and the write's conflict clause keeps the
 * stored row's first sighting: the read never walks all of a device's pairs, which for a device seen with thousands
 * of identities (a shared kiosk, or a client inventing them) made each of its events dearer than the last.
 */
export function readIdentities(deviceIds: readonly string[]): Sql | null {
  if (deviceIds.length === 0) return null;
  const recent = sql`SELECT device_id, identity, last_seen FROM device_identities WHERE device_id = q.k
    ORDER BY last_seen DESC LIMIT ${raw(String(PAIRS_READ))}`;
  return sql`(SELECT json_agg(json_build_array(i.device_id, i.identity, ${ms('i.last_seen')}))
    FROM ${keys(deviceIds)} CROSS JOIN ${probe(recent)} AS i)`;
}

type PairRow = [deviceId: string, identity: string, lastSeenMs: number];

/**
 * Counts, per device, the distinct identities seen since `since(device)` (the later of the window start and the
 * current association's start), this batch included, and returns the writes that record the batch's pairs: new
 * pairs, and pairs whose row is stale or predates the current association. Rows are handed over in key order
 * (see pipeline/sightings.ts on lock order).
 */
export function countIdentities(
  sightings: readonly Sighting[],
  stored: unknown,
  since: (deviceId: string) => Date | null,
): { counts: Map<string, number>; writes: Sql[]; after: Map<string, [identity: string, lastSeenMs: number][]> } {
  const spans = new Map<string, Span>();
  for (const s of sightings) {
    const key = pairKey(s.deviceId, s.identity);
    const span = spans.get(key);
    if (!span) spans.set(key, { deviceId: s.deviceId, identity: s.identity, first: s.at, last: s.at });
    else {
      if (s.at < span.first) span.first = s.at;
      if (s.at > span.last) span.last = s.at;
    }
  }
  // `lastSeen` counts this batch's sightings; `kept` is what the row holds once the write commits.
  const lastSeen = new Map<string, { deviceId: string; identity: string; lastSeen: number; kept: number }>();
  for (const [deviceId, identity, at] of (stored as PairRow[] | null) ?? []) {
    lastSeen.set(pairKey(deviceId, identity), { deviceId, identity, lastSeen: at, kept: at });
  }

  const inserts: object[] = [];
  const updates: object[] = [];
  const ordered = byKey(spans);
  for (const [key, s] of ordered) {
    const row = lastSeen.get(key);
    const pair = { d: s.deviceId, i: s.identity, f: s.first.toISOString(), l: s.last.toISOString() };
    if (!row) {
      inserts.push(pair);
      lastSeen.set(key, { deviceId: s.deviceId, identity: s.identity, lastSeen: s.last.getTime(), kept: s.last.getTime() });
      continue;
    }
    const association = since(s.deviceId)!.getTime();
    const stale = s.last.getTime() - row.lastSeen >= IDENTITY_LAST_SEEN_RESOLUTION_MS;
    // After a transfer an identity must count again at once, not only when its row goes stale.
    const predatesAssociation = row.lastSeen < association && s.last.getTime() >= association;
    if (stale || predatesAssociation) {
      updates.push(pair);
      row.kept = Math.max(row.kept, s.last.getTime());
    }
    row.lastSeen = Math.max(row.lastSeen, s.last.getTime());
  }

  const counts = new Map<string, number>();
  // Each device's pairs as they are once the write commits (complete only where the read was).
  const after = new Map<string, [string, number][]>();
  for (const r of lastSeen.values()) {
    const pairs = after.get(r.deviceId);
    if (pairs) pairs.push([r.identity, r.kept]);
    else after.set(r.deviceId, [[r.identity, r.kept]]);
    // The read covered replayed events' devices too; only the devices asked about are counted.
    const from = since(r.deviceId);
    if (from !== null && r.lastSeen >= from.getTime()) counts.set(r.deviceId, (counts.get(r.deviceId) ?? 0) + 1);
  }
  const writes: Sql[] = [];
  if (inserts.length > 0) {
    // Another batch may have inserted the pair since the read: keep the widest span.
    writes.push(sql`INSERT INTO device_identities (device_id, identity, first_seen, last_seen)
      SELECT d, i, f, l FROM ${records(inserts, 'd text, i text, f timestamptz, l timestamptz')}
      ON CONFLICT (device_id, identity) DO UPDATE SET last_seen = GREATEST(device_identities.last_seen, excluded.last_seen)
      WHERE device_identities.last_seen < excluded.last_seen`);
  }
  if (updates.length > 0) {
    writes.push(sql`UPDATE device_identities p SET last_seen = GREATEST(p.last_seen, u.l)
      FROM (SELECT * FROM ${records(updates, 'd text, i text, f timestamptz, l timestamptz')} ORDER BY d, i) u
      WHERE p.device_id = u.d AND p.identity = u.i`);
  }
  return { counts, writes, after };
}
