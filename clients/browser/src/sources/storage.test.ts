import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("storage source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads which storage the page may use", async () => {
    expect(await readSource("storage")).toMatchObject({
      value: { local_storage: true, session_storage: true, indexed_db: true, cookies_enabled: true },
    });
  });

  it("reports blocked localStorage as unavailable rather than failing", async () => {
    const blocked = "Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });";
    expect(await readSource("storage", { initScript: blocked })).toMatchObject({ value: { local_storage: false, session_storage: true } });
  });

  it("records a throwing navigator.cookieEnabled as data", async () => {
    const c = await readSource("storage", {
      initScript: "Object.defineProperty(Navigator.prototype, 'cookieEnabled', { get() { throw new Error('no cookies'); } });",
    });
    expect(c).toEqual({ error: "no cookies", ms: expect.any(Number) });
  });
});
