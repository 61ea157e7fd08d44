import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource, valueOf } from "../../test/browser.js";
import type { WebglReading } from "./webgl.js";

describe("webgl source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the unmasked GPU vendor and renderer and hashes limits and extensions", async () => {
    const gl = valueOf<WebglReading>(await readSource("webgl"));
    expect(gl.vendor).toBe("WebKit");
    expect(gl.unmasked_vendor).toEqual(expect.any(String));
    // Headless Chromium without a GPU renders with SwiftShader.
    expect(gl.unmasked_renderer).toMatch(/SwiftShader|ANGLE/);
    expect(gl.version).toMatch(/^WebGL 1\.0/);
    expect(gl.parameters).toMatch(/^[0-9a-f]{16}$/);
    expect(gl.extensions).toMatch(/^[0-9a-f]{16}$/);
    expect(valueOf<WebglReading>(await readSource("webgl"))).toEqual(gl);
  });

  it("records an unavailable WebGL as data", async () => {
    const off = `(() => { const real = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (kind, ...rest) { return /webgl/.test(kind) ? null : real.call(this, kind, ...rest); }; })()`;
    expect(await readSource("webgl", { initScript: off })).toEqual({ error: "webgl unavailable", ms: expect.any(Number) });
  });
});
