import { rootState, VigilContext } from './context.js';
import { VigilCore } from './core/core.js';
import { VigilError } from './core/errors.js';
import { type CoreOptions, resolveCoreOptions } from './core/options.js';
import { trustedProxies } from './node/trusted-proxies.js';
import { VERSION } from './version.js';

export interface VigilOptions extends CoreOptions {
  /** The write key (`vigil_wk_…`). Default: the VIGIL_WRITE_KEY environment variable. */
  writeKey?: string;
  /**
   * Proxies whose X-Forwarded-For / Forwarded / CF-Connecting-IP headers are believed: IPs, CIDR
   * ranges, or `loopback`, `linklocal`, `uniquelocal`. Default: none (the socket address is used).
   */
  trustedProxies?: readonly string[];
}

/**
 * Creates a client for the Vigil service at `url` (e.g. "https://vigil.example.com") and returns
 * its root context. Throws VigilError('config') for a missing write key, a URL that is not
 * http(s) or an invalid trusted proxy; these are the only throws, and they happen at startup.
 */
export function vigil(url: string, options: VigilOptions = {}): VigilContext {
  const writeKey = options.writeKey ?? process.env.VIGIL_WRITE_KEY;
  if (writeKey === undefined || writeKey.trim() === '') {
    throw new VigilError('config', 'Vigil write key missing: pass { writeKey } or set VIGIL_WRITE_KEY');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new VigilError('config', `Vigil url ${JSON.stringify(url)} is not a valid URL`, { cause });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new VigilError('config', `Vigil url must be http or https, got ${parsed.protocol}`);
  }
  const endpoint = `${parsed.origin}${parsed.pathname}`;
  const userAgent = `vigil-node/${VERSION} node/${process.version}`;
  const trusted = trustedProxies(options.trustedProxies ?? []);
  const core = new VigilCore(resolveCoreOptions(endpoint, writeKey.trim(), options, userAgent));
  return new VigilContext({ core, trusted, warned: new Set() }, rootState());
}
