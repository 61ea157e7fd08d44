import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, openHarness, readSource, valueOf } from "../../test/browser.js";
import { FONT_CANDIDATES } from "./fonts.js";

describe("fonts source in Chromium", () => {
  afterAll(closeBrowser);

  it("finds installed fonts among the candidates, the same way every time", async () => {
    const first = valueOf<string[]>(await readSource("fonts"));
    const second = valueOf<string[]>(await readSource("fonts"));
    expect(first.length).toBeGreaterThan(0);
    for (const name of first) expect(FONT_CANDIDATES).toContain(name);
    expect(second).toEqual(first);
  });

  it("tells an installed family from a missing one", async () => {
    const { page, context } = await openHarness();
    const found = await page.evaluate(() => {
      const h = (window as unknown as { VigilHarness: { detectFonts(l: string[]): string[] } }).VigilHarness;
      return h.detectFonts(["DejaVu Sans", "Liberation Mono", "No Such Font 4711"]);
    });
    await context.close();
    // `make test` installs both families (.ci/test.sh); Chromium only recommends Liberation.
    expect(found).toEqual(["DejaVu Sans", "Liberation Mono"]);
  });

  it("records a broken text measurement as data", async () => {
    const broken = `CanvasRenderingContext2D.prototype.measureText = function () { throw new TypeError("no metrics"); }`;
    expect(await readSource("fonts", { initScript: broken })).toEqual({ error: "TypeError: no metrics", ms: expect.any(Number) });
  });
});
