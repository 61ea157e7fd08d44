import autocannon from 'autocannon';
import { postEvents } from './bodies.js';
import { BURST_GAP_MS, BURST_MIN_LATE, describeBursts, LATE_MS, lateBursts, WAL_FACTOR } from './bursts.js';
import { formatGoals, judge, type TargetFigures } from './goals.js';
import { perEvent, runQueueSeconds, sampleCpu, type CpuPerEvent } from './cpu.js';
import { paced, type PacedResult } from './paced.js';
import { describeCheckpoints, describePauses, scrapeMetrics, watchPauses } from './pauses.js';
import { postmasterPid, startBare, startFloor, startVigil, type Target } from './targets.js';
import { configureWal, describeSyncs, readyWalSegments, walSyncs, watchSyncStalls } from './wal.js';

/**
 * Load benchmark: Vigil (PGlite, and PostgreSQL when VIGIL_TEST_DATABASE_URL is set — `pnpm load:all` starts one)
 * and a bare Fastify baseline, driven in the same run with the same bodies; with PostgreSQL, also the durable floor
 * (the bare route committing each body first, floor-server.ts). Prints events/s, p50/p99 and the ratio
 * Vigil ÷ bare (autocannon, closed loop), then p50/p99 at a steady 1,000 events/s (open loop, see paced.ts); each
 * as the median of rounds, each Vigil round right after a baseline round. Options (env): BENCH_SECONDS (10),
 * BENCH_CONNECTIONS (64), BENCH_RATE (1000), BENCH_SETTLE_SECONDS (2), BENCH_ROUNDS (3), BENCH_TARGETS (pglite,postgres),
 * BENCH_WAL (`recommended`: the README's WAL settings, wal.ts; `default`: PostgreSQL's), BENCH_WARMUP_SECONDS (15, at
 * full speed before each server's first round).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const rate = Number(process.env.BENCH_RATE ?? 1000);
const settle = Number(process.env.BENCH_SETTLE_SECONDS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
// V8 was still compiling Vigil's code into the fourth second of load (--trace-opt: ~290 optimisations within the next
// 10 s), on helper threads that a server running for days has long stopped paying for.
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** A full-speed run also says what each process spent per event. */
interface MaxResult extends Result {
  cpu: CpuPerEvent;
}

let counter = 0;
// Only the PostgreSQL this run uses: other servers on the machine (a test suite's, another bench's) are not Vigil's cost.
const postmaster = process.env.VIGIL_TEST_DATABASE_URL ? await postmasterPid() : undefined;
// The README's WAL settings for Vigil and the floor alike (BENCH_WAL=default for PostgreSQL's), with fsyncs timed.
const walWords = process.env.VIGIL_TEST_DATABASE_URL ? await configureWal() : undefined;
// With PostgreSQL's own settings (1 GB max_wal_size) its checkpoints come every 0.5 GB or so and keep at most 1 GB.
if (walWords !== undefined && process.env.BENCH_WAL !== 'default') await readyWalSegments();

