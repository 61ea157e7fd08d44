import type { ResolvedCoreOptions } from './options.js';

export function requestHeaders(options: ResolvedCoreOptions, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `Bearer ${options.writeKey}`,
    'content-type': 'application/json',
    'user-agent': options.userAgent,
    ...extra,
  };
}
