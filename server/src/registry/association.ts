import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { deviceIdentities } from '@vigil/drizzle/schema';
import type { Tx } from '../db/handle.js';

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
 * Records which identities each device was used under and returns, per device, how many distinct identities were
 * seen since `since(device)` (the later of the window start and the current association's start).
 * Cost per batch: one read, at most one insert, and an update only for pairs whose row is stale; rows are
 * visited in key order so concurrent group commits cannot deadlock.
 */
export async function recordAndCountIdentities(
  tx: Tx,
  sightings: Sighting[],
  deviceIds: string[],
  since: (deviceId: string) => Date,
): Promise<Map<string, number>> {
  if (deviceIds.length === 0) return new Map();
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
  const earliest = new Date(Math.min(...deviceIds.map((d) => since(d).getTime())));
  const identities = [...new Set(sightings.map((s) => s.identity))];
  const existing = await tx
    .select({ deviceId: deviceIdentities.deviceId, identity: deviceIdentities.identity, lastSeen: deviceIdentities.lastSeen })
    .from(deviceIdentities)
    .where(
      and(
        inArray(deviceIdentities.deviceId, deviceIds),
        identities.length > 0
          ? or(sql`${deviceIdentities.lastSeen} >= ${earliest}`, inArray(deviceIdentities.identity, identities))
          : sql`${deviceIdentities.lastSeen} >= ${earliest}`,
      ),
    );
  const lastSeen = new Map(existing.map((r) => [pairKey(r.deviceId, r.identity), { ...r }]));

  const ordered = [...spans.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const missing = ordered.filter(([key]) => !lastSeen.has(key)).map(([, s]) => s);
  if (missing.length > 0) {
    await tx
      .insert(deviceIdentities)
      .values(missing.map((s) => ({ deviceId: s.deviceId, identity: s.identity, firstSeen: s.first, lastSeen: s.last })))
      .onConflictDoUpdate({
        // Another group commit inserted the pair a moment ago: keep the widest span.
        target: [deviceIdentities.deviceId, deviceIdentities.identity],
        set: { lastSeen: sql`GREATEST(${deviceIdentities.lastSeen}, excluded.last_seen)` },
      });
    for (const s of missing) lastSeen.set(pairKey(s.deviceId, s.identity), { deviceId: s.deviceId, identity: s.identity, lastSeen: s.last });
  }
  const inserted = new Set(missing);
  for (const [key, s] of ordered) {
    const row = lastSeen.get(key)!;
    if (inserted.has(s)) continue;
    const association = since(s.deviceId);
    const stale = s.last.getTime() - row.lastSeen.getTime() >= IDENTITY_LAST_SEEN_RESOLUTION_MS;
    // After a transfer an identity must count again at once, not only when its row goes stale.
    const predatesAssociation = row.lastSeen < association && s.last >= association;
    if (!stale && !predatesAssociation) continue;
    await tx
      .update(deviceIdentities)
      .set({ lastSeen: sql`GREATEST(${deviceIdentities.lastSeen}, ${s.last})` })
      .where(and(eq(deviceIdentities.deviceId, s.deviceId), eq(deviceIdentities.identity, s.identity)));
    row.lastSeen = s.last > row.lastSeen ? s.last : row.lastSeen;
  }

  const counts = new Map<string, number>();
  for (const r of lastSeen.values()) {
    if (r.lastSeen >= since(r.deviceId)) counts.set(r.deviceId, (counts.get(r.deviceId) ?? 0) + 1);
  }
  return counts;
}
