import type { Components } from "../sources/types.js";
import type { DeviceSignals } from "../signals/automation.js";

/** Time, injected so retry and expiry behaviour is testable without waiting. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Cryptographic randomness where available (crypto.getRandomValues in browsers). */
export type RandomBytes = (length: number) => Uint8Array;

/** Synchronous string storage (localStorage, a cookie, memory). Implementations may throw; callers cope. */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

export interface ResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface RequestInitLike {
  method: "POST";
  headers: Record<string, string>;
  body: string;
  keepalive?: boolean;
  credentials?: "omit";
  mode?: "cors";
}

/** The subset of window.fetch the library uses. */
export type FetchLike = (url: string, init: RequestInitLike) => Promise<ResponseLike>;

export interface Collected {
  components: Components;
  device_signals: DeviceSignals;
  /** Total collection time in ms (printed by the timing test; never asserted). */
  ms: number;
}

export interface SignalsError {
  code: string;
  message: string;
  status?: number;
}

/** What get() resolves to. On failure the ids are null and `error` says why; get() never rejects. */
export interface Signals {
  handprint_id: string | null;
  device_id: string | null;
  browser_token: string | null;
  confidence: number | null;
  /** When browser_token stops being accepted (ISO 8601). */
  expires_at: string | null;
  is_new_handprint: boolean | null;
  device_signals: DeviceSignals | null;
  collection_ms: number | null;
  error?: SignalsError;
}

export type TrackStatus = "sent" | "queued" | "dropped";

/** track() never rejects: `queued` means persisted and retried later; `dropped` says why it was given up. */
export interface TrackResult {
  status: TrackStatus;
  /** Idempotency key of this event (properties.event_id on the server). */
  event_id: string;
  reason?: string;
  /** What was changed to make the event fit (`identity_truncated`); the event went with the changed value. */
  warnings?: LibraryWarning[];
}

/** Something the library changed or could not do, reported instead of done silently. */
export interface LibraryWarning {
  code: "identity_truncated";
  message: string;
}
