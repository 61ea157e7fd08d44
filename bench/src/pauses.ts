import { metricValue } from './soak/scrape.js';
import type { Target } from './targets.js';

/**
 * What a Vigil server's own metrics say of its pauses during a stretch: event-loop delay, garbage collection, and its
 * group commits (each holds its events, and the queue behind it, for as long as it takes).
 */
export interface Pauses {
  /**
   * The longest interval (ms) between ticks of the 10 ms timer of Node's monitorEventLoopDelay: 10 is no delay, 25 a
   * 15 ms stall of the event loop.
   */
  loopMaxMs: number;
  /** Its 99th percentile (ms): one long stall or many. */
  loopP99Ms: number;
  /** Garbage collections, and those of 10 ms or more, all kinds. */
  gcs: number;
  gcsOver10Ms: number;
  /** Time in garbage collection (ms), all kinds, and in major (mark-compact) collections alone. */
  gcMs: number;
  majorGcMs: number;
  /**
   * The same of the embedded database's thread (PGlite): a heap of its own, and every statement waits while it
   * collects. Zero on PostgreSQL.
   */
  threadGcs: number;
  threadGcsOver10Ms: number;
  threadGcMs: number;
  threadMajorGcMs: number;
  /** Group commits, the events they carried, and those that took 10 ms or more. */
  commits: number;
  commitEvents: number;
  commitsOver10Ms: number;
  /** Group commits written with their cached facts proven current instead of compared (see the README). */
  commitsProven: number;
  /** Checkpoints Vigil ran on the embedded database, and the time from each one's request to its end (PGlite). */
  checkpoints: number;
  checkpointMs: number;
  /**
   * The embedded database's flushes of its WAL (each commit's) that took 10 ms or more, and the
   * longest (ms): the disk's stalls, which hold the database's one thread. Zero on PostgreSQL (wal.ts watches its own).
   */
  slowWalFlushes: number;
  longestWalFlushMs: number;
}

interface Commits {
  total: number;
  upTo10Ms: number;
  events: number;
  proven: number;
}

interface GcCounts {
  total: number;
  upTo10Ms: number;
  seconds: number;
  majorSeconds: number;
}

/**
 * Sums the GC histogram's count, time and ≤ 10 ms bucket over its kinds (and the time of the major kind), and reads
 * the event loop's longest and 99th-percentile delay and the group commits' count, ≤ 10 ms bucket and events, from
 * the server's /metrics text.
 */
export function parseMetrics(text: string): {
  gc: GcCounts;
  threadGc: GcCounts;
  commits: Commits;
  checkpoints: { total: number; seconds: number; byCause: Record<'wal' | 'time' | 'lull', number> };
  /** WAL flushes of 10 ms or more since the server started, and the longest since the previous scrape (seconds). */
  flushes: { slow: number; longest: number };
  loopMaxMs: number;
  loopP99Ms: number;
} {
  // A server from before the commit histograms has none: no commits seen.
  const series = (name: string) => {
    const found = metricValue(text, name);
    return Number.isNaN(found) ? 0 : found;
  };
  const lines = text.split('\n');
  // A GC histogram's samples carry a kind label each, so they are summed line by line.
  const gcOf = (histogram: string): GcCounts => {
    const gc: GcCounts = { total: 0, upTo10Ms: 0, seconds: 0, majorSeconds: 0 };
    for (const line of lines) {
      const value = Number(line.slice(line.lastIndexOf(' ') + 1));
      if (line.startsWith(`${histogram}_count`)) gc.total += value;
      else if (line.startsWith(`${histogram}_sum`)) {
        gc.seconds += value;
        if (line.includes('kind="major"')) gc.majorSeconds += value;
      } else if (line.startsWith(`${histogram}_bucket`) && line.includes('le="0.01"')) gc.upTo10Ms += value;
    }
    return gc;
  };
  return {
    gc: gcOf('vigil_nodejs_gc_duration_seconds'),
    // A server from before this histogram, or on PostgreSQL, has none: no collections seen.
    threadGc: gcOf('vigil_db_thread_gc_duration_seconds'),
    commits: {
      total: series('vigil_group_commit_duration_seconds_count'),
      upTo10Ms: series('vigil_group_commit_duration_seconds_bucket{le="0.01"}'),
      events: series('vigil_group_commit_events_sum'),
      proven: series('vigil_fact_cache_unchecked_commits'),
    },
    checkpoints: checkpointsOf(series),
    flushes: { slow: series('vigil_db_slow_wal_flushes_total'), longest: series('vigil_db_wal_flush_max_seconds') },
    loopMaxMs: metricValue(text, 'vigil_nodejs_eventloop_lag_max_seconds') * 1000,
    loopP99Ms: metricValue(text, 'vigil_nodejs_eventloop_lag_p99_seconds') * 1000,
  };
}

