import { describeCause } from './describe.js';
import { VigilError } from './errors.js';
import { defaultFailOpen, Insights } from './insights.js';
import type { ResolvedCoreOptions } from './options.js';
import { reportError } from './report.js';
import type { AttemptedEvent, InsightsData, JsonObject } from './wire.js';

/** Builds the configured fail-open result (default merged with the caller's `failOpen`). */
export function failOpenInsights(options: ResolvedCoreOptions, error: VigilError, event: AttemptedEvent): Insights {
  const deviceId = event.properties.device_id;
  const base = defaultFailOpen(typeof deviceId === 'string' ? deviceId : null);
  let custom: Partial<InsightsData> = {};
  const configured = options.failOpen;
  try {
    custom = typeof configured === 'function' ? configured(error, event) : (configured ?? {});
  } catch (cause) {
    reportError(options, new VigilError('config', `failOpen threw: ${describeCause(cause)}`, { cause }));
  }
  return new Insights({ ...base, ...custom } as InsightsData & JsonObject, error);
}
