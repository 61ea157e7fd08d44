import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * Loaded into a measured server with `--import` (profile.ts sets NODE_OPTIONS): a CPU profile of its main thread over
 * a window the benchmark chooses, not over its start. The first SIGUSR2 starts the profiler, the next stops it and
 * writes `<BENCH_PROFILE_FILE>-<n>.cpuprofile` (renamed into place whole, so a reader never sees half of it); and so
 * on, one file per window. Without BENCH_PROFILE_FILE it does nothing, so the CLI commands the bench runs beside
 * (`vigil keys create`) are untouched.
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
      // V8's default is 1 ms; 0.5 ms gives a 10 s window ~20,000 samples at a few per cent of overhead.
      session.post('Profiler.setSamplingInterval', { interval: 500 });
      session.post('Profiler.start');
      return;
    }
    const done = session;
    session = undefined;
    const file = `${out}-${++windows}.cpuprofile`;
    done.post('Profiler.stop', (error, result) => {
      if (!error) {
        writeFileSync(`${file}.part`, JSON.stringify(result.profile));
        renameSync(`${file}.part`, file);
      }
      done.disconnect();
    });
  });
}
