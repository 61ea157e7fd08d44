import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where PostgreSQL's CPU goes, from Linux's `perf`: every process on the machine sampled with its call stack, then
 * the samples of one server's processes (its backends, WAL writer, checkpointer, autovacuum, by pid) sorted into the
 * phases of running a statement. Needs `perf` and the right to sample the whole machine (root, or
 * kernel.perf_event_paranoid ≤ 0): `perfCanSample` says whether it has them. Stacks are walked by frame pointers, as
 * Debian builds PostgreSQL; where they are missing, samples fall into the last phase.
 */

/** The phases, in the order they are printed; executor phases are by what the sample was doing at its innermost. */
export const PHASES = [
  'receive (socket reads)',
  'bind: parameter input (the batch as jsonb)',
  'plan (cached plan checks)',
  'executor start (plan set-up)',
  'executor: rows from the JSON (jsonb_to_recordset)',
  'executor: heap inserts',
  'executor: index inserts',
  'executor: index reads (lookups, conflict checks)',
  'executor: the rest (joins, subqueries, expressions)',
  'executor end',
  'commit (WAL insert, write and flush)',
  'send (socket writes)',
  'background (WAL writer, checkpointer, autovacuum)',
  'other (messages, transaction start)',
] as const;
export type Phase = (typeof PHASES)[number];

/** Checked from the outermost frame in: the first that matches names the phase. */
const STAGES: [RegExp, Phase | 'executor'][] = [
  // AuxiliaryProcessMain heads them up to PostgreSQL 16; their own mains from 17 on.
  [
    /^(AuxiliaryProcessMain|WalWriterMain|CheckpointerMain|BackgroundWriterMain|WalSummarizerMain|AutoVacWorkerMain|AutoVacLauncherMain|StartBackgroundWorker|BackgroundWorkerMain)$/,
    'background (WAL writer, checkpointer, autovacuum)',
  ],
  [/^OidInputFunctionCall$/, 'bind: parameter input (the batch as jsonb)'],
  [/^GetCachedPlan$/, 'plan (cached plan checks)'],
  [/^standard_ExecutorStart$/, 'executor start (plan set-up)'],
  [/^(standard_ExecutorRun|standard_ExecutorFinish)$/, 'executor'],
  [/^standard_ExecutorEnd$/, 'executor end'],
  [/^CommitTransactionCommand$/, 'commit (WAL insert, write and flush)'],
  [/^secure_read$/, 'receive (socket reads)'],
  [/^secure_write$/, 'send (socket writes)'],
];

/**
 * Within the executor, in this order: the first that any frame below the executor matches. An index insert reads
 * the heap to check uniqueness, and that is the insert's cost, not a lookup's.
 */
const OPERATIONS: [RegExp, Phase][] = [
  [/^(ExecInsertIndexTuples|btinsert|_bt_doinsert)$/, 'executor: index inserts'],
  [/^(heap_insert|heapam_tuple_insert)$/, 'executor: heap inserts'],
  [/^(ExecMakeTableFunctionResult|jsonb_to_recordset|json_to_recordset|populate_recordset_worker)$/, 'executor: rows from the JSON (jsonb_to_recordset)'],
  [
    /^(index_getnext_slot|index_getnext_tid|index_getbitmap|btgetbitmap|btgettuple|_bt_first|_bt_next|index_fetch_heap|heap_hot_search_buffer)$/,
    'executor: index reads (lookups, conflict checks)',
  ],
];

/** The samples of one server's processes, and the share of them in each phase (summing to 1). */
export interface Phases {
  samples: number;
  shares: Map<Phase, number>;
}

/**
 * The phases of the samples of processes named postgres whose pid is in `pids`, from `perf script -F comm,pid,ip,sym`
 * output: per sample a line with the process name and pid, then its frames innermost first, one per line, then a
 * blank line.
 */
export function postgresPhases(script: string, pids: ReadonlySet<number>): Phases {
  const counts = new Map<Phase, number>();
  let total = 0;
  for (const block of script.split(/\n\s*\n/)) {
    const [head, ...frames] = block.split('\n').filter((line) => line.trim() !== '');
    const [comm, pid] = head?.trim().split(/\s+/) ?? [];
    if (comm !== 'postgres' || !pids.has(Number(pid))) continue;
    // "    4629da LWLockRelease": the symbol after the address, without an offset.
    const symbols = frames.map(
      (frame) =>
        frame
          .trim()
          .split(/\s+/)[1]
          ?.replace(/\+0x[0-9a-f]+$/, '') ?? '',
    );
    const phase = phaseOf(symbols);
    counts.set(phase, (counts.get(phase) ?? 0) + 1);
    total++;
  }
  return { samples: total, shares: new Map(PHASES.filter((phase) => counts.has(phase)).map((phase) => [phase, counts.get(phase)! / total])) };
}

/** The phase of one sample, from its symbols innermost first. */
export function phaseOf(symbols: readonly string[]): Phase {
  for (let i = symbols.length - 1; i >= 0; i--) {
    const stage = STAGES.find(([pattern]) => pattern.test(symbols[i]!))?.[1];
    if (stage === undefined) continue;
    if (stage !== 'executor') return stage;
    const below = symbols.slice(0, i);
    return OPERATIONS.find(([pattern]) => below.some((symbol) => pattern.test(symbol)))?.[1] ?? 'executor: the rest (joins, subqueries, expressions)';
  }
  return 'other (messages, transaction start)';
}

/** Why perf cannot sample the whole machine here, or undefined when it can: a short recording into `dir` says. */
export function perfCanSample(dir: string): string | undefined {
  const file = join(dir, 'probe.perf');
  const probe = spawnSync('perf', ['record', '-e', 'cpu-clock', '-a', '-o', file, 'true'], { stdio: 'ignore' });
  rmSync(file, { force: true });
  rmSync(`${file}.old`, { force: true });
  if (probe.error) return `perf did not run: ${probe.error.message}`;
  return probe.status === 0 ? undefined : 'perf may not sample the whole machine here: it needs root or kernel.perf_event_paranoid ≤ 0';
}

/** A running `perf record` of the whole machine. */
export interface PerfRecording {
  /** Stops the recording and returns the phases of the samples of processes `pids`. */
  stop(pids: ReadonlySet<number>): Promise<Phases>;
  /** Ends the recording if it still runs (a window that failed). */
  kill(): void;
}

export function startPerf(file: string): PerfRecording {
  const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '1999', '-a', '-g', '-o', file], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => perf.once('exit', () => resolve()));
  const kill = () => {
    if (perf.exitCode === null && perf.signalCode === null) perf.kill('SIGINT');
  };
  // Nor may the benchmark's own end leave it sampling.
  process.once('exit', kill);
  return {
    async stop(pids) {
      kill();
      await exited;
      process.off('exit', kill);
      const script = spawnSync('perf', ['script', '-i', file, '--comm', 'postgres', '-F', 'comm,pid,ip,sym'], {
        encoding: 'utf8',
        maxBuffer: 1 << 30,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      return postgresPhases(script.stdout ?? '', pids);
    },
    kill,
  };
}
