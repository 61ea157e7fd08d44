/**
 * Test-only bundle (never shipped): exposes the individual sources to pages driven by the Chromium tests, so each
 * source is exercised in a real browser exactly as bundled.
 */
import { collect } from "../browser/collect.js";
import { collectDeviceSignals } from "../signals/automation.js";
import { detectFonts } from "../sources/fonts.js";
import { defaultSources } from "../sources/index.js";
import { runSources } from "../sources/run.js";

const clock = {
  now: () => performance.now(),
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as number),
};

/** Runs one source through the same failure-capturing runner as the library. */
export async function runSource(name: string) {
  const source = defaultSources.find((s) => s.name === name);
  if (!source) throw new Error(`no source ${name}`);
  const components = await runSources([source], { timeoutMs: 2000, ...clock });
  return components[name];
}

export const sourceNames = defaultSources.map((s) => s.name);
export const collectAll = () => collect(defaultSources, clock, 2000);
export { collectDeviceSignals, detectFonts };
