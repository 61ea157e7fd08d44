import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource, valueOf } from "../../test/browser.js";
import type { ScreenReading } from "./screen.js";

describe("screen source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the emulated screen and window sizes separately", async () => {
    const s = valueOf<ScreenReading>(await readSource("screen", { screen: { width: 1920, height: 1080 }, viewport: { width: 1000, height: 700 } }));
    expect(s).toMatchObject({ width: 1920, height: 1080, inner_width: 1000, inner_height: 700, color_depth: 24 });
    expect(s.orientation).toBe("landscape-primary");
  });

  it("records a missing screen object as data", async () => {
    const c = await readSource("screen", { initScript: "Object.defineProperty(window, 'screen', { get() { throw new Error('no screen'); } });" });
    expect(c).toEqual({ error: "no screen", ms: expect.any(Number) });
  });
});
