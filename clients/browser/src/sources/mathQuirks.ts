import { hash64 } from "../hash.js";
import type { Source } from "./types.js";

/**
 * Last-bit differences of transcendental functions between JavaScript engines and their maths libraries.
 * The raw values are reported with the hash so a server can see which function moved after an update.
 */
export const mathQuirks: Source<{ hash: string; values: string[] }> = {
  name: "math",
  collect() {
    const m = Math;
    const values = [
      m.acos(0.123124234234234242),
      m.acosh(1e308),
      m.asin(0.123124234234234242),
      m.asinh(1),
      m.atanh(0.5),
      m.atan(0.5),
      m.sin(-1e300),
      m.sinh(1),
      m.cos(10.000000000123),
      m.cosh(1),
      m.tan(-1e300),
      m.tanh(1),
      m.exp(1),
      m.expm1(1),
      m.log1p(10),
      m.pow(m.PI, -100),
      m.cbrt(100),
      m.log10(7),
    ].map((v) => String(v));
    return { hash: hash64(values.join(",")), values };
  },
};
