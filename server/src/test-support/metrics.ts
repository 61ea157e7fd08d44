import type { CheckpointCounts } from '../db/pglite-checkpointer.js';
import type { FlushCounts } from '../db/pglite-thread.js';
import type { TestVigil } from './harness.js';

/** A running Vigil's /metrics text; the helpers below read one series each. */
const metricsOf = async (server: TestVigil) => (await server.get('/metrics', { key: null })).text;

/** The value of one series (`name{labels}`) in a /metrics text, or undefined when it is not there. */
const seriesValue = (text: string, series: string): number | undefined => {
  const escaped = series.replace(/[{}]/g, '\\$&');
  // Counters are whole; a histogram's sum of seconds is not.
  const found = new RegExp(`^${escaped} (\\d+(?:\\.\\d+)?(?:e-?\\d+)?)$`, 'm').exec(text)?.[1];
  return found === undefined ? undefined : Number(found);
};

/** Group commits of a process by where their facts came from, from its /metrics (`stale`: cached, found changed, read). */
export async function factCacheCommits(server: TestVigil): Promise<{ cached: number; read: number; stale: number; unproven: number; unchecked: number }> {
  const text = await metricsOf(server);
  const count = (outcome: string) => seriesValue(text, `vigil_fact_cache_group_commits{outcome="${outcome}"}`) ?? 0;
  const unchecked = seriesValue(text, 'vigil_fact_cache_unchecked_commits') ?? 0;
  return { cached: count('cached'), read: count('read'), stale: count('stale'), unproven: count('unproven'), unchecked };
}

/** Entries in a process's fact cache, from its /metrics. */
export async function factCacheEntries(server: TestVigil): Promise<number> {
  return seriesValue(await metricsOf(server), 'vigil_fact_cache_entries') ?? Number.NaN;
}

/** Connections a process's PostgreSQL pool has opened since it started, from its /metrics. */
export async function connectionsOpened(server: TestVigil, pool: 'ingest' | 'reporting' = 'ingest'): Promise<number> {
  return seriesValue(await metricsOf(server), `vigil_db_connections_opened_total{pool="${pool}"}`) ?? Number.NaN;
}

/**
 * The embedded database's flushes to the disk since its process opened it, from its /metrics (FlushCounts), and the
 * longest since the previous scrape.
 */
export async function diskFlushes(server: TestVigil): Promise<Partial<Omit<FlushCounts, 'takeLongestWalFlush'> & { longest: number }>> {
  const text = await metricsOf(server);
  return {
    fsyncs: seriesValue(text, 'vigil_db_flushes_total'),
    background: seriesValue(text, 'vigil_db_background_flushes_total'),
    failed: seriesValue(text, 'vigil_db_background_flush_failures_total'),
    walFlushSeconds: seriesValue(text, 'vigil_db_wal_flush_seconds_total'),
    slowWalFlushes: seriesValue(text, 'vigil_db_slow_wal_flushes_total'),
    longest: seriesValue(text, 'vigil_db_wal_flush_max_seconds'),
  };
}

/** The embedded database's checkpoints that Vigil ran, by cause, since its process opened it, from its /metrics. */
export async function checkpoints(server: TestVigil): Promise<Partial<CheckpointCounts>> {
  const text = await metricsOf(server);
  return {
    wal: seriesValue(text, 'vigil_db_checkpoints_total{cause="wal"}'),
    time: seriesValue(text, 'vigil_db_checkpoints_total{cause="time"}'),
    lull: seriesValue(text, 'vigil_db_checkpoints_total{cause="lull"}'),
    seconds: seriesValue(text, 'vigil_db_checkpoint_seconds_total'),
    failed: seriesValue(text, 'vigil_db_checkpoint_failures_total'),
  };
}

/**
 * Group commits of a process since it started, from its /metrics: as counted by each of the two histograms, the
 * events they carried, and the seconds they took.
 */
export async function groupCommits(server: TestVigil): Promise<{ commits: number; events: number; timed: number; seconds: number }> {
  const text = await metricsOf(server);
  const value = (series: string) => seriesValue(text, series) ?? 0;
  return {
    commits: value('vigil_group_commit_events_count'),
    events: value('vigil_group_commit_events_sum'),
    timed: value('vigil_group_commit_duration_seconds_count'),
    seconds: value('vigil_group_commit_duration_seconds_sum'),
  };
}

/** Garbage collections of the embedded database's thread since its process opened it, all kinds, from its /metrics. */
export async function databaseThreadGcs(server: TestVigil): Promise<number> {
  let total = 0;
  for (const [, n] of (await metricsOf(server)).matchAll(/^vigil_db_thread_gc_duration_seconds_count\{kind="[^"]+"\} (\d+)$/gm)) total += Number(n);
  return total;
}
