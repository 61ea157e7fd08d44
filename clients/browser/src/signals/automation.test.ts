import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, openHarness } from "../../test/browser.js";
import type { DeviceSignals } from "./automation.js";

async function signals(options: Parameters<typeof openHarness>[0] = {}): Promise<DeviceSignals> {
  const { page, context } = await openHarness(options);
  try {
    return await page.evaluate(async () => {
      const h = (window as unknown as { VigilHarness: { collectAll(): Promise<{ device_signals: DeviceSignals }> } }).VigilHarness;
      return (await h.collectAll()).device_signals;
    });
  } finally {
    await context.close();
  }
}

describe("device_signals automation block in Chromium", () => {
  afterAll(closeBrowser);

  it("flags Playwright-driven headless Chromium: webdriver, headless UA and software rendering", async () => {
    const s = await signals();
    expect(s.version).toBe(1);
    expect(s.platform).toBe("web");
    expect(s.automation).toMatchObject({
      webdriver: true,
      headless_ua: true,
      software_renderer: true,
      languages_missing: false,
      chrome_object_missing: false,
      plugins_missing: false,
      ua_platform_mismatch: false,
      navigator_overridden: false,
    });
    expect(s.automation.evidence).toEqual(expect.arrayContaining(["webdriver", "headless_ua", "software_renderer"]));
    expect(s.automation.errors).toEqual({});
  });

  it("sees stealth patches: overridden navigator getters, missing plugins and a user agent claiming Windows", async () => {
    const stealth = `
      Object.defineProperty(navigator, 'webdriver', { get: () => false });
      Object.defineProperty(Navigator.prototype, 'plugins', { get: () => [] });`;
    const s = await signals({
      initScript: stealth,
      userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    });
    expect(s.automation).toMatchObject({ webdriver: false, headless_ua: false, navigator_overridden: true, plugins_missing: true, ua_platform_mismatch: true });
  });

  it("records a failing check as null with its error and still runs the others", async () => {
    const s = await signals({ initScript: "Object.defineProperty(window, 'outerWidth', { get() { throw new Error('no outer'); } });" });
    expect(s.automation.zero_outer_size).toBeNull();
    expect(s.automation.errors).toEqual({ zero_outer_size: "no outer" });
    expect(s.automation.webdriver).toBe(true);
  });
});
