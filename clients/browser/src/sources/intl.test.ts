import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource, valueOf } from "../../test/browser.js";
import type { IntlReading } from "./intl.js";

describe("intl source in Chromium", () => {
  afterAll(closeBrowser);

  it("formats a number and a date in the browser's locale", async () => {
    const en = valueOf<IntlReading>(await readSource("intl", { locale: "en-US" }));
    const de = valueOf<IntlReading>(await readSource("intl", { locale: "de-DE" }));
    expect(en.number).toBe("1,234,567.891");
    expect(de.number).toBe("1.234.567,891");
    expect(en.calendar).toBe("gregory");
    expect(en.hash).not.toBe(de.hash);
  });

  it("records a broken Intl as data", async () => {
    expect(await readSource("intl", { initScript: "Intl.NumberFormat = function () { throw new Error('no icu'); };" })).toEqual({
      error: "no icu",
      ms: expect.any(Number),
    });
  });
});
