import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";

const BROWSER_GLOBALS = ["window", "document", "navigator", "localStorage", "location", "screen", "self"];

/** Traps reads of browser globals, so "no side effects on import" is checked, not assumed. */
function trapGlobals(): { touched: string[]; restore(): void } {
  const touched: string[] = [];
  const saved = BROWSER_GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
  for (const name of BROWSER_GLOBALS) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        touched.push(name);
        return undefined;
      },
    });
  }
  return {
    touched,
    restore() {
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete (globalThis as Record<string, unknown>)[name];
      }
    },
  };
}

describe("server-side rendering", () => {
  // The test files share a worker's module cache (isolate: false in vitest.config.ts): this file's first import of
  // the package must evaluate it afresh, or "reads no browser global on import" would hold vacuously.
  beforeAll(() => vi.resetModules());

  it("importing the package reads no browser global and starts nothing", async () => {
    const trap = trapGlobals();
    try {
      const vigil = await import("../src/index.js");
      expect(Object.keys(vigil).sort()).toEqual(["createVigil", "get", "identify", "setup", "track", "version"]);
      expect(trap.touched).toEqual([]);
    } finally {
      trap.restore();
    }
  });

  it("every call resolves with data on a server instead of throwing", async () => {
    const vigil = await import("../src/index.js");
    expect(await vigil.get()).toMatchObject({ handprint_id: null, error: { code: "not_configured" } });
    expect(await vigil.track("login")).toMatchObject({ status: "dropped", reason: "not_configured" });
    vigil.identify("user-1");
    const client = vigil.setup({ url: "https://vigil.example.com/js" });
    expect(await client.get()).toMatchObject({ handprint_id: null, error: { code: "unsupported_environment" } });
    expect(await vigil.track("login")).toMatchObject({ status: "dropped", reason: "unsupported_environment" });
  });

  it("the built ESM entry imports in a bare Node process (no window)", () => {
    const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    expect(existsSync(entry), "run `pnpm build` first (the test script does)").toBe(true);
    const script = `
      const m = await import(${JSON.stringify(entry)});
      const s = await m.get();
      console.log(JSON.stringify({ type: typeof window, keys: Object.keys(m).sort(), code: s.error.code, version: m.version }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({
      type: "undefined",
      keys: ["createVigil", "get", "identify", "setup", "track", "version"],
      code: "not_configured",
      version: "0.1.0",
    });
  });
});
