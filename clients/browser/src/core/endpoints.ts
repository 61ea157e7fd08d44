export interface Endpoints {
  base: string;
  collect: string;
  events: string;
}

export class VigilConfigError extends TypeError {
  override name = "VigilConfigError";
}

/**
 * `url` is the service address with the path /js (spec: setup). Relative urls resolve against the page.
 * Throws VigilConfigError: a wrong url is a programming error worth seeing at once, not a silent no-op.
 */
export function resolveEndpoints(url: unknown, pageHref?: string): Endpoints {
  if (typeof url !== "string" || url.trim() === "") {
    throw new VigilConfigError("Vigil.setup: `url` is required, e.g. https://vigil.example.com/js");
  }
  let parsed: URL;
  try {
    parsed = pageHref ? new URL(url, pageHref) : new URL(url);
  } catch {
    throw new VigilConfigError(`Vigil.setup: \`url\` is not a valid address: ${url}`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new VigilConfigError(`Vigil.setup: \`url\` must use http or https: ${url}`);
  }
  const path = parsed.pathname.replace(/\/+$/, "");
  if (!path.endsWith("/js")) {
    throw new VigilConfigError(`Vigil.setup: \`url\` must be the service address with the path /js, got ${url}`);
  }
  const base = `${parsed.origin}${path}`;
  return { base, collect: `${base}/collect`, events: `${base}/events` };
}
