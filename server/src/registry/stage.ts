import type { Tx } from '../db/handle.js';
import type { EvaluationItem, InsightStage, StageOutput } from '../risk/stage.js';
import { recordAndCountIdentities } from './association.js';
import { loadRegistrations } from './repository.js';
import type { Registration } from './state.js';
import { deviceInfoOf } from './views.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface RegistryStageOptions {
  /** Events under different identities within this many days make a device `multi_user`. */
  multiUserWindowDays: number;
}

/**
 * Fills `device` (registration facts) and adds `unregistered` and `multi_user`. A device is `multi_user` when,
 * since its current association began (registration or the latest transfer) and within the window, it saw a
 * refused registration by another user or events under two or more identities.
 */
export function createRegistryStage(options: RegistryStageOptions): InsightStage {
  const windowMs = options.multiUserWindowDays * DAY_MS;
  return {
    name: 'registry',
    async run(tx: Tx, batch: readonly EvaluationItem[]): Promise<StageOutput[]> {
      const deviceIds = [...new Set(batch.map((i) => i.event.deviceId).filter((d): d is string => d !== null))].sort();
      if (deviceIds.length === 0) return batch.map(() => ({}));
      const registry = await loadRegistrations(tx, deviceIds);
      const latest = new Map<string, Date>();
      for (const item of batch) {
        const id = item.event.deviceId;
        if (id && (!latest.has(id) || item.event.occurredAt > latest.get(id)!)) latest.set(id, item.event.occurredAt);
      }
      const since = (deviceId: string): Date => {
        const windowStart = latest.get(deviceId)!.getTime() - windowMs;
        const association = registry.get(deviceId)?.associatedSince.getTime() ?? 0;
        return new Date(Math.max(windowStart, association));
      };
      const sightings = batch
        .filter((i) => i.event.deviceId && i.event.identity)
        .map((i) => ({ deviceId: i.event.deviceId!, identity: i.event.identity!, at: i.event.occurredAt }));
      const identities = await recordAndCountIdentities(tx, sightings, deviceIds, since);

      return batch.map((item): StageOutput => {
        const id = item.event.deviceId;
        if (!id) return {};
        const registration = registry.get(id) ?? null;
        const tags: string[] = [];
        if (!registration) tags.push('unregistered');
        if ((identities.get(id) ?? 0) >= 2 || conflicted(registration, since(id))) tags.push('multi_user');
        return { tags, device: deviceInfoOf(registration) };
      });
    },
  };
}

function conflicted(registration: Registration | null, since: Date): boolean {
  return Boolean(registration?.conflictAt && registration.conflictAt >= since);
}
