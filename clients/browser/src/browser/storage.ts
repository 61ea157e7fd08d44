import type { KeyValueStore } from "../core/types.js";

/** localStorage; every access may throw (blocked storage, Safari private mode quotas). */
export function localStore(): KeyValueStore {
  return {
    get: (key) => window.localStorage.getItem(key),
    set: (key, value) => window.localStorage.setItem(key, value),
    remove: (key) => window.localStorage.removeItem(key),
  };
}

const COOKIE_MAX_AGE = 400 * 24 * 3600; // browsers cap cookie lifetime at 400 days

/** A first-party cookie; a fallback for the device_id when localStorage is cleared or blocked. */
export function cookieStore(): KeyValueStore {
  const secure = () => (window.location.protocol === "https:" ? "; Secure" : "");
  return {
    get(key) {
      const prefix = `${encodeURIComponent(key)}=`;
      for (const part of document.cookie.split(/;\s*/)) {
        if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length));
      }
      return null;
    },
    set(key, value) {
      document.cookie = `${encodeURIComponent(key)}=${encodeURIComponent(value)}; path=/; max-age=${COOKIE_MAX_AGE}; SameSite=Lax${secure()}`;
    },
    remove(key) {
      document.cookie = `${encodeURIComponent(key)}=; path=/; max-age=0; SameSite=Lax${secure()}`;
    },
  };
}

export function memoryStore(): KeyValueStore {
  const data = new Map<string, string>();
  return {
    get: (key) => data.get(key) ?? null,
    set: (key, value) => void data.set(key, value),
    remove: (key) => void data.delete(key),
  };
}
