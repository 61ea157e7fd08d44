import { spawn, spawnSync } from 'node:child_process';

/**
 * Where PostgreSQL's CPU goes, from Linux's `perf`: every process on the machine sampled with its call stack, then
 * the samples of processes named postgres sorted into the phases of running a statement. The server's own
 * processes (its backends, WAL writer, checkpointer, autovacuum) are all named postgres, so run nothing else on
 * PostgreSQL meanwhile. Needs `perf` and the right to sample the whole machine (root, or
 * kernel.perf_event_paranoid ≤ 0); without them, `startPerf` returns undefined and the phases are not shown.
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
  [
    /^(AuxiliaryProcessMain|AutoVacWorkerMain|AutoVacLauncherMain|StartBackgroundWorker|BackgroundWorkerMain)$/,
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

/** Within the executor, checked from the innermost frame out. */
const OPERATIONS: [RegExp, Phase][] = [
  [/^(ExecInsertIndexTuples|btinsert|_bt_doinsert)$/, 'executor: index inserts'],
  [/^(heap_insert|heapam_tuple_insert)$/, 'executor: heap inserts'],
  [/^(ExecMakeTableFunctionResult|jsonb_to_recordset|json_to_recordset|populate_recordset_worker)$/, 'executor: rows from the JSON (jsonb_to_recordset)'],
  [
    /^(index_getnext_slot|index_getnext_tid|index_getbitmap|btgetbitmap|btgettuple|_bt_first|_bt_next|index_fetch_heap|heap_hot_search_buffer)$/,
    'executor: index reads (lookups, conflict checks)',
  ],
];

/**
 * The share of PostgreSQL's samples in each phase (summing to 1), from `perf script -F comm,ip,sym` output: per
 * sample a line with the process name, then its frames innermost first, one per line, then a blank line.
 */
export function postgresPhases(script: string): Map<Phase, number> {
  const counts = new Map<Phase, number>();
  let total = 0;
  for (const block of script.split(/\n\s*\n/)) {
    const [head, ...frames] = block.split('\n').filter((line) => line.trim() !== '');
    if (head?.trim().split(/\s+/)[0] !== 'postgres') continue;
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
  return new Map(PHASES.filter((phase) => counts.has(phase)).map((phase) => [phase, counts.get(phase)! / total]));
}

/** The phase of one sample, from its symbols innermost first. */
export function phaseOf(symbols: readonly string[]): Phase {
  for (let i = symbols.length - 1; i >= 0; i--) {
    const stage = STAGES.find(([pattern]) => pattern.test(symbols[i]!))?.[1];
    if (stage === undefined) continue;
    if (stage !== 'executor') return stage;
    for (const symbol of symbols.slice(0, i)) {
      const operation = OPERATIONS.find(([pattern]) => pattern.test(symbol))?.[1];
      if (operation) return operation;
    }
    return 'executor: the rest (joins, subqueries, expressions)';
  }
  return 'other (messages, transaction start)';
}

/** A running `perf record` of the whole machine, or undefined where perf cannot sample it. */
export interface PerfRecording {
  /** Stops the recording and returns PostgreSQL's phases in it. */
  stop(): Promise<Map<Phase, number>>;
}

export function startPerf(file: string): PerfRecording | undefined {
  // Whether perf runs and may sample every process: a short recording of its own.
  if (spawnSync('perf', ['record', '-e', 'cpu-clock', '-a', '-o', file, 'true'], { stdio: 'ignore' }).status !== 0) return undefined;
  const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '1999', '-a', '-g', '-o', file], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => perf.once('exit', () => resolve()));
  return {
    async stop() {
      perf.kill('SIGINT');
      await exited;
      const script = spawnSync('perf', ['script', '-i', file, '--comm', 'postgres', '-F', 'comm,ip,sym'], {
        encoding: 'utf8',
        maxBuffer: 1 << 30,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      return postgresPhases(script.stdout ?? '');
    },
  };
}
