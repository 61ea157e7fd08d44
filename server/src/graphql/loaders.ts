import DataLoader from 'dataloader';
import type { RegistryAuditRow } from '@vigil/drizzle/schema';
import { bindingsOf, type BindingSummary } from '../binding/store.js';
import type { Queryable } from '../db/handle.js';
import { devicesById, latestEventsOf, type DeviceSummary, type LatestEvent } from '../registry/listing.js';
import { loadHistory, loadRegistrations } from '../registry/repository.js';
import type { Registration } from '../registry/state.js';
import { recentEventsOf, type EventSummary } from '../reporting/events.js';

/**
 * Per-request batching: a page of N devices asking for registration, tags, history and recent events costs one
 * query per kind of field, not one per device.
 */
export function createLoaders(db: Queryable) {
  const byLimit = <V>(load: (ids: readonly string[], limit: number) => Promise<Map<string, V>>, empty: V) => {
    const loaders = new Map<number, DataLoader<string, V>>();
    return (limit: number) => {
      let loader = loaders.get(limit);
      if (!loader) {
        loader = new DataLoader<string, V>(async (ids) => {
          const found = await load(ids, limit);
          return ids.map((id) => found.get(id) ?? empty);
        });
        loaders.set(limit, loader);
      }
      return loader;
    };
  };
  return {
    device: new DataLoader<string, DeviceSummary | null>(async (ids) => {
      const found = await devicesById(db, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    registration: new DataLoader<string, Registration | null>(async (ids) => {
      const found = await loadRegistrations(db, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    /** Tags and risk score of each device's latest event. */
    latest: new DataLoader<string, LatestEvent>(async (ids) => {
      const found = await latestEventsOf(db, ids);
      return ids.map((id) => found.get(id) ?? { tags: [], riskScore: null });
    }),
    binding: new DataLoader<string, BindingSummary | null>(async (ids) => {
      const found = await bindingsOf(db, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    history: byLimit<RegistryAuditRow[]>((ids, limit) => loadHistory(db, ids, limit), []),
    recentEvents: byLimit<EventSummary[]>((ids, limit) => recentEventsOf(db, ids, limit), []),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
