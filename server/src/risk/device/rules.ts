/**
 * Server-owned rules that turn device evidence into tags. Clients only report what they observed; the weights
 * live here, so detection improves with a server release and never needs an app update (the Android library
 * ships a copy of android-evidence.json for its offline answer only; online, the server decides). A tag applies when the
 * weights of its distinct evidence add up to at least 1: strong evidence alone is enough, weak evidence needs
 * company (a debuggable build is common on developer phones; with test-keys it points to root).
 */
import { z } from 'zod';
import androidEvidence from './android-evidence.json' with { type: 'json' };

export interface EvidenceRule {
  /** Matches an evidence string (Android: `su:/system/bin/su`, `build.tags=test-keys`, …; web: the check name). */
  match: RegExp;
  weight: number;
}

export type AndroidTag = 'emulator' | 'rooted' | 'hooked';

// The Android table is data (android-evidence.json) because the Android library ships the same file for its
// offline answer: one table, so an offline verdict never tags what the server would not.
const androidTable = z.object({
  tags: z.record(
    z.enum(['emulator', 'rooted', 'hooked']),
    z.object({
      section: z.string(),
      rules: z.array(z.object({ match: z.string(), weight: z.number().positive() })),
    }),
  ),
});

export const ANDROID_RULES: Record<AndroidTag, { section: string; rules: EvidenceRule[] }> = Object.fromEntries(
  Object.entries(androidTable.parse(androidEvidence).tags).map(([tag, { section, rules }]) => [
    tag,
    { section, rules: rules.map((r) => ({ match: new RegExp(r.match), weight: r.weight })) },
  ]),
) as Record<AndroidTag, { section: string; rules: EvidenceRule[] }>;

/** Browser automation checks (clients/browser `device_signals.automation`) and how much each says "bot". */
export const WEB_BOT_RULES: Record<string, number> = {
  webdriver: 1,
  automation_globals: 1,
  headless_ua: 1,
  navigator_overridden: 0.5,
  languages_missing: 0.5,
  zero_outer_size: 0.5,
  permissions_inconsistent: 0.5,
  software_renderer: 0.3,
  plugins_missing: 0.3,
  chrome_object_missing: 0.3,
  ua_platform_mismatch: 0.3,
};

/** Sum of the weights of distinct matching evidence, each rule counted once. */
export function score(evidence: readonly string[], rules: readonly EvidenceRule[]): { total: number; matched: string[] } {
  let total = 0;
  const used = new Set<EvidenceRule>();
  const matched: string[] = [];
  for (const item of new Set(evidence)) {
    const rule = rules.find((r) => r.match.test(item));
    if (!rule || used.has(rule)) continue;
    used.add(rule);
    total += rule.weight;
    matched.push(item);
  }
  return { total, matched };
}
