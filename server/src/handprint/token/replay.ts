import type { ReplayCounter } from './types.js';

/**
 * ReplayCounter for a single process. Forgets tokens once expired; beyond maxEntries it forgets the soonest to
 * expire first (memory stays bounded under a flood of valid tokens). Several server processes need a shared
 * counter (a database row per jti, or Redis INCR with EXPIREAT).
 */
export function createMemoryReplayCounter(options: { now: () => number; maxEntries?: number }): ReplayCounter & { size(): number } {
  const max = options.maxEntries ?? 100_000;
  const entries = new Map<string, { count: number; expiresAt: number }>();
  const prune = () => {
    const now = options.now();
    for (const [jti, e] of entries) if (e.expiresAt <= now) entries.delete(jti);
    if (entries.size > max) {
      const soonest = [...entries].sort((a, b) => a[1].expiresAt - b[1].expiresAt).slice(0, entries.size - max);
      for (const [jti] of soonest) entries.delete(jti);
    }
  };
  let calls = 0;
  return {
    size: () => entries.size,
    use(jti, expiresAtMs) {
      if (++calls % 1000 === 0 || entries.size >= max) prune();
      const entry = entries.get(jti);
      if (entry) {
        entry.count += 1;
        return entry.count;
      }
      entries.set(jti, { count: 1, expiresAt: expiresAtMs });
      return 1;
    },
  };
}
