import type { Source } from "./types.js";

/**
 * CPU family from how a negated NaN is stored: x86 keeps the sign bit (byte 255), ARM canonicalises it (127).
 */
export const architecture: Source<number> = {
  name: "architecture",
  collect() {
    const f = new Float32Array(1);
    const bytes = new Uint8Array(f.buffer);
    f[0] = Infinity;
    f[0] = (f[0] ?? 0) - (f[0] ?? 0);
    return bytes[3] ?? -1;
  },
};
