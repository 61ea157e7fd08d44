import type { Source } from "./types.js";

export interface ScreenReading {
  width: number;
  height: number;
  color_depth: number;
  /** Space left by task bars/docks: changes when they move, so the server treats it as volatile. */
  avail_width: number;
  avail_height: number;
  /** The window's size: changes on every resize, so never part of the handprint identity. */
  inner_width: number;
  inner_height: number;
  orientation: string | null;
}

export const screenSource: Source<ScreenReading> = {
  name: "screen",
  collect() {
    const s = window.screen;
    return {
      width: s.width,
      height: s.height,
      color_depth: s.colorDepth,
      avail_width: s.availWidth,
      avail_height: s.availHeight,
      inner_width: window.innerWidth,
      inner_height: window.innerHeight,
      orientation: s.orientation?.type ?? null,
    };
  },
};
