import type { HandprintFeatures } from './features.js';
import { matchHandprint, type MatchOptions, type MatchResult, type StoredHandprint } from './match.js';
import { candidateKeys } from './keys.js';

/** Persistence the server provides (PostgreSQL in Vigil). */
export interface HandprintStore {
  /** Profiles having any of these keys, most recently seen first, at most `limit`. */
  findByKeys(keys: readonly string[], limit: number): Promise<StoredHandprint[]>;
  /**
   * Saves the profile under its id (insert or update), replaces its keys and links the device_id.
   * For a new handprint (`isNew`) an existing row with the same id must be reported as `"conflict"` (a concurrent
   * first visit created it), so the caller matches again instead of overwriting.
   */
  save(record: {
    handprint_id: string;
    features: HandprintFeatures;
    keys: readonly string[];
    device_id: string | null;
    seen_at: number;
    isNew: boolean;
  }): Promise<'saved' | 'conflict'>;
}

export interface ResolveOptions extends MatchOptions {
  now: number;
  /** Most candidates compared per reading (a bound on work for crowds of identical machines). */
  candidateLimit?: number;
}

/** Loads candidates, matches, saves; retries once when a concurrent first visit created the same handprint. */
export async function resolveHandprint(store: HandprintStore, features: HandprintFeatures, options: ResolveOptions): Promise<MatchResult> {
  const keys = candidateKeys(features, options.salt);
  for (let attempt = 0; ; attempt++) {
    const candidates = keys.length > 0 ? await store.findByKeys(keys, options.candidateLimit ?? 50) : [];
    const result = matchHandprint(features, candidates, options);
    const saved = await store.save({
      handprint_id: result.handprint_id,
      features: result.features,
      keys: result.keys,
      device_id: options.deviceId ?? null,
      seen_at: options.now,
      isNew: result.is_new,
    });
    if (saved === 'saved' || attempt >= 1) return result;
  }
}

/** An in-memory HandprintStore: for tests and single-process demos (the server uses its database). */
export function createMemoryHandprintStore(): HandprintStore & { size(): number } {
  const profiles = new Map<string, StoredHandprint & { keys: readonly string[] }>();
  return {
    size: () => profiles.size,
    async findByKeys(keys, limit) {
      const wanted = new Set(keys);
      return [...profiles.values()]
        .filter((p) => p.keys.some((k) => wanted.has(k)))
        .sort((a, b) => (b.last_seen ?? 0) - (a.last_seen ?? 0))
        .slice(0, limit)
        .map(({ keys: _keys, ...p }) => p);
    },
    async save(record) {
      const existing = profiles.get(record.handprint_id);
      if (existing && record.isNew) return 'conflict';
      const devices = new Set(existing?.device_ids ?? []);
      if (record.device_id) devices.add(record.device_id);
      profiles.set(record.handprint_id, {
        handprint_id: record.handprint_id,
        features: record.features,
        keys: [...record.keys],
        device_ids: [...devices].slice(-100),
        last_seen: record.seen_at,
      });
      return 'saved';
    },
  };
}
