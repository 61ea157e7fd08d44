import type { VigilError } from './errors.js';
import type { ResolvedCoreOptions } from './options.js';

/** Hands a failure to the caller's hook; the hook's own failure must never reach the host app. */
export function reportError(options: Pick<ResolvedCoreOptions, 'onError'>, error: VigilError): void {
  try {
    options.onError(error);
  } catch {
    // Swallowed on purpose: see above.
  }
}
