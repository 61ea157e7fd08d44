import { hash64 } from "../hash.js";
import type { Source } from "./types.js";

export interface PluginsReading {
  count: number;
  pdf_viewer: boolean | null;
  names: string;
}

/** Plugin list (now a fixed PDF list in modern browsers): empty lists are an automation hint. */
export const plugins: Source<PluginsReading> = {
  name: "plugins",
  collect() {
    const list = Array.from(navigator.plugins ?? [], (p) => p.name);
    const pdf = (navigator as Navigator & { pdfViewerEnabled?: unknown }).pdfViewerEnabled;
    return { count: list.length, pdf_viewer: typeof pdf === "boolean" ? pdf : null, names: hash64(list.join(",")) };
  },
};
