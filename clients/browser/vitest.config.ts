import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Unit tests run against the shared policy's source; the bundle tests run what the build made of it.
  resolve: { alias: { "@vigil/client-core": fileURLToPath(new URL("../core/src/index.ts", import.meta.url)) } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    // One Chromium (started once in global setup) serves every browser test file.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Files reuse their worker's loaded modules (playwright-core, the library) instead of loading them afresh for
    // each of the ~40 files (65 to 48 s of CPU for the suite). The files keep no module state of their own
    // between them (each closes its browser connection; test/ssr.test.ts resets the module cache itself).
    isolate: false,
  },
});
