import type { Source } from "./types.js";

export interface StorageReading {
  local_storage: boolean;
  session_storage: boolean;
  indexed_db: boolean;
  cookies_enabled: boolean;
}

/** Which storage the browser allows: blocked storage explains a device_id that changes on every visit. */
export const storageSource: Source<StorageReading> = {
  name: "storage",
  collect() {
    const has = (read: () => unknown) => {
      try {
        return !!read();
      } catch {
        return false;
      }
    };
    return {
      local_storage: has(() => window.localStorage),
      session_storage: has(() => window.sessionStorage),
      indexed_db: has(() => window.indexedDB),
      cookies_enabled: navigator.cookieEnabled === true,
    };
  },
};
