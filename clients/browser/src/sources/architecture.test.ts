import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("architecture source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the x86 NaN sign bit on this machine", async () => {
    expect(await readSource("architecture")).toMatchObject({ value: 255 });
  });

  it("records missing typed arrays as data", async () => {
    expect(await readSource("architecture", { initScript: "window.Float32Array = undefined;" })).toMatchObject({ error: expect.stringMatching(/TypeError/) });
  });
});
