import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("color_gamut source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the display's gamut, dynamic range and colour mode", async () => {
    expect(await readSource("color_gamut")).toMatchObject({ value: { gamut: "srgb", hdr: false, monochrome: false } });
  });

  it("reads a wide-gamut display", async () => {
    const p3 = `(() => { const real = window.matchMedia.bind(window);
      window.matchMedia = (q) => /color-gamut: (p3|srgb)/.test(q) ? { matches: true } : real(q); })()`;
    expect(await readSource("color_gamut", { initScript: p3 })).toMatchObject({ value: { gamut: "p3" } });
  });

  it("records a throwing matchMedia as data", async () => {
    expect(await readSource("color_gamut", { initScript: "window.matchMedia = () => { throw new Error('no media'); };" })).toEqual({
      error: "no media",
      ms: expect.any(Number),
    });
  });
});
