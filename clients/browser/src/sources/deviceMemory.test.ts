import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("device_memory source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the bucketed memory size Chromium reports", async () => {
    const c = await readSource("device_memory");
    expect([0.25, 0.5, 1, 2, 4, 8, 16, 32]).toContain((c as { value: number }).value);
  });

  it("reports null where the API is missing (Firefox, Safari) and an error when reading throws", async () => {
    expect(await readSource("device_memory", { initScript: "delete Navigator.prototype.deviceMemory;" })).toMatchObject({ value: null });
    expect(
      await readSource("device_memory", {
        initScript: "Object.defineProperty(Navigator.prototype, 'deviceMemory', { get() { throw new Error('denied'); } });",
      }),
    ).toEqual({ error: "denied", ms: expect.any(Number) });
  });
});
