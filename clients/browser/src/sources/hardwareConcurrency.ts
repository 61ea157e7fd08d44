import type { Source } from "./types.js";

/** Logical CPU cores; null where the browser does not tell. */
export const hardwareConcurrency: Source<number | null> = {
  name: "hardware_concurrency",
  collect() {
    const n = navigator.hardwareConcurrency;
    return typeof n === "number" ? n : null;
  },
};
