import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("pixel_ratio source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the device scale factor", async () => {
    expect(await readSource("pixel_ratio", { deviceScaleFactor: 2.625 })).toMatchObject({ value: 2.625 });
    expect(await readSource("pixel_ratio")).toMatchObject({ value: 1 });
  });

  it("records a missing devicePixelRatio as data", async () => {
    const c = await readSource("pixel_ratio", { initScript: "Object.defineProperty(window, 'devicePixelRatio', { get: () => undefined });" });
    expect(c).toEqual({ error: "devicePixelRatio unavailable", ms: expect.any(Number) });
  });
});
