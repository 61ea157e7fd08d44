/** Kept equal to package.json's version by a test; sent with every request so the server can tell clients apart. */
export const VERSION = "0.1.0";
export const LIBRARY = { name: "@vigil/browser", version: VERSION } as const;
