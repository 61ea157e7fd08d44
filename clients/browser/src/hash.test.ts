import { describe, expect, it } from "vitest";
import { hash64 } from "./hash.js";

describe("hash64", () => {
  it("is deterministic, 16 hex characters, and spreads near-identical inputs", () => {
    expect(hash64("data:image/png;base64,AAAA")).toBe(hash64("data:image/png;base64,AAAA"));
    expect(hash64("")).toMatch(/^[0-9a-f]{16}$/);
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(hash64(`canvas-${i}`));
    expect(seen.size).toBe(20_000);
    expect(hash64("ab")).not.toBe(hash64("ba"));
  });
});
