import { writeSync } from 'node:fs';
import { workerData } from 'node:worker_threads';

// The watchdog's own thread (see watchdog.ts). It counts its own ticks rather than reading the clock, so a
// machine that slept is not mistaken for a held event loop.
const { beat, seconds } = workerData as { beat: Int32Array; seconds: number };
let last = Atomics.load(beat, 0);
let still = 0;
setInterval(() => {
  const now = Atomics.load(beat, 0);
  still = now === last ? still + 1 : 0;
  last = now;
  if (still < seconds) return;
  writeSync(
    2,
    `vigil: the event loop has not run for ${seconds} s (the embedded database hung?); ` +
      'ending the process so that it can be restarted (VIGIL_WATCHDOG_SECONDS)\n',
  );
  process.kill(process.pid, 'SIGKILL');
}, 1000);
