import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { VERSION } from "../src/version.js";

const dist = (name: string) => new URL(`../dist/${name}`, import.meta.url);

describe("the one-tag script bundle", () => {
  // Built by the test global setup with the same options as `pnpm build`.
  const code = readFileSync(dist("vigil.min.js"));
  const manifest = JSON.parse(readFileSync(dist("manifest.json"), "utf8")) as Record<string, unknown>;

  it("stays within 15 KB gzipped", () => {
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(`vigil.min.js: ${code.length} bytes, ${gzipped} bytes gzipped`);
    expect(gzipped).toBeLessThanOrEqual(15 * 1024);
  });

  it("has a content-hashed copy and a manifest for immutable caching", () => {
    expect(manifest).toMatchObject({ name: "@vigil/browser", version: VERSION, file: "vigil.min.js", bytes: code.length });
    expect(manifest.versioned_file).toMatch(new RegExp(`^vigil\\.${VERSION.replace(/\./g, "\\.")}\\.[0-9a-f]{10}\\.min\\.js$`));
    expect(readFileSync(dist(manifest.versioned_file as string)).equals(code)).toBe(true);
    expect(manifest.integrity).toMatch(/^sha384-[A-Za-z0-9+/]+=*$/);
  });

  it("keeps src/version.ts equal to package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
