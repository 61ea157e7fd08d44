import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("media_preferences source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the emulated colour scheme and motion preference", async () => {
    expect(await readSource("media_preferences", { colorScheme: "dark", reducedMotion: "reduce" })).toMatchObject({
      value: { color_scheme: "dark", reduced_motion: true, forced_colors: false },
    });
    expect(await readSource("media_preferences", { colorScheme: "light", reducedMotion: "no-preference", forcedColors: "active" })).toMatchObject({
      value: { color_scheme: "light", reduced_motion: false, forced_colors: true },
    });
  });

  it("records a throwing matchMedia as data", async () => {
    expect(await readSource("media_preferences", { initScript: "window.matchMedia = () => { throw new Error('no media'); };" })).toEqual({
      error: "no media",
      ms: expect.any(Number),
    });
  });
});
