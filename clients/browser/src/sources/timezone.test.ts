import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("timezone source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the IANA zone and its winter and summer offsets", async () => {
    expect(await readSource("timezone", { timezoneId: "Europe/Berlin" })).toMatchObject({
      value: { name: "Europe/Berlin", offset_jan: -60, offset_jul: -120 },
    });
    expect(await readSource("timezone", { timezoneId: "Asia/Tokyo" })).toMatchObject({
      value: { name: "Asia/Tokyo", offset_jan: -540, offset_jul: -540 },
    });
  });

  it("falls back to offsets when Intl cannot name the zone", async () => {
    const c = await readSource("timezone", {
      timezoneId: "America/New_York",
      initScript: "Intl.DateTimeFormat = function () { throw new Error('no intl'); };",
    });
    expect(c).toMatchObject({ value: { name: null, offset_jan: 300, offset_jul: 240 } });
  });

  it("records a broken Date as data", async () => {
    const c = await readSource("timezone", { initScript: "Date.prototype.getTimezoneOffset = function () { throw new Error('no offset'); };" });
    expect(c).toEqual({ error: "no offset", ms: expect.any(Number) });
  });
});
