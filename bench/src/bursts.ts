/**
 * A steady round's late requests, placed in time. Late requests at a steady rate come in bursts, many due within a
 * few milliseconds of each other, when something held every request in flight: a slow WAL flush, a pause of the
 * server, the generator or the machine. A round over its p99 goal has a few such bursts; where each one sat tells
 * what set the round, where the round's totals (the longest commit wait, the longest event-loop stall) cannot: a
 * burst made of many backends each waiting a few ms behind another's flush shows in neither.
 */

/** A request later than this (ms from its due time) is late: the p99 goal of the steady rounds. */
export const LATE_MS = 10;
/** Late requests each due within this many ms of the one before belong to one burst (1,000 events/s: 1 ms apart). */
export const BURST_GAP_MS = 25;
/** A group of fewer late requests than this is noise, not a burst. */
export const BURST_MIN_LATE = 5;

/** A late request: when it was due (performance.now() of the generator) and how late it was answered (ms). */
export interface Late {
  at: number;
  ms: number;
}

export interface Burst {
  /** Due time of its first and last late request. */
  from: number;
  to: number;
  late: number;
  /** The latest of its answers, ms from its due time. */
  maxMs: number;
}

/** The bursts among late requests: runs of BURST_MIN_LATE or more, each due within BURST_GAP_MS of the one before. */
export function lateBursts(late: readonly Late[]): Burst[] {
  const sorted = [...late].sort((a, b) => a.at - b.at);
  const bursts: Burst[] = [];
  let run: Burst | undefined;
  const close = () => {
    if (run && run.late >= BURST_MIN_LATE) bursts.push(run);
  };
  for (const r of sorted) {
    if (run && r.at - run.to <= BURST_GAP_MS) {
      run.to = r.at;
      run.late += 1;
      run.maxMs = Math.max(run.maxMs, r.ms);
    } else {
      close();
      run = { from: r.at, to: r.at, late: 1, maxMs: r.ms };
    }
  }
  close();
  return bursts;
}

/** One sample of the WAL watcher: when, and how many of the server's backends waited on the WAL then. */
export interface WalSample {
  at: number;
  waiting: number;
}

/** A burst sits beside WAL waits when its backends waited on the WAL this many times as often as outside bursts. */
export const WAL_FACTOR = 2;
/**
 * The samples counted around a burst reach this far before its first late request was due and after its last: a
 * flush that began before a request was due can hold it, and so can one that began while it waited.
 */
export const WAL_MARGIN_MS = 50;

/**
 * How many bursts the server's backends spent waiting on the WAL (in a flush, or behind one) at least WAL_FACTOR
 * times as often as outside every burst. Relative, so a round whose commits all wait for a slow disk finds none beside
 * it, and one short flush among many quiet samples may not show: a burst not beside WAL waits was more likely set by
 * the server, the generator or the machine, not surely.
 */
export function besideWalWaits(bursts: readonly Burst[], samples: readonly WalSample[]): number {
  const near = (s: WalSample, b: Burst) => s.at >= b.from - WAL_MARGIN_MS && s.at <= b.to + WAL_MARGIN_MS;
  const quiet = samples.filter((s) => !bursts.some((b) => near(s, b)));
  const mean = (of: readonly WalSample[]) => of.reduce((n, s) => n + s.waiting, 0) / of.length;
  const baseline = quiet.length > 0 ? mean(quiet) : 0;
  return bursts.filter((b) => {
    const around = samples.filter((s) => near(s, b));
    if (around.length === 0) return false;
    const waiting = mean(around);
    return waiting > 0 && waiting >= WAL_FACTOR * baseline;
  }).length;
}

/** "3 bursts (41 late, up to 52 ms), 2 beside WAL waits", or "no bursts" (with the WAL part only when it was watched). */
export function describeBursts(bursts: readonly Burst[], samples?: readonly WalSample[]): string {
  if (bursts.length === 0) return 'no bursts';
  const late = bursts.reduce((n, b) => n + b.late, 0);
  const latest = Math.max(...bursts.map((b) => b.maxMs));
  const wal = samples ? `, ${besideWalWaits(bursts, samples)} beside WAL waits` : '';
  return `${bursts.length} burst${bursts.length === 1 ? '' : 's'} (${late} late, up to ${latest.toFixed(0)} ms)${wal}`;
}
