import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * Loaded into a measured server with `--import` (profile.ts sets NODE_OPTIONS): a CPU profile of its main thread over
 * a window the benchmark chooses, not over its start. The first SIGUSR2 starts the profiler, the next stops it and
 * writes `<BENCH_PROFILE_FILE>-<n>.cpuprofile` (renamed into place whole, so a reader never sees half of it); and so
 * on, one file per window. Without BENCH_PROFILE_FILE it does nothing. The CLI commands started with the same
 * environment (`vigil keys create`) install the handler too, and are never signalled.
 */
const out = process.env.BENCH_PROFILE_FILE;
if (out) {
  let session: Session | undefined;
  let windows = 0;
  process.on('SIGUSR2', () => {
    if (!session) {
      session = new Session();
      session.connect();
      session.post('Profiler.enable');
      // V8's default, said here because the bench prints it: every 1 ms. Each sample interrupts the thread, idle or
      // not, so a shorter interval costs an idle server more than it tells.
      session.post('Profiler.setSamplingInterval', { interval: 1000 });
      session.post('Profiler.start');
      return;
    }
    const done = session;
    session = undefined;
    const file = `${out}-${++windows}.cpuprofile`;
    done.post('Profiler.stop', (error, result) => {
      // The bench waits for the file: without it, this says why.
      if (error) console.error(`bench profiler: no profile written: ${error.message}`);
      else {
        writeFileSync(`${file}.part`, JSON.stringify(result.profile));
        renameSync(`${file}.part`, file);
      }
      done.disconnect();
    });
  });
}
