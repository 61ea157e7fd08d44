import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource, valueOf } from "../../test/browser.js";
import type { UserAgentReading } from "./userAgent.js";

describe("user_agent source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the user agent, vendor and client-hint brands", async () => {
    const ua = valueOf<UserAgentReading>(await readSource("user_agent"));
    expect(ua.user_agent).toMatch(/Chrome\/\d+/);
    expect(ua.vendor).toBe("Google Inc.");
    expect(ua.brands.some((b) => /^Chromium\/\d+$/.test(b))).toBe(true);
  });

  it("reads an overridden user agent as the page sees it", async () => {
    const custom = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    expect(valueOf<UserAgentReading>(await readSource("user_agent", { userAgent: custom })).user_agent).toBe(custom);
  });

  it("records a throwing navigator.userAgent as data", async () => {
    const c = await readSource("user_agent", {
      initScript: "Object.defineProperty(Navigator.prototype, 'userAgent', { get() { throw new Error('no ua'); } });",
    });
    expect(c).toEqual({ error: "no ua", ms: expect.any(Number) });
  });
});
