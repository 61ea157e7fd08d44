/**
 * Entry of the one-tag script (IIFE exposing window.Vigil). Unlike the ESM entry this one may read the page at
 * load time: it remembers its own address so `Vigil.setup()` can default `url` to the server that served it.
 */
import { setup as setupWith, type SetupOptions, type Vigil } from "./index.js";

const scriptSrc = typeof document !== "undefined" && document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : "";

/** `url` defaults to the /js address this script was loaded from. */
export function setup(options?: Partial<SetupOptions>): Vigil {
  const url = options?.url ?? defaultUrl(scriptSrc);
  return setupWith({ ...options, url } as SetupOptions);
}

/** https://vigil.example.com/js/vigil.1a2b3c.min.js (or …/js?v=1) → https://vigil.example.com/js */
export function defaultUrl(src: string): string {
  const match = /^(.*?\/js)(?:[/?#].*)?$/.exec(src);
  return match?.[1] ?? "";
}

export { identify, track, get, createVigil, version } from "./index.js";
