import { describe, expect, it } from "vitest";
import { defaultUrl } from "./script.js";

describe("the script's default url", () => {
  it.each([
    ["https://vigil.example.com/js", "https://vigil.example.com/js"],
    ["https://vigil.example.com/js/vigil.0.1.0.abcdef1234.min.js", "https://vigil.example.com/js"],
    ["https://vigil.example.com/js?v=2", "https://vigil.example.com/js"],
    ["https://js.example.com/risk/js/", "https://js.example.com/risk/js"],
    ["https://cdn.example.com/vigil.min.js", ""],
    ["", ""],
  ])("%s → %s", (src, url) => {
    expect(defaultUrl(src)).toBe(url);
  });
});
