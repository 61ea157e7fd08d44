import { Worker } from 'node:worker_threads';

/**
 * Ends the process when its event loop has not run for `seconds`: then nothing in JavaScript runs again, not
 * /healthz and not the SIGTERM handler, so only another thread can end it. PGlite's own hangs (a COMMIT on a full
 * disk spins for good) now happen on its thread, which db/pglite-thread.ts ends and restarts after the same time;
 * this guards against anything else that holds the loop. A held loop never recovers by itself; exiting lets the
 * supervisor restart Vigil. Returns a function that stops watching.
 */
export function startWatchdog(seconds: number): () => void {
  const beat = new Int32Array(new SharedArrayBuffer(4));
  const timer = setInterval(() => Atomics.add(beat, 0, 1), 500);
  timer.unref();
  const worker = new Worker(new URL('./watchdog-thread.js', import.meta.url), { workerData: { beat, seconds }, execArgv: [] });
  worker.unref();
  // A watchdog that fails must not take Vigil with it.
  worker.on('error', () => {});
  return () => {
    clearInterval(timer);
    void worker.terminate();
  };
}
