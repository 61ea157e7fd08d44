import { randomId } from "./ids.js";
import type { KeyValueStore, RandomBytes } from "./types.js";

export const DEVICE_ID_KEY = "vigil_did";
const VALID = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * The web device_id: first-party, random, kept in every store given (localStorage first, then a cookie) so
 * losing one of them does not lose the id. Cleared storage means a new id: the handprint survives that.
 */
export function loadOrCreateDeviceId(stores: readonly KeyValueStore[], randomBytes: RandomBytes): string {
  let found: string | null = null;
  for (const store of stores) {
    const value = safeGet(store);
    if (value && VALID.test(value)) {
      found = value;
      break;
    }
  }
  const id = found ?? randomId("web_", randomBytes);
  for (const store of stores) {
    if (safeGet(store) !== id) {
      try {
        store.set(DEVICE_ID_KEY, id);
      } catch {
        // Storage blocked or full: the id then lives only in the stores that accepted it (or this page's memory).
      }
    }
  }
  return id;
}

function safeGet(store: KeyValueStore): string | null {
  try {
    return store.get(DEVICE_ID_KEY);
  } catch {
    return null;
  }
}
