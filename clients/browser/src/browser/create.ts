import { createCore, type VigilCore } from "../core/client.js";
import { resolveEndpoints } from "../core/endpoints.js";
import type { Clock, FetchLike, KeyValueStore, LibraryWarning, RandomBytes, Signals, TrackResult } from "../core/types.js";
import { defaultSources } from "../sources/index.js";
import type { Source } from "../sources/types.js";
import { collect } from "./collect.js";
import { cookieStore, localStore, memoryStore } from "./storage.js";

export interface SetupOptions {
  /** The Vigil service address with the path /js, e.g. "https://vigil.example.com/js". */
  url: string;
  /** Optional client key (vigil_ck_…) when the operator requires one. Never put a write key in a page. */
  clientKey?: string;
  /** Per-source time limit in ms (default 1000). */
  sourceTimeoutMs?: number;
  // Injection points (tests, unusual hosts). Browser defaults are used when absent.
  fetch?: FetchLike;
  clock?: Clock;
  randomBytes?: RandomBytes;
  /** A number in [0, 1) for retry jitter (default: drawn from randomBytes). */
  random?: () => number;
  storage?: KeyValueStore;
  deviceIdStores?: readonly KeyValueStore[];
  sources?: readonly Source[];
  /** Told when the library changes what the page gave it (an identity over 256 characters is cut); default: console.warn. */
  onWarning?: (warning: LibraryWarning) => void;
}

export interface Vigil {
  identify(identity: string | null | undefined): void;
  track(event: string, properties?: Record<string, unknown>): Promise<TrackResult>;
  get(): Promise<Signals>;
  flush(): Promise<void>;
}

const hasWindow = () => typeof window !== "undefined" && typeof document !== "undefined";

/**
 * Creates a client. Nothing runs until a method is called; outside a browser (server-side rendering) every method
 * resolves with an `unsupported_environment` error instead of touching browser APIs.
 */
export function createVigil(options: SetupOptions): Vigil {
  let core: VigilCore;
  try {
    if (!options?.fetch && !hasWindow()) return disabled("unsupported_environment", "Vigil runs in a browser; no window here");
    const endpoints = resolveEndpoints(options?.url, hasWindow() ? window.location.href : undefined);
    const clock = options.clock ?? systemClock();
    const timeoutMs = options.sourceTimeoutMs ?? 1000;
    const sources = options.sources ?? defaultSources;
    const storage = options.storage ?? fallbackToMemory(localStore);
    core = createCore({
      endpoints,
      ...(options.clientKey ? { clientKey: options.clientKey } : {}),
      fetch: options.fetch ?? ((url, init) => window.fetch(url, init)),
      clock,
      randomBytes: options.randomBytes ?? cryptoRandom,
      ...(options.random ? { random: options.random } : {}),
      queueStore: storage,
      deviceIdStores: options.deviceIdStores ?? [storage, fallbackToMemory(cookieStore)],
      collect: () => collect(sources, clock, timeoutMs),
      onWarning: options.onWarning ?? ((warning) => globalThis.console?.warn?.(`Vigil: ${warning.message}`)),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    globalThis.console?.error?.(message);
    return disabled("invalid_config", message);
  }
  if (hasWindow()) {
    // Deliver what is queued when the page goes away; keepalive lets the request outlive it.
    const onHide = () => {
      if (document.visibilityState === "hidden") void core.flush({ keepalive: true });
    };
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", () => void core.flush({ keepalive: true }));
    // Events left by an earlier page (closed mid-send, offline) go out now.
    void core.flush();
  }
  return { identify: core.identify, track: core.track, get: core.get, flush: () => core.flush() };
}

function disabled(code: string, message: string): Vigil {
  return {
    identify() {},
    track: async () => ({ status: "dropped", event_id: "", reason: code }),
    get: async () => ({
      handprint_id: null,
      device_id: null,
      browser_token: null,
      confidence: null,
      expires_at: null,
      is_new_handprint: null,
      device_signals: null,
      collection_ms: null,
      error: { code, message },
    }),
    flush: async () => {},
  };
}

function systemClock(): Clock {
  return {
    now: () => Date.now(),
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

function cryptoRandom(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  const c = globalThis.crypto;
  if (c && typeof c.getRandomValues === "function") return c.getRandomValues(bytes);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return bytes;
}

/** Uses the store if it works right now (a write/read probe), else memory for this page's lifetime. */
function fallbackToMemory(make: () => KeyValueStore): KeyValueStore {
  try {
    const store = make();
    const probe = "vigil_probe";
    store.set(probe, "1");
    const ok = store.get(probe) === "1";
    store.remove(probe);
    if (ok) return store;
  } catch {
    // fall through
  }
  return memoryStore();
}
