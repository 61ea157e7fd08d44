import type { PGlite } from '@electric-sql/pglite';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * The PGlite client as drizzle uses it (`query`, `exec`, `transaction`), but with at most one call of this view
 * queued or running at a time, each started on a fresh turn of the event loop. PGlite runs statements in arrival
 * order on its one connection (on its own thread: pglite-thread.ts): a reporting query of many statements queued
 * at once would hold off every group commit until its last one. One at a time, each after a turn, lets group
 * commits and new requests in between. Calls through the client itself (ingestion) are not held back.
 */
export function oneAtATime(client: PGlite): PGlite {
  let tail: Promise<unknown> = Promise.resolve();
  const queued = <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(nextTurn).then(run);
    tail = result.catch(() => undefined);
    return result;
  };
  const view = {
    query: (...args: Parameters<PGlite['query']>) => queued(() => client.query(...args)),
    exec: (...args: Parameters<PGlite['exec']>) => queued(() => client.exec(...args)),
    transaction: (...args: Parameters<PGlite['transaction']>) => queued(() => client.transaction(...args)),
  };
  return view as unknown as PGlite;
}
