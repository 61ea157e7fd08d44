import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("touch source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads a desktop's fine pointer and no touch points", async () => {
    expect(await readSource("touch")).toMatchObject({ value: { max_touch_points: 0, touch_event: false, pointer: "fine", hover: true } });
  });

  it("reads an emulated phone's touch screen", async () => {
    const c = await readSource("touch", { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    expect(c).toMatchObject({ value: { touch_event: true, pointer: "coarse" } });
    expect((c as { value: { max_touch_points: number } }).value.max_touch_points).toBeGreaterThan(0);
  });

  it("records a missing matchMedia as data", async () => {
    expect(await readSource("touch", { initScript: "window.matchMedia = undefined;" })).toMatchObject({ error: expect.stringMatching(/TypeError/) });
  });
});