async function drive(target: Target, options: { duration: number; connections: number }): Promise<MaxResult> {
  const before = sampleCpu(target.pid, postmaster);
  const result = await autocannon({
    url: `${target.url}/events`,
    connections: options.connections,
    duration: options.duration,
    ...postEvents(target.key, () => counter++),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    cpu: perEvent(before, sampleCpu(target.pid, postmaster), result.requests.total),
  };
}

function row(name: string, r: Result, ratio?: number): string {
  return [
    name.padEnd(18),
    r.rps.toFixed(0).padStart(9),
    r.p50.toFixed(1).padStart(8),
    r.p99.toFixed(1).padStart(8),
    String(r.errors).padStart(7),
    ratio === undefined ? '' : ratio.toFixed(2).padStart(8),
  ].join(' ');
}

interface Measured {
  target: Target;
  max: MaxResult[];
  fixed: PacedResult[];
  /** The baseline's max-throughput run just before each of this target's rounds. */
  baseline: MaxResult[];
  /** PostgreSQL's WAL fsyncs during each steady round, for the targets that commit to it. */
  syncs: string[];
  /** The server's event-loop delay and GCs during each steady round (Vigil only: from its /metrics). */
  pauses: string[];
  /** The embedded database's checkpoints over the whole run, idle gaps included ("" on PostgreSQL). */
  checkpoints?: string;
  /** CPU per event of each steady round, settling seconds included. */
  fixedCpu: CpuPerEvent[];
  /** Each steady round's bursts of late requests (bursts.ts), with PostgreSQL placed beside the WAL watcher's samples. */
  bursts: string[];
  /** The share of each steady round the server's main thread waited for a CPU (runQueueSeconds), where known. */
  cpuWait: (number | undefined)[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const medianOf = (results: Result[]): Result => ({
  rps: median(results.map((r) => r.rps)),
  p50: median(results.map((r) => r.p50)),
  p99: median(results.map((r) => r.p99)),
  errors: results.reduce((n, r) => n + r.errors, 0),
});
const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

/** One round at the steady rate, with what it cost per event; `notOurs`: PostgreSQL processes of the benchmark's own. */
async function steadyRound(run: Measured, notOurs: number[] = []): Promise<PacedResult> {
  const before = sampleCpu(run.target.pid, postmaster, notOurs);
  const waitedBefore = runQueueSeconds(run.target.pid);
  const since = performance.now();
  const round = await paced(run.target, { rate, seconds, settle, firstBody: counter });
  const waited = runQueueSeconds(run.target.pid);
  run.fixed.push(round);
  run.fixedCpu.push(perEvent(before, sampleCpu(run.target.pid, postmaster, notOurs), round.sent));
  run.cpuWait.push(waited === undefined || waitedBefore === undefined ? undefined : (waited - waitedBefore) / ((performance.now() - since) / 1000));
  return round;
}

// A small shared machine drifts by tens of per cent over minutes. So the baseline stays up and is measured again
// right before each round of each target, and a ratio is always of two runs a few seconds apart. One target runs
// at a time: a Vigil left idle still checkpoints and vacuums, and that must not land on another's figures.
const measured = (target: Target): Measured => ({ target, max: [], fixed: [], baseline: [], syncs: [], pauses: [], fixedCpu: [], bursts: [], cpuWait: [] });
const bareTarget = await startBare();
const bareRun = measured(bareTarget);
bareRun.baseline = bareRun.max;
const runs: Measured[] = [bareRun];
// BENCH_TARGETS=postgres skips PGlite when only the PostgreSQL ratio is wanted (and the reverse).
const wanted = new Set((process.env.BENCH_TARGETS ?? 'pglite,postgres').split(','));
const starters: (() => Promise<Target>)[] = wanted.has('pglite') ? [() => startVigil('pglite')] : [];
// The durable floor answers how much of the PostgreSQL ratio durability alone takes on this machine.
if (!wanted.has('postgres')) {
  // not asked for
} else if (process.env.VIGIL_TEST_DATABASE_URL) starters.push(() => startVigil('postgres'), startFloor);
else console.warn('VIGIL_TEST_DATABASE_URL not set: PostgreSQL skipped (use `pnpm load:all`).');
try {
  await drive(bareTarget, { duration: warmup, connections }); // warm-up: JIT
  for (const start of starters) {
    const target = await start();
    const run = measured(target);
    runs.push(run);
    try {
      await drive(target, { duration: warmup, connections }); // warm-up: JIT, pools, caches
      for (let round = 1; round <= rounds; round++) {
        const bare = await drive(bareTarget, { duration: seconds, connections });
        run.baseline.push(bare);
        bareRun.max.push(bare);
        const bareRound = await steadyRound(bareRun);
        bareRun.bursts.push(describeBursts(lateBursts(bareRound.late)));
        run.max.push(await drive(target, { duration: seconds, connections }));
        const durable = walWords !== undefined && target.name !== 'vigil pglite';
        const syncsBefore = durable ? await walSyncs() : undefined;
        const watch = durable ? watchSyncStalls() : undefined;
        try {
          const pauses = target.name.startsWith('vigil') ? await watchPauses(target) : undefined;
          const steady = await steadyRound(run, watch ? [await watch.backend] : []);
          const stalls = await watch?.stop();
          if (syncsBefore) run.syncs.push(describeSyncs(syncsBefore, await walSyncs(), settle + seconds, stalls));
          run.bursts.push(describeBursts(lateBursts(steady.late), stalls?.samples));
          if (pauses) run.pauses.push(describePauses(await pauses.stop()));
        } finally {
          // A round that failed must not leave the watcher polling: its connection would keep the run alive.
          await watch?.stop().catch(() => {});
        }
        counter += Math.round(rate * (settle + seconds));
        console.warn(`${target.name}: round ${round}/${rounds} done`);
      }
      if (target.name.startsWith('vigil')) run.checkpoints = describeCheckpoints((await scrapeMetrics(target)).checkpoints);
    } finally {
      await target.stop();
    }
  }
} finally {
  await bareTarget.stop();
}
const ratios = (run: Measured) => run.max.map((r, i) => r.rps / run.baseline[i]!.rps);
console.log(`\nMax throughput (${connections} connections, ${seconds} s; median of ${rounds} rounds, each against the baseline run just before it)`);
console.log(
  `${'target'.padEnd(18)} ${'events/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'÷ bare'.padStart(8)}  ÷ bare by round`,
);
for (const run of runs) console.log(`${row(run.target.name, medianOf(run.max), median(ratios(run)))}  ${spread(ratios(run))}`);
const cpuTable = (title: string, of: (run: Measured) => CpuPerEvent[], legend: string) => {
  console.log(`\nCPU per event ${title} (µs; median of rounds; ${legend})`);
  console.log(`${'target'.padEnd(18)} ${'server'.padStart(9)} ${'main thread'.padStart(12)} ${'PostgreSQL'.padStart(11)} ${'generator'.padStart(10)}`);
  for (const run of runs) {
    const us = (pick: (c: CpuPerEvent) => number, width: number) => median(of(run).map(pick)).toFixed(0).padStart(width);
    console.log(
      `${run.target.name.padEnd(18)} ${us((c) => c.server, 9)} ${us((c) => c.serverMain, 12)} ${us((c) => c.postgres, 11)} ${us((c) => c.generator, 10)}`,
    );
  }
};
cpuTable(
  'at full speed',
  (run) => run.max.map((r) => r.cpu),
  "PGlite runs inside the server, so its PostgreSQL is 0; of the server's, its main thread's, and the rest its other threads': V8's GC helpers and, with PGlite, PostgreSQL's",
);
const byRound = (run: Measured, pick: (r: PacedResult) => number) => run.fixed.map((r) => pick(r).toFixed(1)).join(' / ');
const width = Math.max(12, ...runs.map((run) => byRound(run, (r) => r.p99).length));
console.log(
  `\nSteady ${rate.toLocaleString('en')} events/s (open loop, latency from each request's due time; ${settle} s to settle after the ` +
    `full-speed run, then ${seconds} s measured; median of ${rounds} rounds)`,
);
console.log(
  `${'target'.padEnd(18)} ${'events/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)}  ` +
    `${'p99 by round'.padEnd(width)}  p99 with the settling seconds, by round`,
);
for (const run of runs) {
  console.log(`${row(run.target.name, medianOf(run.fixed))} ${byRound(run, (r) => r.p99).padEnd(width)}  ${byRound(run, (r) => r.p99Whole)}`);
}
// At the steady rate nearly every event is a batch and a commit of its own: what one event costs alone, where a
// server's spare time (and so how fast it works off a backlog after a stall) is decided.
cpuTable(
  `at the steady ${rate.toLocaleString('en')} events/s, settling seconds included`,
  (run) => run.fixedCpu,
  'PGlite runs inside the server; PostgreSQL includes its background work, which weighs more over a steady round ' +
    "than at full speed; the generator's includes building the round's requests and, with PostgreSQL, the WAL watcher",
);
if (walWords !== undefined) {
  console.log(`\nPostgreSQL's WAL fsyncs in each steady round, settling seconds included (WAL: ${walWords}): a stall holds every commit in flight`);
  for (const run of runs.filter((r) => r.syncs.length > 0)) console.log(`${run.target.name.padEnd(18)} ${run.syncs.join(' | ')}`);
}
console.log(
  `\nLate requests in bursts in each steady round (≥ ${BURST_MIN_LATE} answered over ${LATE_MS} ms, each due within ${BURST_GAP_MS} ms of the one before; with ` +
    `PostgreSQL, those beside WAL waits: the backends waited on the WAL ${WAL_FACTOR}× as often as outside bursts; see src/bursts.ts)`,
);
for (const run of runs) console.log(`${run.target.name.padEnd(18)} ${run.bursts.join(' | ')}`);
console.log(
  `\nThe server's main thread waiting for a CPU (ready to run, its turn taken by another process or thread), share of each steady round, settling seconds included`,
);
for (const run of runs) {
  console.log(`${run.target.name.padEnd(18)} ${run.cpuWait.map((w) => (w === undefined ? '?' : `${(w * 100).toFixed(0)} %`)).join(' / ')}`);
}
console.log(`\nThe server's pauses and group commits in each steady round, settling seconds included (from its /metrics)`);
for (const run of runs.filter((r) => r.pauses.length > 0)) console.log(`${run.target.name.padEnd(18)} ${run.pauses.join(' | ')}`);
const checkpointed = runs.filter((r) => r.checkpoints);
if (checkpointed.length > 0) {
  console.log(`\nThe embedded database's checkpoints over the whole run, warm-up and the gaps while other targets ran included`);
  for (const run of checkpointed) console.log(`${run.target.name.padEnd(18)} ${run.checkpoints}`);
}

// The goals, judged on this run's figures (goals.ts says how targets run at different moments are compared).
const figuresOf = (name: string): TargetFigures | undefined => {
  const run = runs.find((r) => r.target.name === name);
  return (
    run && {
      perBare: median(ratios(run)),
      cpuUs: median(run.max.map((r) => r.cpu.server + r.cpu.postgres)),
      steadyP99s: run.fixed.map((r) => r.p99),
    }
  );
};
const goals = judge({ pglite: figuresOf('vigil pglite'), postgres: figuresOf('vigil postgres'), floor: figuresOf('durable floor pg') });
if (goals.length > 0)
  console.log(`
Goals (this run)
${formatGoals(goals)}`);
