/**
 * Entry of the one-tag script (IIFE exposing window.Vigil). Unlike the ESM entry this one may read the page at
 * load time: it remembers its own address so `Vigil.setup()` can default `url` to the server that served it.
 */
import { get, identify, setup as setupWith, track, type SetupOptions, type Vigil } from "./index.js";

const scriptSrc = typeof document !== "undefined" && document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : "";

/** `url` defaults to the /js address this script was loaded from. */
export function setup(options?: Partial<SetupOptions>): Vigil {
  const url = options?.url ?? defaultUrl(scriptSrc);
  return setupWith({ ...options, url } as SetupOptions);
}

/** https://vigil.example.com/js/vigil.1a2b3c.min.js (or …/js?v=1) → https://vigil.example.com/js */
export function defaultUrl(src: string): string {
  const match = /^(.*?\/js)(?:[/?#].*)?$/.exec(src);
  return match?.[1] ?? "";
}

/** A call the loader snippet queued before this script arrived: method, its arguments, and its promise's resolve. */
type QueuedCall = [method: string, args: ArrayLike<unknown>, resolve?: (value: unknown) => void];

/**
 * Replays what the page called through the loader snippet (README, "Before the script loads") while this script
 * was on its way. `window.Vigil` is still the snippet's stub here: the bundle replaces it only after this runs.
 * `setup` calls go first, so a `track` queued before them is not dropped as not configured.
 */
export function replayQueued(stub: unknown): void {
  const queue = (stub as { q?: unknown } | null | undefined)?.q;
  if (!Array.isArray(queue)) return;
  const calls = queue as QueuedCall[];
  const api: Record<string, (...args: never[]) => unknown> = { setup, identify, track, get };
  for (const [method, args, resolve] of [...calls.filter((c) => c[0] === "setup"), ...calls.filter((c) => c[0] !== "setup")]) {
    const fn = api[method];
    if (!fn) continue;
    try {
      resolve?.((fn as (...a: unknown[]) => unknown)(...Array.from(args)));
    } catch {
      // Never throw into the host page.
    }
  }
  queue.length = 0;
}

replayQueued((globalThis as { Vigil?: unknown }).Vigil);

export { identify, track, get, createVigil, version } from "./index.js";
