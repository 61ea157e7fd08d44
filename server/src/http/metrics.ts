import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FactCache } from '../pipeline/fact-cache.js';
import type { IngestObserver } from '../ingest/ingestor.js';
import type { PoolStats } from '../db/session-pool.js';
import type { CheckpointCounts } from '../db/pglite-checkpointer.js';
import type { FlushCounts } from '../db/pglite-thread.js';

/** Buckets of the latency histograms (seconds): from a millisecond, where a request or a commit is quick, to 2.5 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * A counter that follows running totals kept elsewhere, read when scraped: prom-client's counters only grow by
 * increments, so each scrape adds what the totals grew by since the last. `read` gives one total, or one for each
 * value of `label`.
 */
function followTotals(registry: Registry, metric: { name: string; help: string; label?: string }, read: () => number | Record<string, number>): void {
  const counted = new Map<string, number>();
  new Counter({
    name: metric.name,
    help: metric.help,
    labelNames: metric.label ? [metric.label] : [],
    registers: [registry],
    collect() {
      const totals = read();
      for (const [value, total] of typeof totals === 'number' ? [['', totals] as const] : Object.entries(totals)) {
        const grown = total - (counted.get(value) ?? 0);
        if (metric.label) this.inc({ [metric.label]: value }, grown);
        else this.inc(grown);
        counted.set(value, total);
      }
    },
  });
}

