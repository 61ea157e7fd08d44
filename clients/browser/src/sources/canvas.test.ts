import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource, readSourceInFreshContext, valueOf } from "../../test/browser.js";
import type { CanvasReading } from "./canvas.js";

describe("canvas source in Chromium", () => {
  afterAll(closeBrowser);

  it("hashes text and geometry drawings, identically across fresh contexts", async () => {
    const first = valueOf<CanvasReading>(await readSourceInFreshContext("canvas"));
    const second = valueOf<CanvasReading>(await readSourceInFreshContext("canvas"));
    expect(first.text).toMatch(/^[0-9a-f]{16}$/);
    expect(first.geometry).toMatch(/^[0-9a-f]{16}$/);
    expect(first.text).not.toBe(first.geometry);
    expect(first.stable).toBe(true);
    expect(first.winding).toBe(true);
    expect(second).toEqual(first);
  });

  it("reports noise-adding browsers as unstable", async () => {
    const noisy = `(() => { const real = HTMLCanvasElement.prototype.toDataURL;
      HTMLCanvasElement.prototype.toDataURL = function (...a) { return real.apply(this, a) + Math.random(); }; })()`;
    expect(valueOf<CanvasReading>(await readSource("canvas", { initScript: noisy })).stable).toBe(false);
  });

  it("records a blocked canvas API as data", async () => {
    const blocked = `HTMLCanvasElement.prototype.getContext = function () { throw new Error("canvas blocked"); }`;
    expect(await readSource("canvas", { initScript: blocked })).toEqual({ error: "canvas blocked", ms: expect.any(Number) });
  });
});
