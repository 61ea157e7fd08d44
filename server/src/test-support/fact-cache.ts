import type { TestVigil } from './harness.js';

/** Group commits of a process by where their facts came from, from its /metrics (`stale`: cached, found changed, read). */
export async function factCacheCommits(server: TestVigil): Promise<{ cached: number; read: number; stale: number }> {
  const text = (await server.get('/metrics', { key: null })).text;
  const count = (outcome: string) => Number(new RegExp(`vigil_fact_cache_group_commits\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  return { cached: count('cached'), read: count('read'), stale: count('stale') };
}

/** Connections a process's PostgreSQL pool has opened since it started, from its /metrics. */
export async function connectionsOpened(server: TestVigil, pool: 'ingest' | 'reporting' = 'ingest'): Promise<number> {
  const text = (await server.get('/metrics', { key: null })).text;
  return Number(new RegExp(`vigil_db_connections_opened_total\\{pool="${pool}"\\} (\\d+)`).exec(text)?.[1] ?? Number.NaN);
}
