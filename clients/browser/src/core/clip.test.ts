import { describe, expect, it } from "vitest";
import { clip } from "./clip.js";

describe("clip", () => {
  it("keeps text within the limit as it is", () => {
    expect(clip("hello", 10)).toBe("hello");
    expect(clip("hello", 3)).toBe("hel");
  });

  it("never leaves half of a surrogate pair at the end", () => {
    const text = "ab😀cd";
    expect(clip(text, 3)).toBe("ab");
    expect(clip(text, 4)).toBe("ab😀");
    for (let max = 0; max <= text.length; max++) expect(clip(text, max)).not.toMatch(/[\ud800-\udbff]$/);
  });
});
