import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource, valueOf } from "../../test/browser.js";
import type { PlatformReading } from "./platform.js";

describe("platform source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads navigator.platform and the client-hint platform and architecture", async () => {
    const p = valueOf<PlatformReading>(await readSource("platform"));
    expect(p.platform).toBe("Linux x86_64");
    expect(p.ua_platform).toBe("Linux");
    expect(p.mobile).toBe(false);
    expect(p.architecture).toBe("x86");
    expect(p.bitness).toBe("64");
  });

  it("works without client hints (Firefox, Safari)", async () => {
    const p = valueOf<PlatformReading>(await readSource("platform", { initScript: "delete Navigator.prototype.userAgentData;" }));
    expect(p).toMatchObject({ platform: "Linux x86_64", ua_platform: null, mobile: null, architecture: null });
  });

  it("keeps the low-entropy values when the high-entropy request is refused", async () => {
    const refuse = "NavigatorUAData.prototype.getHighEntropyValues = () => Promise.reject(new Error('refused'));";
    const p = valueOf<PlatformReading>(await readSource("platform", { initScript: refuse }));
    expect(p).toMatchObject({ ua_platform: "Linux", architecture: null });
  });

  it("records a throwing navigator.platform as data", async () => {
    const c = await readSource("platform", {
      initScript: "Object.defineProperty(Navigator.prototype, 'platform', { get() { throw new Error('no platform'); } });",
    });
    expect(c).toEqual({ error: "no platform", ms: expect.any(Number) });
  });
});
