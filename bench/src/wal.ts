import { withClient } from './targets.js';

/**
 * The WAL settings the README recommends ("PostgreSQL's memory and WAL") and compose.yaml runs: after a checkpoint
 * the first change of each page logs the whole page, and a store with history changes pages spread over gigabytes;
 * uncompressed, those images cost the full store of `history` a third of its throughput in the round after one.
 */
export const RECOMMENDED_WAL = { wal_compression: 'lz4', max_wal_size: '4GB', checkpoint_timeout: '15min' };

/**
 * Sets the benchmark's throwaway PostgreSQL (VIGIL_TEST_DATABASE_URL) to the README's WAL settings, or leaves
 * PostgreSQL's own with BENCH_WAL=default, and times WAL writes and fsyncs (`track_wal_io_timing`, read by
 * `walSyncs`) either way. Returns the settings in words, for a run's header.
 */
export async function configureWal(): Promise<string> {
  const settings = process.env.BENCH_WAL === 'default' ? {} : RECOMMENDED_WAL;
  await withClient(async (c) => {
    for (const [name, value] of Object.entries({ ...settings, track_wal_io_timing: 'on' })) await c.query(`ALTER SYSTEM SET ${name} = '${value}'`);
    await c.query('SELECT pg_reload_conf()');
  });
  const words = Object.entries(settings).map(([k, v]) => `${k}=${v}`);
  return words.length > 0 ? words.join(', ') : 'defaults';
}

/** The server's WAL fsyncs so far: how many, and the milliseconds spent in them (with `track_wal_io_timing` on). */
export interface WalSyncs {
  syncs: number;
  ms: number;
}

export async function walSyncs(): Promise<WalSyncs> {
  return withClient(async (c) => {
    await c.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await c.query<{ syncs: string; ms: number }>('SELECT wal_sync AS syncs, wal_sync_time AS ms FROM pg_stat_wal');
    return { syncs: Number(rows[0]!.syncs), ms: Number(rows[0]!.ms) };
  });
}

/**
 * Each commit waits for its WAL flush, and every commit in flight waits behind a slow one, so a steady round's p99
 * is at least its slowest fsync: the mean and the total say whether the disk set a round's latency.
 */
export function describeSyncs(before: WalSyncs, after: WalSyncs, seconds: number): string {
  const syncs = after.syncs - before.syncs;
  const ms = after.ms - before.ms;
  return `${syncs} fsyncs, ${(syncs ? ms / syncs : 0).toFixed(2)} ms mean, ${((ms / (seconds * 1000)) * 100).toFixed(0)} % of the time`;
}