/** Prometheus metrics, on a registry of their own so several servers can live in one process (tests). */
export class Metrics implements IngestObserver {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'vigil_http_requests_total',
    help: 'HTTP requests by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'vigil_http_request_duration_seconds',
    help: 'HTTP request latency by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly ingested = new Counter({
    name: 'vigil_events_ingested_total',
    help: 'Events stored (idempotent replays are not counted).',
    registers: [this.registry],
  });
  private readonly replays = new Counter({
    name: 'vigil_events_replayed_total',
    help: 'Idempotent replays answered from the stored response.',
    registers: [this.registry],
  });
  private readonly byTag = new Counter({
    name: 'vigil_events_by_tag_total',
    help: 'Stored events by risk tag.',
    labelNames: ['tag'] as const,
    registers: [this.registry],
  });
  private readonly failedBatches = new Counter({
    name: 'vigil_group_commit_failures_total',
    help: 'Group commits that failed as a whole and were retried item by item.',
    registers: [this.registry],
  });

  private readonly commitDuration = new Histogram({
    name: 'vigil_group_commit_duration_seconds',
    help: "Group commits by how long each took, from its batch's start to its durable end: the read, the evaluation, the write and the flush. Every event in a batch waits this long, and the queue behind it may too.",
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly commitSize = new Histogram({
    name: 'vigil_group_commit_events',
    help: 'Group commits by how many events each carried: few per commit under a light load, more as the load grows and each commit costs less per event.',
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 5000],
    registers: [this.registry],
  });

  private readonly threadGcs = new Histogram({
    name: 'vigil_db_thread_gc_duration_seconds',
    help: "Garbage collections of the embedded database's thread, by kind (as vigil_nodejs_gc_duration_seconds counts the main thread's): its heap is its own, and every statement waits while it collects. None on PostgreSQL.",
    labelNames: ['kind'] as const,
    // prom-client's buckets for the main thread's collections, so the two compare bucket by bucket.
    buckets: [0.001, 0.01, 0.1, 1, 2, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'vigil_' });
  }

  /** One garbage collection of the embedded database's thread (DatabaseHandle.observeThreadGcs). */
  readonly databaseThreadGc = (kind: string, seconds: number): void => {
    this.threadGcs.observe({ kind }, seconds);
  };

  /** The fact cache's size and hit rate, read when scraped. */
  watchFactCache(cache: FactCache): void {
    new Gauge({
      name: 'vigil_fact_cache_entries',
      help: 'Entries in the per-process cache of device, registry and contact facts.',
      registers: [this.registry],
      collect() {
        this.set(cache.size);
      },
    });
    new Gauge({
      name: 'vigil_fact_cache_group_commits',
      help: 'Group commits since start: cached (no read statement), read, stale (cached, found changed in the write, read again) or unproven (PGlite: cached, but something else wrote since they were proven current, so compared with their rows after all).',
      labelNames: ['outcome'] as const,
      registers: [this.registry],
      collect() {
        for (const [outcome, n] of Object.entries(cache.commits)) this.set({ outcome }, n);
      },
    });
    new Gauge({
      name: 'vigil_fact_cache_unchecked_commits',
      help: 'Group commits since start written without comparing their cached facts with the rows: nothing else had written since they were proven current (PGlite only).',
      registers: [this.registry],
      collect() {
        this.set(cache.unchecked);
      },
    });
  }

  /** PostgreSQL's connection pools, read when scraped: how many connections each opened, holds and is waited for. */
  watchPools(pools: () => Record<string, PoolStats>): void {
    followTotals(
      this.registry,
      {
        name: 'vigil_db_connections_opened_total',
        help: 'Connections each PostgreSQL pool (ingest, reporting) has opened. Steady growth under a steady load is churn: each new connection costs PostgreSQL a backend and its statements planned again.',
        label: 'pool',
      },
      () => Object.fromEntries(Object.entries(pools()).map(([pool, stats]) => [pool, stats.opened])),
    );
    new Gauge({
      name: 'vigil_db_connections',
      help: 'Connections each PostgreSQL pool holds now, in use (or being opened) or idle, and callers waiting for one (the pool is too small for the load, or its statements too slow).',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        for (const [pool, stats] of Object.entries(pools())) {
          this.set({ pool, state: 'in_use' }, stats.total - stats.idle);
          this.set({ pool, state: 'idle' }, stats.idle);
          this.set({ pool, state: 'waiting' }, stats.waiting);
        }
      },
    });
  }

  /** The embedded database's flushes to the disk, read when scraped. */
  watchFlushes(flushes: () => FlushCounts): void {
    followTotals(
      this.registry,
      {
        name: 'vigil_db_flushes_total',
        help: "Flushes to the disk the embedded database made (PostgreSQL's fsync() calls: the WAL at each commit, files and directories at checkpoints). 0 with VIGIL_DATA_DIR_SYNC=off, where the operating system writes when it chooses.",
      },
      () => flushes().fsyncs,
    );
    followTotals(
      this.registry,
      {
        name: 'vigil_db_background_flushes_total',
        help: "Data files of the embedded database flushed in the background, each second's written files on a thread of their own, so that the operating system never writes them in one burst that a commit's flush would wait behind. 0 with VIGIL_DATA_DIR_SYNC=off.",
      },
      () => flushes().background,
    );
    followTotals(
      this.registry,
      {
        name: 'vigil_db_background_flush_failures_total',
        help: "Background flushes of the embedded database's data files that failed (a flush or the file's opening reported an error, or the flusher hung a minute): PostgreSQL's next flush of any file then fails, so it stops (a PANIC) before a checkpoint could drop the WAL that repairs the file, and the database is opened again from its WAL. Any increase is a failing disk or a data directory changed under the database.",
      },
      () => flushes().failed,
    );
    followTotals(
      this.registry,
      {
        name: 'vigil_db_wal_flush_seconds_total',
        help: "Seconds the embedded database's flushes of its WAL (each commit's) took, in all: each holds the database's one thread, every statement queued behind it. A checkpoint's flushes of data files are not among them (vigil_db_checkpoint_seconds_total).",
      },
      () => flushes().walFlushSeconds,
    );
    followTotals(
      this.registry,
      {
        name: 'vigil_db_slow_wal_flushes_total',
        help: "Flushes of the embedded database's WAL that took 10 ms or more: the commit waiting on one is late by as much, and so is every request of its batch and of the batches queued behind it. A rise is the disk, not Vigil.",
      },
      () => flushes().slowWalFlushes,
    );
    new Gauge({
      name: 'vigil_db_wal_flush_max_seconds',
      help: "The longest flush of the embedded database's WAL since the previous scrape by anyone (each scrape starts it over; 0 with none).",
      registers: [this.registry],
      collect() {
        this.set(flushes().takeLongestWalFlush());
      },
    });
  }

  /** The embedded database's checkpoints by cause, read when scraped. */
  watchCheckpoints(checkpoints: () => CheckpointCounts): void {
    followTotals(
      this.registry,
      {
        name: 'vigil_db_checkpoints_total',
        help: "Checkpoints Vigil ran on the embedded database, which has no checkpointer of its own: cause 'wal' once the WAL since the last one reached half of max_wal_size, 'time' after checkpoint_timeout with more than a WAL page written, 'lull' once nothing was written for half a second or more (between two of its measurements, a second apart) with a sixteenth of max_wal_size or more since the last. Each holds every statement until it ends.",
        label: 'cause',
      },
      () => {
        const { wal, time, lull } = checkpoints();
        return { wal, time, lull };
      },
    );
    followTotals(
      this.registry,
      {
        name: 'vigil_db_checkpoint_seconds_total',
        help: 'Seconds from each checkpoint of vigil_db_checkpoints_total being asked for to its end (statements queued before it included), every statement after it waiting.',
      },
      () => checkpoints().seconds,
    );
    followTotals(
      this.registry,
      {
        name: 'vigil_db_checkpoint_failures_total',
        help: "Measurements of the embedded database's WAL, or checkpoints, that failed: while the database is down, as its health says; any other time pg_wal may be growing.",
      },
      () => checkpoints().failed,
    );
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }

  stored(outcome: { insights: { current_tags: string[] }; replayed: boolean }): void {
    if (outcome.replayed) {
      this.replays.inc();
      return;
    }
    this.ingested.inc();
    for (const tag of outcome.insights.current_tags) this.byTag.inc({ tag });
  }

  committed(size: number, ms: number): void {
    this.commitDuration.observe(ms / 1000);
    this.commitSize.observe(size);
  }

  batchFailed(): void {
    this.failedBatches.inc();
  }
}
