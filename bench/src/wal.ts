import type { WalSample } from './bursts.js';
import { withClient } from './targets.js';

/**
 * The WAL and writeback settings the README recommends ("PostgreSQL's memory and WAL") and compose.yaml runs: after a
 * checkpoint the first change of each page logs the whole page, and a store with history changes pages spread over
 * gigabytes; uncompressed, those images cost the full store of `history` a third of its throughput in the round after
 * one. And a backend that writes data pages out has the kernel write them back at once, so that they do not pile up
 * and go in one burst that every commit's WAL flush waits behind (the 62–80 ms stalls of `load`'s steady rounds).
 */
export const RECOMMENDED_WAL = {
  wal_compression: 'lz4',
  max_wal_size: '4GB',
  checkpoint_timeout: '15min',
  min_wal_size: '1GB',
  backend_flush_after: '256kB',
};

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

/**
 * WAL segments made ready for reuse, as a server in service has them, so that the rounds measure that server and not
 * a fresh one. In service, each checkpoint renames the segments it leaves behind into the next ones (as many as the
 * WAL between two checkpoints has needed, up to `min_wal_size` kept even when idle). The bench's server is fresh,
 * and a run neither reaches the WAL that sets off a checkpoint (about 2.1 GB with the 4 GB `max_wal_size`: it comes at
 * max_wal_size ÷ (1 + checkpoint_completion_target)) nor lasts `checkpoint_timeout`, so every segment the WAL reached
 * was created: 16 MB written and flushed by the commit that needed it while every other commit waited. Vigil writes
 * five times the floor's WAL per event at the steady rate, so it met that every 3 s or so of a steady round (bench
 * README, "Load"). Here each
 * segment is created by a switch to the next one, and a checkpoint then renames them all for reuse: `segments` of
 * 16 MB, more than a `load:all` run writes. No round takes a checkpoint, as before: its full-page images stay out
 * of the figures, as `history` measures them.
 */
export async function readyWalSegments(segments = 120): Promise<void> {
  await withClient(async (c) => {
    // A switch with nothing written since the last one does nothing, so each writes a record first.
    await c.query(`DO $$ BEGIN FOR i IN 1..${segments} LOOP
      PERFORM pg_logical_emit_message(false, 'vigil-bench', '');
      PERFORM pg_switch_wal();
    END LOOP; END $$`);
    await c.query('CHECKPOINT');
  });
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
 * Each commit waits for its WAL flush, and every commit in flight waits behind a slow one: the mean and the total say
 * how much of a round the disk took, the longest wait (watchSyncStalls) whether one stall held a round's commits.
 * Whether such a stall shows in p99 depends on how fast the server then works its backlog off.
 */
export function describeSyncs(before: WalSyncs, after: WalSyncs, seconds: number, stalls?: SyncStalls): string {
  const syncs = after.syncs - before.syncs;
  const ms = after.ms - before.ms;
  const longest = stalls ? `, longest commit wait seen ≥ ${stalls.longestMs.toFixed(0)} ms (${stalls.atLeast10Ms} ≥ 10 ms)` : '';
  return `${syncs} fsyncs, ${(syncs ? ms / syncs : 0).toFixed(2)} ms mean, ${((ms / (seconds * 1000)) * 100).toFixed(0)} % of the time${longest}`;
}

/**
 * The commits a watch saw waiting for the WAL: the longest wait (ms, at least) and how many waited 10 ms or more; and
 * each sample's count of backends waiting, which places the round's bursts of late requests (bursts.ts).
 */
export interface SyncStalls {
  longestMs: number;
  atLeast10Ms: number;
  samples: WalSample[];
}

/**
 * Watches the server's client backends every `everyMs` until stopped, for statements waiting on the WAL: in an fsync
 * (`WALSync`), creating a segment (`WALInitWrite`, `WALInitSync`: a commit that finds no recycled segment writes and
 * flushes 16 MB) or behind the process doing one (`WALWrite`, the lock or the write). A statement (pid and `query_start`)
 * seen waiting from one sample to a later one waited at least the time between them. The totals of `walSyncs`
 * cannot show one slow fsync, behind which every commit in flight waits; this can, to within a sample. Keyed by
 * statement, not process: a process that flushes often is caught in a flush by consecutive samples without any of
 * them being slow.
 */
export function watchSyncStalls(everyMs = 5): { backend: Promise<number>; stop(): Promise<SyncStalls> } {
  const stalls: SyncStalls = { longestMs: 0, atLeast10Ms: 0, samples: [] };
  let running = true;
  let watching!: (pid: number) => void;
  let failed!: (error: unknown) => void;
  const backend = new Promise<number>((resolve, reject) => {
    watching = resolve;
    failed = reject;
  });
  const done = withClient(async (c) => {
    watching((await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    const open = new Map<string, { from: number; last: number }>();
    const close = (wait: { from: number; last: number }) => {
      const ms = wait.last - wait.from;
      stalls.longestMs = Math.max(stalls.longestMs, ms);
      if (ms >= 10) stalls.atLeast10Ms += 1;
    };
    while (running) {
      const { rows } = await c.query<{ statement: string }>(
        `SELECT pid || ' ' || query_start AS statement FROM pg_stat_activity
         WHERE backend_type = 'client backend' AND wait_event IN ('WALSync', 'WALWrite', 'WALInitSync', 'WALInitWrite')`,
      );
      const now = performance.now();
      stalls.samples.push({ at: now, waiting: rows.length });
      const seen = new Set(rows.map((r) => r.statement));
      for (const [statement, wait] of open) {
        if (seen.has(statement)) continue;
        close(wait);
        open.delete(statement);
      }
      for (const statement of seen) {
        const wait = open.get(statement);
        if (wait) wait.last = now;
        else open.set(statement, { from: now, last: now });
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    for (const wait of open.values()) close(wait);
  });
  // A watcher that could not connect fails whoever waits for its backend, and `stop` with the same error.
  done.catch(failed);
  return {
    // The watcher's own PostgreSQL process, which a round's CPU per event leaves out: 200 queries a second are not
    // the target's cost.
    backend,
    stop: async () => {
      running = false;
      await done;
      return stalls;
    },
  };
}
