/**
 * @vigil/browser — client-side event tracking and device signals.
 * Importing this module runs nothing: no globals are read until setup()/createVigil() is called.
 */
import { createVigil, type SetupOptions, type Vigil } from "./browser/create.js";
import type { Signals, TrackResult } from "./core/types.js";

let instance: Vigil | null = null;
let pendingIdentity: string | null | undefined;

/** Configures the shared client. `url` is the Vigil service address with the path /js. */
export function setup(options: SetupOptions): Vigil {
  instance = createVigil(options);
  if (pendingIdentity !== undefined) instance.identify(pendingIdentity);
  return instance;
}

/** Links later events (and the next get()) to a user; null or empty clears it. Works before setup(). */
export function identify(identity: string | null | undefined): void {
  if (instance) instance.identify(identity);
  else pendingIdentity = identity;
}

/** Sends an event. Resolves with sent / queued (persisted, retried later) / dropped (with a reason); never rejects. */
export function track(event: string, properties?: Record<string, unknown>): Promise<TrackResult> {
  return instance ? instance.track(event, properties) : Promise.resolve({ status: "dropped", event_id: "", reason: "not_configured" });
}

/** Resolves to the signals: handprint_id, device_id, browser_token, confidence, …; never rejects. */
export function get(): Promise<Signals> {
  if (instance) return instance.get();
  return Promise.resolve({
    handprint_id: null,
    device_id: null,
    browser_token: null,
    confidence: null,
    expires_at: null,
    is_new_handprint: null,
    device_signals: null,
    collection_ms: null,
    error: { code: "not_configured", message: "call Vigil.setup({ url }) first" },
  });
}

export { createVigil };
export { VERSION as version } from "./version.js";
export type { SetupOptions, Vigil } from "./browser/create.js";
export type { Clock, FetchLike, KeyValueStore, LibraryWarning, RandomBytes, Signals, SignalsError, TrackResult, TrackStatus } from "./core/types.js";
export type { DeviceSignals, AutomationSignals } from "./signals/automation.js";
export type { Component, Components, Source } from "./sources/types.js";
