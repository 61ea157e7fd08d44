import { sql, type Sql } from '../db/statement.js';
import { keys, ms, probe } from '../db/compose.js';
import { cachedAll, factKey, MAX_CACHED_LIST, staleWhen, type CachedPart, type FactCache } from '../pipeline/fact-cache.js';
import type { EvaluationInput, EvaluationItem, InsightStage, StageContext, StageResult } from '../pipeline/stage.js';
import { cappedPairs, countIdentities, readIdentities } from './association.js';
import type { Registration } from './state.js';
import { deviceInfoOf } from './views.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RegistryStageOptions {
  /** Events under different identities within this many days make a device `multi_user`. */
  multiUserWindowDays: number;
}

/** A registration as the batch read returns it: one json array, timestamps in epoch milliseconds. */
type ReadRegistration = [
  deviceId: string,
  userId: string,
  role: string | null,
  metadata: Record<string, unknown>,
  status: Registration['status'],
  registeredAt: number,
  associatedSince: number,
  deactivatedAt: number | null,
  deactivationReason: string | null,
  deactivatedBy: string | null,
  conflictAt: number | null,
  /** registrations.version: the cache's check (migration 0007). */
  version: number,
];

/** A device's identity pairs, all of them, as the cache keeps them. */
type CachedPairs = [identity: string, lastSeenMs: number][];

const date = (msValue: number | null) => (msValue === null ? null : new Date(msValue));

function registrationOf(r: ReadRegistration): Registration {
  return {
    deviceId: r[0],
    userId: r[1],
    role: r[2],
    metadata: r[3],
    status: r[4],
    registeredAt: new Date(r[5]),
    associatedSince: new Date(r[6]),
    deactivatedAt: date(r[7]),
    deactivationReason: r[8],
    deactivatedBy: r[9],
    conflictAt: date(r[10]),
  };
}

const deviceIdsOf = (batch: readonly EvaluationInput[]) => [...new Set(batch.map((i) => i.event.deviceId).filter((d): d is string => d !== null))].sort();

/** The latest event time of each device in the batch: its multi-user window ends there. */
function latestByDevice(batch: readonly EvaluationInput[]): Map<string, Date> {
  const latest = new Map<string, Date>();
  for (const item of batch) {
    const id = item.event.deviceId;
    if (id && (!latest.has(id) || item.event.occurredAt > latest.get(id)!)) latest.set(id, item.event.occurredAt);
  }
  return latest;
}

/**
 * Fills `device` (registration facts) and adds `unregistered`, `deactivated` and `multi_user`. A device is `multi_user` when,
 * since its current association began (registration or the latest transfer) and within the window, it saw a
 * refused registration by another user or events under two or more identities.
 */
