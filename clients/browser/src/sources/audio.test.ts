import { afterAll, describe, expect, it } from "vitest";
import { closeBrowser, readSource, valueOf } from "../../test/browser.js";
import type { AudioReading } from "./audio.js";

describe("audio source in Chromium", () => {
  afterAll(closeBrowser);

  it("renders the compressed oscillator offline to the same non-zero reading every time", async () => {
    const first = valueOf<AudioReading>(await readSource("audio"));
    const second = valueOf<AudioReading>(await readSource("audio"));
    expect(Number(first.sum)).toBeGreaterThan(0);
    expect(first.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(second).toEqual(first);
  });

  it("records a missing OfflineAudioContext as data", async () => {
    const removed = "delete window.OfflineAudioContext; delete window.webkitOfflineAudioContext;";
    expect(await readSource("audio", { initScript: removed })).toEqual({ error: "OfflineAudioContext unavailable", ms: expect.any(Number) });
  });

  it("records a rendering that never finishes as a timeout", async () => {
    const stuck = "OfflineAudioContext.prototype.startRendering = function () { return new Promise(() => {}); };";
    const c = await readSource("audio", { initScript: stuck });
    expect(c).toMatchObject({ error: expect.stringMatching(/^timeout after \d+ ms$/) });
  });
});
