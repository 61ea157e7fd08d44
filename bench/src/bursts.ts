/**
 * A steady round's late requests, placed in time. Late requests at a steady rate come in bursts, many due within a
 * few milliseconds of each other, when something held every request in flight: a slow WAL flush, a pause of the
 * server, the generator or the machine. A round over its p99 goal has a few such bursts; where each one sat tells
 * what set the round, where the round's totals (the longest commit wait, the longest event-loop stall) cannot: a
 * burst made of many backends each waiting a few ms behind another's flush shows in neither.
 */

/** A request later than this (ms from its due time) is late: the p99 goal of the steady rounds. */
export const LATE_MS = 10;
/** Late requests due within one such window of each other belong to one burst. */
export const BURST_WINDOW_MS = 100;
/** A window with fewer late requests than this is noise, not a burst. */
export const BURST_MIN_LATE = 5;

export interface Burst {
  /** Due time of its first and last late request (performance.now() of the generator). */
  from: number;
  to: number;
  late: number;
}

/** The bursts among late requests' due times: windows of BURST_WINDOW_MS with BURST_MIN_LATE or more, adjacent ones merged. */
export function lateBursts(dueTimes: readonly number[]): Burst[] {
  const windows = new Map<number, number[]>();
  for (const at of dueTimes) {
    const w = Math.floor(at / BURST_WINDOW_MS);
    windows.set(w, [...(windows.get(w) ?? []), at]);
  }
  const bursts: (Burst & { lastWindow: number })[] = [];
  for (const w of [...windows.keys()].sort((a, b) => a - b)) {
    const times = windows.get(w)!;
    if (times.length < BURST_MIN_LATE) continue;
    const last = bursts.at(-1);
    if (last && last.lastWindow === w - 1) {
      last.to = Math.max(...times);
      last.late += times.length;
      last.lastWindow = w;
    } else {
      bursts.push({ from: Math.min(...times), to: Math.max(...times), late: times.length, lastWindow: w });
    }
  }
  return bursts.map(({ from, to, late }) => ({ from, to, late }));
}

/** One sample of the WAL watcher: when, and how many of the server's backends waited on the WAL then. */
export interface WalSample {
  at: number;
  waiting: number;
}

/** A burst sits beside WAL waits when its backends waited on the WAL this many times as often as over the round. */
export const WAL_FACTOR = 2;

/**
 * The bursts during which the server's backends waited on the WAL (in a flush, or behind one) at least WAL_FACTOR
 * times as often as over the whole round, counting the samples from a window before the burst's first late request
 * was due to a window after its last one was: a flush that began before a request was due can hold it, and so can
 * one that began while it waited.
 */
export function besideWalWaits(bursts: readonly Burst[], samples: readonly WalSample[]): number {
  if (samples.length === 0) return 0;
  const mean = samples.reduce((n, s) => n + s.waiting, 0) / samples.length;
  return bursts.filter((b) => {
    const around = samples.filter((s) => s.at >= b.from - BURST_WINDOW_MS && s.at <= b.to + BURST_WINDOW_MS);
    if (around.length === 0) return false;
    const waiting = around.reduce((n, s) => n + s.waiting, 0) / around.length;
    return waiting > 0 && waiting >= WAL_FACTOR * mean;
  }).length;
}

/** "3 bursts (41 late, up to 52 ms), 2 beside WAL waits", or "no bursts" (with the WAL part only when it was watched). */
export function describeBursts(bursts: readonly Burst[], latest: number, samples?: readonly WalSample[]): string {
  if (bursts.length === 0) return 'no bursts';
  const late = bursts.reduce((n, b) => n + b.late, 0);
  const wal = samples ? `, ${besideWalWaits(bursts, samples)} beside WAL waits` : '';
  return `${bursts.length} burst${bursts.length === 1 ? '' : 's'} (${late} late, up to ${latest.toFixed(0)} ms)${wal}`;
}
