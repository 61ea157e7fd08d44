import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("hardware_concurrency source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the number of logical cores", async () => {
    const c = await readSource("hardware_concurrency");
    expect(c).toMatchObject({ value: expect.any(Number) });
    expect((c as { value: number }).value).toBeGreaterThan(0);
  });

  it("reads what the browser claims (here an emulated 12)", async () => {
    const twelve = "Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 12 });";
    expect(await readSource("hardware_concurrency", { initScript: twelve })).toMatchObject({ value: 12 });
  });

  it("reports null where the browser hides it and an error when reading throws", async () => {
    expect(
      await readSource("hardware_concurrency", { initScript: "Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => undefined });" }),
    ).toMatchObject({ value: null });
    expect(
      await readSource("hardware_concurrency", {
        initScript: "Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get() { throw new Error('hidden'); } });",
      }),
    ).toEqual({ error: "hidden", ms: expect.any(Number) });
  });
});
