import { Worker } from 'node:worker_threads';

/**
 * The watchdog's own thread, run with `new Worker(source, { eval: true })`: a string rather than a module file, so it
 * runs the same from the bundled CLI (dist/cli.js, whose chunks have no file beside them to point a Worker at) and
 * from dist/cli/. It counts its own ticks rather than reading the clock, so a machine that slept is not mistaken
 * for a held event loop.
 */
const WATCHDOG_THREAD_SOURCE = `
'use strict';
const { writeSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
const { beat, seconds } = workerData;
let last = Atomics.load(beat, 0);
let still = 0;
setInterval(() => {
  const now = Atomics.load(beat, 0);
  still = now === last ? still + 1 : 0;
  last = now;
  if (still < seconds) return;
  writeSync(
    2,
    'vigil: the event loop has not run for ' + seconds + ' s (the embedded database hung?); ' +
      'ending the process so that it can be restarted (VIGIL_WATCHDOG_SECONDS)\\n',
  );
  process.kill(process.pid, 'SIGKILL');
}, 1000);
`;

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
  const worker = new Worker(WATCHDOG_THREAD_SOURCE, { eval: true, workerData: { beat, seconds }, execArgv: [] });
  worker.unref();
  // A watchdog that fails must not take Vigil with it.
  worker.on('error', () => {});
  return () => {
    clearInterval(timer);
    void worker.terminate();
  };
}
