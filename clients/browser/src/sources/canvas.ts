import { hash64 } from "../hash.js";
import type { Source } from "./types.js";

export interface CanvasReading {
  /** Hash of text rendering (fonts, anti-aliasing, emoji). */
  text: string;
  /** Hash of shapes and blending (GPU/Skia rasterisation), independent of fonts. */
  geometry: string;
  /** False when two identical drawings differ: the browser adds noise, so the server ignores these hashes. */
  stable: boolean;
  winding: boolean;
}

export const canvas: Source<CanvasReading> = {
  name: "canvas",
  collect() {
    const text = drawText();
    const geometry = drawGeometry();
    const stable = text === drawText() && geometry === drawGeometry();
    const probe = context(8, 8);
    probe.rect(0, 0, 10, 10);
    probe.rect(2, 2, 6, 6);
    return { text: hash64(text), geometry: hash64(geometry), stable, winding: !probe.isPointInPath(5, 5, "evenodd") };
  },
};

function context(width: number, height: number): CanvasRenderingContext2D {
  const element = document.createElement("canvas");
  element.width = width;
  element.height = height;
  const ctx = element.getContext("2d");
  if (!ctx) throw new Error("2d context unavailable");
  return ctx;
}

function drawText(): string {
  const ctx = context(240, 60);
  ctx.textBaseline = "alphabetic";
  ctx.fillStyle = "#f60";
  ctx.fillRect(100, 1, 62, 20);
  ctx.fillStyle = "#069";
  ctx.font = '11pt "Times New Roman"';
  ctx.fillText("Vigil handprint, \u{1F98A} 0.1", 2, 15);
  ctx.fillStyle = "rgba(102, 204, 0, 0.2)";
  ctx.font = "18pt Arial";
  ctx.fillText("Vigil \u00e9\u00df\u03a9\u0416", 4, 45);
  return ctx.canvas.toDataURL();
}

function drawGeometry(): string {
  const ctx = context(122, 110);
  ctx.globalCompositeOperation = "multiply";
  const circles: Array<[string, number, number]> = [
    ["#f2f", 40, 40],
    ["#2ff", 80, 40],
    ["#ff2", 60, 80],
  ];
  for (const [color, x, y] of circles) {
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.arc(x, y, 40, 0, Math.PI * 2, true);
    ctx.closePath();
    ctx.fill();
  }
  ctx.fillStyle = "#f9c";
  ctx.arc(60, 60, 60, 0, Math.PI * 2, true);
  ctx.arc(60, 60, 20, 0, Math.PI * 2, true);
  ctx.fill("evenodd");
  return ctx.canvas.toDataURL();
}
