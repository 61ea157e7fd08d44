import { describe, expect, it } from "vitest";
import { defaultSources } from "./index.js";
import { describeError, MAX_COMPONENT_CHARS, runSources } from "./run.js";
import type { Source } from "./types.js";

const realTimers = {
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout),
};

const source = (name: string, collect: () => unknown): Source => ({ name, collect });

describe("runSources (plain Node)", () => {
  it("turns each kind of failure into data for that source only", async () => {
    const components = await runSources(
      [
        source("ok", () => ({ a: 1 })),
        source("async_ok", async () => "later"),
        source("throws", () => {
          throw new RangeError("bad range");
        }),
        source("rejects", () => Promise.reject(new Error("went away"))),
        source("throws_string", () => {
          throw "plain string";
        }),
        source("hangs", () => new Promise(() => {})),
        source("bigint", () => 10n),
        source("huge", () => "x".repeat(MAX_COMPONENT_CHARS + 1)),
        source("undefined", () => undefined),
      ],
      { ...realTimers, timeoutMs: 50 },
    );
    expect(components.ok).toMatchObject({ value: { a: 1 } });
    expect(components.async_ok).toMatchObject({ value: "later" });
    expect(components.throws).toMatchObject({ error: "RangeError: bad range" });
    expect(components.rejects).toMatchObject({ error: "went away" });
    expect(components.throws_string).toMatchObject({ error: "plain string" });
    expect(components.hangs).toMatchObject({ error: "timeout after 50 ms" });
    expect(components.bigint).toMatchObject({ error: expect.stringMatching(/BigInt/) });
    expect(components.huge).toMatchObject({ error: `value too large (${MAX_COMPONENT_CHARS + 3} chars)` });
    expect(components.undefined).toMatchObject({ value: null });
    for (const c of Object.values(components)) expect(c.ms).toBeGreaterThanOrEqual(0);
  });

  it("starts every source before awaiting any, so slow ones overlap", async () => {
    const started: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const slow = (name: string) => source(name, () => (started.push(name), gate.then(() => name)));
    const running = runSources([slow("a"), slow("b"), slow("c")], { ...realTimers, timeoutMs: 5000 });
    // All three were started while none had finished.
    expect(started).toEqual(["a", "b", "c"]);
    release();
    const components = await running;
    expect(components).toMatchObject({ a: { value: "a" }, b: { value: "b" }, c: { value: "c" } });
  });

  it("collects without a browser: every default source fails as data, none throws", async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined");
    const components = await runSources(defaultSources, { ...realTimers, timeoutMs: 200 });
    expect(Object.keys(components).sort()).toEqual(defaultSources.map((s) => s.name).sort());
    for (const name of ["canvas", "webgl", "audio", "fonts", "screen", "pixel_ratio"]) {
      expect(components[name]).toMatchObject({ error: expect.stringMatching(/not defined/) });
    }
  });

  it("describes errors without throwing, even for hostile values", () => {
    const hostile = {
      toString() {
        throw new Error("nope");
      },
    };
    expect(describeError(hostile)).toBe("unknown error");
    expect(describeError(new Error(""))).toBe("unknown error");
    expect(describeError(new Error("x".repeat(500)))).toHaveLength(200);
  });
});
