import type { Source } from "./types.js";

export interface TouchReading {
  max_touch_points: number;
  touch_event: boolean;
  /** The primary pointer's precision, from media queries. */
  pointer: "coarse" | "fine" | "none" | null;
  hover: boolean | null;
}

export const touch: Source<TouchReading> = {
  name: "touch",
  collect() {
    const mq = (q: string) => window.matchMedia(q).matches;
    let pointer: TouchReading["pointer"] = null;
    for (const p of ["coarse", "fine", "none"] as const) if (mq(`(pointer: ${p})`)) pointer = p;
    return {
      max_touch_points: navigator.maxTouchPoints ?? 0,
      touch_event: "ontouchstart" in window,
      pointer,
      hover: mq("(hover: hover)") ? true : mq("(hover: none)") ? false : null,
    };
  },
};
