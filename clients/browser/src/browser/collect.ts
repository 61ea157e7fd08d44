import { collectDeviceSignals } from "../signals/automation.js";
import { runSources } from "../sources/run.js";
import type { Source } from "../sources/types.js";
import type { Clock, Collected } from "../core/types.js";

/** Runs the sources, then the automation checks (some read the sources' results). Never rejects. */
export async function collect(sources: readonly Source[], clock: Clock, timeoutMs: number): Promise<Collected> {
  const started = clock.now();
  const components = await runSources(sources, { timeoutMs, ...clock });
  const device_signals = await collectDeviceSignals(components);
  return { components, device_signals, ms: Math.round(clock.now() - started) };
}
