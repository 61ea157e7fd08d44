import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource, valueOf } from "../../test/browser.js";

describe("math source in Chromium", () => {
  afterAll(closeBrowser);

  it("reports V8's results for the probe functions with their hash", async () => {
    const m = valueOf<{ hash: string; values: string[] }>(await readSource("math"));
    expect(m.values).toHaveLength(18);
    expect(m.values[12]).toBe(String(Math.E));
    expect(m.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it("changes when one function's last bits differ", async () => {
    const base = valueOf<{ hash: string }>(await readSource("math"));
    const shifted = valueOf<{ hash: string }>(await readSource("math", { initScript: "const t = Math.tan; Math.tan = (x) => t(x) * (1 + Number.EPSILON);" }));
    expect(shifted.hash).not.toBe(base.hash);
  });

  it("records a throwing Math function as data", async () => {
    expect(await readSource("math", { initScript: "Math.acosh = () => { throw new Error('no acosh'); };" })).toEqual({
      error: "no acosh",
      ms: expect.any(Number),
    });
  });
});
