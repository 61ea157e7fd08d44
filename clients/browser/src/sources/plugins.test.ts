import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("plugins source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads Chromium's fixed PDF plugin list", async () => {
    expect(await readSource("plugins")).toMatchObject({ value: { count: 5, pdf_viewer: true, names: expect.stringMatching(/^[0-9a-f]{16}$/) } });
  });

  it("reads an empty list (old headless browsers) as a count of zero", async () => {
    expect(await readSource("plugins", { initScript: "Object.defineProperty(Navigator.prototype, 'plugins', { get: () => [] });" })).toMatchObject({
      value: { count: 0 },
    });
  });

  it("records a throwing plugin list as data", async () => {
    expect(
      await readSource("plugins", { initScript: "Object.defineProperty(Navigator.prototype, 'plugins', { get() { throw new Error('no plugins'); } });" }),
    ).toEqual({
      error: "no plugins",
      ms: expect.any(Number),
    });
  });
});
