import type { Source } from "./types.js";

/** Fonts that tell operating systems, office suites and language packs apart. */
export const FONT_CANDIDATES: readonly string[] = [
  // Windows and Office
  "Calibri",
  "Cambria",
  "Consolas",
  "Segoe UI",
  "Segoe UI Emoji",
  "Tahoma",
  "MS Gothic",
  "Microsoft YaHei",
  "Malgun Gothic",
  "Franklin Gothic Medium",
  "Century Gothic",
  "Marlett",
  "Garamond",
  "Bookman Old Style",
  // macOS and iOS
  "Helvetica Neue",
  "Menlo",
  "Monaco",
  "Avenir",
  "Futura",
  "Gill Sans",
  "PingFang SC",
  "Hiragino Sans",
  "Geneva",
  // Linux distributions
  "DejaVu Sans",
  "Liberation Sans",
  "Ubuntu",
  "Cantarell",
  "Noto Color Emoji",
  "FreeSans",
  // Everywhere, or installed with apps
  "Arial",
  "Times New Roman",
  "Courier New",
  "Comic Sans MS",
  "Roboto",
  "Open Sans",
  "Lato",
];

const BASES = ["monospace", "sans-serif", "serif"] as const;
const SAMPLE = "mmMwWLliI10O&@#\u00e9\u4e2d";

export const fonts: Source<string[]> = {
  name: "fonts",
  collect() {
    return detectFonts(FONT_CANDIDATES);
  },
};

/**
 * Canvas text measurement: a font is installed when text set in it (with a generic fallback) measures
 * differently from the bare fallback for at least one generic family. No DOM layout, so it stays fast.
 */
export function detectFonts(candidates: readonly string[]): string[] {
  const ctx = document.createElement("canvas").getContext("2d");
  if (!ctx) throw new Error("2d context unavailable");
  const measure = (font: string) => {
    ctx.font = `72px ${font}`;
    const m = ctx.measureText(SAMPLE);
    return `${m.width}/${m.actualBoundingBoxAscent}/${m.actualBoundingBoxDescent}`;
  };
  const baseline = BASES.map(measure);
  // Each new family name costs a system font lookup; stop at the first fallback that shows a difference.
  return candidates.filter((name) => BASES.some((base, i) => measure(`"${name}", ${base}`) !== baseline[i]));
}
