import type { Source } from "./types.js";

/** Device pixel ratio (screen density). Browser zoom also changes it in Chromium; see the server's limits. */
export const pixelRatio: Source<number> = {
  name: "pixel_ratio",
  collect() {
    const dpr = window.devicePixelRatio;
    if (typeof dpr !== "number") throw new Error("devicePixelRatio unavailable");
    return Math.round(dpr * 1000) / 1000;
  },
};