export function createRegistryStage(options: RegistryStageOptions): InsightStage {
  const windowMs = options.multiUserWindowDays * DAY_MS;
  return {
    name: 'registry',
    read(batch: readonly EvaluationInput[]): Sql | null {
      const deviceIds = deviceIdsOf(batch);
      if (deviceIds.length === 0) return null;
      return sql`json_build_array(
        (SELECT json_agg(json_build_array(r.device_id, r.user_id, r.role, r.metadata, r.status, ${ms('r.registered_at')},
                  ${ms('r.associated_since')}, ${ms('r.deactivated_at')}, r.deactivation_reason, r.deactivated_by, ${ms('r.conflict_at')},
                  r.version))
         FROM ${keys(deviceIds)} CROSS JOIN ${probe(sql`SELECT * FROM registrations WHERE device_id = q.k`)} AS r),
        ${readIdentities(deviceIds)},
        (SELECT json_agg(json_build_array(q.k, (SELECT count(*) FROM ${cappedPairs(sql`device_id = q.k`)}))) FROM ${keys(deviceIds)}))`;
    },
    cached(batch: readonly EvaluationInput[], cache: FactCache): CachedPart | undefined {
      const deviceIds = deviceIdsOf(batch);
      if (deviceIds.length === 0) return { facts: null };
      const registrations = cachedAll<ReadRegistration>(cache, deviceIds, factKey.registration);
      const pairs = registrations && cachedAll<CachedPairs>(cache, deviceIds, factKey.identities);
      if (!registrations || !pairs) return undefined;
      const facts: RegistryFacts = [
        registrations.flatMap((r) => (r.v ? [r.v] : [])),
        pairs.flatMap((p) => p.v!.map(([identity, at]) => [p.k, identity, at] as [string, string, number])),
        pairs.map((p) => [p.k, p.v!.length]),
      ];
      const stale = () => {
        const versions = registrations.map((r) => ({ k: r.k, v: r.v ? r.v[11] : null }));
        const summaries = pairs.map((p) => ({ k: p.k, v: [p.v!.length, p.v!.reduce((sum, [, at]) => sum + at, 0)] }));
        return sql`(${staleWhen(versions, sql`SELECT to_jsonb(r.version) FROM registrations r WHERE r.device_id = q.k`)}
          OR ${staleWhen(summaries, sql`SELECT jsonb_build_array(count(*), COALESCE(sum(${ms('i.last_seen')}), 0)) FROM ${cappedPairs(sql`device_id = q.k`)}`)})`;
      };
      return { facts, stale };
    },
    evaluate(batch: readonly EvaluationItem[], { facts }: StageContext): StageResult {
      if (facts === null) return { outputs: batch.map(() => ({})) };
      const [registrationRows, identityRows, pairCounts] = facts as RegistryFacts;
      const rows = new Map((registrationRows ?? []).map((r) => [r[0], r]));
      const registry = new Map([...rows].map(([id, r]) => [id, registrationOf(r)]));
      const latest = latestByDevice(batch);
      const since = (deviceId: string): Date | null => {
        const last = latest.get(deviceId);
        if (!last) return null;
        const windowStart = last.getTime() - windowMs;
        const association = registry.get(deviceId)?.associatedSince.getTime() ?? 0;
        return new Date(Math.max(windowStart, association));
      };
      const sightings = batch
        .filter((i) => i.event.deviceId && i.event.identity)
        .map((i) => ({ deviceId: i.event.deviceId!, identity: i.event.identity!, at: i.event.occurredAt }));
      const { counts, writes, after } = countIdentities(sightings, identityRows, since);
      const read = new Map<string, number>();
      for (const [deviceId] of identityRows ?? []) read.set(deviceId, (read.get(deviceId) ?? 0) + 1);
      const remember = (cache: FactCache) => {
        for (const [deviceId, stored] of pairCounts ?? []) {
          // A device's pairs are cached only when the read returned all of them (it skips old, unrelated ones).
          if (!latest.has(deviceId)) continue;
          cache.set(factKey.registration(deviceId), rows.get(deviceId) ?? null);
          const pairs = after.get(deviceId) ?? [];
          if ((read.get(deviceId) ?? 0) === Number(stored) && pairs.length <= MAX_CACHED_LIST) cache.set(factKey.identities(deviceId), pairs);
          else cache.drop(factKey.identities(deviceId));
        }
      };

      const outputs = batch.map((item) => {
        const id = item.event.deviceId;
        if (!id) return {};
        const registration = registry.get(id) ?? null;
        const tags: string[] = [];
        if (!registration) tags.push('unregistered');
        // A deactivated device is to be blocked; a caller reading only risk_score or current_tags must see it.
        if (registration?.status === 'deactivated') tags.push('deactivated');
        if ((counts.get(id) ?? 0) >= 2 || conflicted(registration, since(id)!)) tags.push('multi_user');
        return { tags, device: deviceInfoOf(registration) };
      });
      return { outputs, writes, remember };
    },
  };
}

/** The registry part of a batch's read: registrations, identity pairs, and how many pairs each device has in all. */
type RegistryFacts = [
  ReadRegistration[] | null,
  [deviceId: string, identity: string, lastSeenMs: number][] | null,
  [deviceId: string, pairs: number | string][] | null,
];

function conflicted(registration: Registration | null, since: Date): boolean {
  return Boolean(registration?.conflictAt && registration.conflictAt >= since);
}
