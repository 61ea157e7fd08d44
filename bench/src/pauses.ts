import type { Target } from './targets.js';

/** What a Vigil server's own metrics say of its pauses during a stretch: event-loop delay and garbage collection. */
export interface Pauses {
  /** The longest event-loop delay (ms), from Node's monitorEventLoopDelay at 10 ms resolution. */
  loopMaxMs: number;
  /** Garbage collections, and those of 10 ms or more, all kinds. */
  gcs: number;
  gcsOver10Ms: number;
}

interface GcCounts {
  total: number;
  upTo10Ms: number;
}

/** Sums the GC histogram's count and its ≤ 10 ms bucket over its kinds, and reads the event loop's longest delay. */
function parse(text: string): { gc: GcCounts; loopMaxMs: number } {
  const gc: GcCounts = { total: 0, upTo10Ms: 0 };
  let loopMaxMs = 0;
  for (const line of text.split('\n')) {
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('vigil_nodejs_gc_duration_seconds_count')) gc.total += value;
    else if (line.startsWith('vigil_nodejs_gc_duration_seconds_bucket') && line.includes('le="0.01"')) gc.upTo10Ms += value;
    else if (line.startsWith('vigil_nodejs_eventloop_lag_max_seconds')) loopMaxMs = value * 1000;
  }
  return { gc, loopMaxMs };
}

/**
 * Starts watching a Vigil server's pauses: a scrape of its /metrics now (which also restarts the event-loop delay
 * histogram, as every scrape does) and one when `stop` is called. A steady round's p99 over its goal with no slow
 * commit (wal.ts) may be the server's own pause: a long GC or a long synchronous stretch holds every request in flight.
 */
export async function watchPauses(target: Target): Promise<{ stop(): Promise<Pauses> }> {
  const scrape = async () => parse(await (await fetch(`${target.url}/metrics`)).text());
  const before = await scrape();
  return {
    stop: async () => {
      const after = await scrape();
      const gcs = after.gc.total - before.gc.total;
      return { loopMaxMs: after.loopMaxMs, gcs, gcsOver10Ms: gcs - (after.gc.upTo10Ms - before.gc.upTo10Ms) };
    },
  };
}

export const describePauses = (p: Pauses) => `event loop delayed up to ${p.loopMaxMs.toFixed(0)} ms; ${p.gcs} GCs, ${p.gcsOver10Ms} of them ≥ 10 ms`;
