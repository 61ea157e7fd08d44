import type { Source } from "./types.js";

/** Approximate RAM in GiB, rounded and capped by the browser (Chromium only); null elsewhere. */
export const deviceMemory: Source<number | null> = {
  name: "device_memory",
  collect() {
    const m = (navigator as Navigator & { deviceMemory?: unknown }).deviceMemory;
    return typeof m === "number" ? m : null;
  },
};
