import type { BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, connectBrowser, staticOrigin } from "./browser.js";
import { startReferenceServer, type ReferenceServer } from "./reference-server.js";
import { emulatedDevices } from "@vigil/test-kit";
import { handprintOf, openShop } from "./vigil-page.js";

/** A desktop-like baseline: the screen stays fixed while the window (viewport) may change. */
const DESKTOP: BrowserContextOptions = {
  screen: { width: 1920, height: 1080 },
  viewport: { width: 1280, height: 720 },
  deviceScaleFactor: 1,
  timezoneId: "Europe/Berlin",
  locale: "de-DE",
};

let server: ReferenceServer;
let baseline: { handprint_id: string | null; device_id: string | null };

describe("handprint across sessions in real Chromium (reference server built from the server's framework-free /js code)", () => {
  beforeAll(async () => {
    server = await startReferenceServer({ allowedOrigins: [staticOrigin()] });
    baseline = await handprintOf(server.base, DESKTOP);
  });
  afterAll(async () => {
    await closeBrowser();
    await server.close();
  });

  it("gives the first visit a handprint, a web device_id and a confidence", () => {
    expect(baseline).toMatchObject({ handprint_id: expect.stringMatching(/^hp_/), device_id: expect.stringMatching(/^web_/) });
  });

  it("keeps the handprint and changes the device_id when storage is cleared", async () => {
    const shop = await openShop(server.base, DESKTOP);
    const before = await shop.get();
    await shop.page.evaluate(() => localStorage.clear());
    await shop.context.clearCookies();
    await shop.page.reload();
    await shop.setup();
    const after = await shop.get();
    await shop.context.close();
    expect(before.handprint_id).toBe(baseline.handprint_id);
    expect(after.handprint_id).toBe(baseline.handprint_id);
    expect(after.device_id).not.toBe(before.device_id);
    expect(after.is_new_handprint).toBe(false);
  });

  it("keeps the device_id on a reload when storage is kept", async () => {
    const shop = await openShop(server.base, DESKTOP);
    const first = await shop.get();
    await shop.page.reload();
    await shop.setup();
    const second = await shop.get();
    await shop.context.close();
    expect(second.device_id).toBe(first.device_id);
  });

  it("keeps the handprint in a fresh (incognito-like) context", async () => {
    const fresh = await handprintOf(server.base, DESKTOP);
    expect(fresh.handprint_id).toBe(baseline.handprint_id);
    expect(fresh.device_id).not.toBe(baseline.device_id);
  });

  it("keeps the handprint when the browser's major version is bumped", async () => {
    const page = await (await (await connectBrowser()).newContext()).newPage();
    const current = await page.evaluate(() => navigator.userAgent);
    await page.context().close();
    const bumped = current.replace(/Chrome\/(\d+)/, (_m, v: string) => `Chrome/${Number(v) + 1}`);
    expect(bumped).not.toBe(current);
    const signals = await handprintOf(server.base, { ...DESKTOP, userAgent: bumped });
    expect(signals.handprint_id).toBe(baseline.handprint_id);
  });

  it("keeps the handprint when the window is resized", async () => {
    const resized = await handprintOf(server.base, { ...DESKTOP, viewport: { width: 900, height: 600 } });
    expect(resized.handprint_id).toBe(baseline.handprint_id);
  });

  it("gives emulated different devices different handprints", async () => {
    const variants = emulatedDevices(DESKTOP);
    const ids: Record<string, string | null> = { baseline: baseline.handprint_id };
    for (const [name, options] of Object.entries(variants)) ids[name] = (await handprintOf(server.base, options)).handprint_id;
    for (const id of Object.values(ids)) expect(id).toMatch(/^hp_/);
    expect(new Set(Object.values(ids)).size).toBe(Object.keys(ids).length);
    // Each of them is stable on its own revisit.
    expect((await handprintOf(server.base, variants.cores!)).handprint_id).toBe(ids.cores);
    expect((await handprintOf(server.base, variants.timezone!)).handprint_id).toBe(ids.timezone);
  });
});