function checkpointsOf(series: (name: string) => number): ReturnType<typeof parseMetrics>['checkpoints'] {
  const byCause = {
    wal: series('vigil_db_checkpoints_total{cause="wal"}'),
    time: series('vigil_db_checkpoints_total{cause="time"}'),
    lull: series('vigil_db_checkpoints_total{cause="lull"}'),
  };
  return { total: byCause.wal + byCause.time + byCause.lull, seconds: series('vigil_db_checkpoint_seconds_total'), byCause };
}

/** A server's /metrics, parsed. */
export const scrapeMetrics = async (target: Target) => parseMetrics(await (await fetch(`${target.url}/metrics`)).text());

/** The embedded database's checkpoints since the server started, by cause, and the time they held it: "" with none. */
export function describeCheckpoints({ total, seconds, byCause }: ReturnType<typeof parseMetrics>['checkpoints']): string {
  if (total === 0) return '';
  const causes = Object.entries(byCause).map(([cause, n]) => `${n} ${cause}`);
  return `${total} checkpoints (${causes.join(', ')}), holding the database ${(seconds * 1000).toFixed(0)} ms in all`;
}

/**
 * Starts watching a Vigil server's pauses: a scrape of its /metrics now (which also restarts the event-loop delay
 * histogram, as every scrape does) and one when `stop` is called. A steady round's p99 over its goal with no slow
 * commit (wal.ts) may be the server's own pause: a long GC or a long synchronous stretch holds every request in flight.
 */
export async function watchPauses(target: Target): Promise<{ stop(): Promise<Pauses> }> {
  const before = await scrapeMetrics(target);
  return { stop: async () => pausesBetween(before, await scrapeMetrics(target)) };
}

/** The pauses between two scrapes; the event loop's figures are the second's alone (each scrape restarts them). */
export function pausesBetween(before: ReturnType<typeof parseMetrics>, after: ReturnType<typeof parseMetrics>): Pauses {
  const gcs = after.gc.total - before.gc.total;
  const threadGcs = after.threadGc.total - before.threadGc.total;
  return {
    loopMaxMs: after.loopMaxMs,
    loopP99Ms: after.loopP99Ms,
    gcs,
    gcsOver10Ms: gcs - (after.gc.upTo10Ms - before.gc.upTo10Ms),
    gcMs: (after.gc.seconds - before.gc.seconds) * 1000,
    majorGcMs: (after.gc.majorSeconds - before.gc.majorSeconds) * 1000,
    threadGcs,
    threadGcsOver10Ms: threadGcs - (after.threadGc.upTo10Ms - before.threadGc.upTo10Ms),
    threadGcMs: (after.threadGc.seconds - before.threadGc.seconds) * 1000,
    threadMajorGcMs: (after.threadGc.majorSeconds - before.threadGc.majorSeconds) * 1000,
    commits: after.commits.total - before.commits.total,
    commitEvents: after.commits.events - before.commits.events,
    commitsOver10Ms: after.commits.total - before.commits.total - (after.commits.upTo10Ms - before.commits.upTo10Ms),
    commitsProven: after.commits.proven - before.commits.proven,
    checkpoints: after.checkpoints.total - before.checkpoints.total,
    checkpointMs: (after.checkpoints.seconds - before.checkpoints.seconds) * 1000,
    slowWalFlushes: after.flushes.slow - before.flushes.slow,
    // Each scrape starts the longest over: the second's is the stretch's.
    longestWalFlushMs: after.flushes.longest * 1000,
  };
}

export const describePauses = (p: Pauses) =>
  `event loop's 10 ms ticks up to ${p.loopMaxMs.toFixed(0)} ms apart (p99 ${p.loopP99Ms.toFixed(0)} ms); ${p.gcs} GCs, ${p.gcsOver10Ms} of them ≥ 10 ms, ` +
  `${p.gcMs.toFixed(0)} ms in all (${p.majorGcMs.toFixed(0)} ms major); ` +
  (p.threadGcs > 0
    ? `the database thread's ${p.threadGcs} GCs, ${p.threadGcsOver10Ms} of them ≥ 10 ms, ${p.threadGcMs.toFixed(0)} ms in all (${p.threadMajorGcMs.toFixed(0)} ms major); `
    : '') +
  `${p.commits} group commits of ${(p.commitEvents / (p.commits || 1)).toFixed(1)} events, ` +
  `${p.commitsOver10Ms} of them ≥ 10 ms${p.commitsProven > 0 ? `, ${p.commitsProven} written with their facts proven current` : ''}` +
  (p.checkpoints > 0 ? `; ${p.checkpoints} checkpoint${p.checkpoints === 1 ? '' : 's'} holding the database ${p.checkpointMs.toFixed(0)} ms` : '') +
  (p.longestWalFlushMs > 0 ? `; WAL flushes ≥ 10 ms: ${p.slowWalFlushes}, the longest ${p.longestWalFlushMs.toFixed(0)} ms` : '');
