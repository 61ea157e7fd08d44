/**
 * Server-owned rules that turn device evidence into tags. Clients only report what they observed; the weights
 * live here, so detection improves with a server release and never needs an app update. A tag applies when the
 * weights of its distinct evidence add up to at least 1: strong evidence alone is enough, weak evidence needs
 * company (a debuggable build is common on developer phones; with test-keys it points to root).
 */
export interface EvidenceRule {
  /** Matches an evidence string (Android: `su:/system/bin/su`, `build.tags=test-keys`, …; web: the check name). */
  match: RegExp;
  weight: number;
}

export const ANDROID_RULES: Record<'emulator' | 'rooted' | 'hooked', { section: string; rules: EvidenceRule[] }> = {
  emulator: {
    section: 'emulator',
    rules: [
      { match: /^build\.hardware=(goldfish|ranchu|vbox86|nox|ttvm_x86)$/, weight: 1 },
      { match: /^prop\.ro\.(kernel|boot)\.qemu=1$/, weight: 1 },
      { match: /^prop\.ro\.hardware=/, weight: 1 },
      { match: /^file:\/(dev\/(qemu_pipe|goldfish_pipe|socket\/qemud)|sys\/qemu_trace|system\/bin\/qemu-props)/, weight: 1 },
      { match: /^build\.manufacturer=Genymotion$/, weight: 1 },
      { match: /^build\.fingerprint=/, weight: 0.5 },
      { match: /^build\.model=/, weight: 0.5 },
      { match: /^build\.product=/, weight: 0.5 },
      { match: /^build\.brand_and_device=generic$/, weight: 0.5 },
      { match: /^file:/, weight: 0.5 },
    ],
  },
  rooted: {
    section: 'root',
    rules: [
      { match: /^su:/, weight: 1 },
      { match: /^magisk:/, weight: 1 },
      { match: /^prop\.service\.adb\.root=1$/, weight: 1 },
      { match: /^writable:/, weight: 1 },
      { match: /^build\.tags=.*test-keys/, weight: 0.5 },
      { match: /^prop\.ro\.secure=0$/, weight: 0.5 },
      { match: /^prop\.ro\.debuggable=1$/, weight: 0.5 },
    ],
  },
  hooked: {
    section: 'hooks',
    rules: [
      { match: /^maps:(frida|gum-js-loop|gadget):/, weight: 1 },
      { match: /^maps:(xposed|lsposed|edxp|substrate|libriru):/, weight: 1 },
      { match: /^class:/, weight: 1 },
      // Something listens on Frida's default port: suggestive, not proof.
      { match: /^port:27042$/, weight: 0.5 },
    ],
  },
};

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
