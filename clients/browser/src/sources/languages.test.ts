import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";

describe("languages source in Chromium", () => {
  afterAll(closeBrowser);

  it("reads the browser languages and the Intl locale", async () => {
    expect(await readSource("languages", { locale: "de-CH" })).toMatchObject({
      value: { language: "de-CH", languages: ["de-CH"], intl_locale: "de-CH" },
    });
  });

  it("records a broken navigator.languages as data", async () => {
    const c = await readSource("languages", {
      initScript: "Object.defineProperty(Navigator.prototype, 'languages', { get() { throw new Error('no languages'); } });",
    });
    expect(c).toEqual({ error: "no languages", ms: expect.any(Number) });
  });
});
