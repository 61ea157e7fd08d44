import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource } from "../../test/browser.js";
import { FEATURE_PROBES } from "./features.js";

describe("features source in Chromium", () => {
  afterAll(closeBrowser);

  it("marks which probed APIs exist, one bit per probe", async () => {
    const c = await readSource("features");
    const bits = (c as { value: string }).value;
    expect(bits).toMatch(new RegExp(`^[01]{${FEATURE_PROBES.length}}$`));
    expect(bits[FEATURE_PROBES.indexOf("OffscreenCanvas")]).toBe("1");
    expect(bits[FEATURE_PROBES.indexOf("InstallTrigger")]).toBe("0"); // Firefox only
  });

  it("sees an API disappear", async () => {
    const before = (await readSource("features")) as { value: string };
    const after = (await readSource("features", { initScript: "delete window.OffscreenCanvas;" })) as { value: string };
    expect(after.value[FEATURE_PROBES.indexOf("OffscreenCanvas")]).toBe("0");
    expect(after.value).not.toBe(before.value);
  });
});
