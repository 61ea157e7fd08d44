import type { Source } from "./types.js";

export interface ColorReading {
  gamut: "rec2020" | "p3" | "srgb" | null;
  hdr: boolean;
  monochrome: boolean;
}

/** What the display can show: wide gamut and HDR screens are a minority and stay put. */
export const colorGamut: Source<ColorReading> = {
  name: "color_gamut",
  collect() {
    const mq = (q: string) => window.matchMedia(q).matches;
    let gamut: ColorReading["gamut"] = null;
    for (const g of ["rec2020", "p3", "srgb"] as const) {
      if (mq(`(color-gamut: ${g})`)) {
        gamut = g;
        break;
      }
    }
    return { gamut, hdr: mq("(dynamic-range: high)"), monochrome: mq("(monochrome)") };
  },
};
