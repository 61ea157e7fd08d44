import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a Vigil process, set as it starts (they apply to its every thread, PGlite's included).
 *
 * `--no-allocation-site-pretenuring`: V8 watches where objects are made, and once most of a place's objects outlive
 * two young collections it makes that place's next objects in the old generation directly. At full speed a request
 * waits tens of ms in its group commit, and the pipeline's per-event objects outlive two young collections; V8 then
 * kept making them in the old generation after the load fell back to 1,000 events/s, where each lives a few ms, and
 * the garbage they left there brought a full collection of the main thread every 4–8 s (a 6–15 ms pause, and a core
 * taken for tens of ms of marking: a burst of late answers on two cores). Measured at 1,000 events/s after a
 * full-speed run: ~90 kB promoted a young collection against ~190 kB, and no full collection in two rounds.
 */
export const V8_FLAGS = ['--no-allocation-site-pretenuring'];

export function tuneV8(set: (flags: string) => void = setFlagsFromString): void {
  for (const flag of V8_FLAGS) set(flag);
}
