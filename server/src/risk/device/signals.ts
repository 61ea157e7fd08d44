import type { Warning } from '../../pipeline/insights.js';
import { ANDROID_RULES, score, WEB_BOT_RULES } from './rules.js';

/** The versions of the `device_signals` block this server understands. */
export const DEVICE_SIGNALS_VERSIONS = [1];

export interface DeviceVerdict {
  tags: string[];
  warnings: Warning[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string').slice(0, 200) : []);
const warn = (message: string): DeviceVerdict => ({ tags: [], warnings: [{ code: 'invalid_device_signals', message }] });

/**
 * Reads the `device_signals` property. Evidence the server does not know is ignored, and the client's own
 * `detected` flags are not trusted: only the evidence is. A malformed block is a warning, never an error.
 */
export function judgeDeviceSignals(block: unknown): DeviceVerdict {
  if (block === undefined || block === null) return { tags: [], warnings: [] };
  if (!isObject(block)) return warn('device_signals must be an object');
  if (!DEVICE_SIGNALS_VERSIONS.includes(block.version as number)) {
    return {
      tags: [],
      warnings: [
        {
          code: 'unsupported_device_signals_version',
          message: `device_signals.version ${JSON.stringify(block.version)} is not one of ${DEVICE_SIGNALS_VERSIONS.join(', ')}; ignored`,
        },
      ],
    };
  }
  if (block.platform === 'android') {
    const tags: string[] = [];
    for (const [tag, { section, rules }] of Object.entries(ANDROID_RULES)) {
      const part = block[section];
      if (part !== undefined && !isObject(part)) return warn(`device_signals.${section} must be an object`);
      if (score(strings(part?.evidence), rules).total >= 1) tags.push(tag);
    }
    return { tags, warnings: [] };
  }
  if (block.platform === 'web') {
    const automation = block.automation;
    if (!isObject(automation)) return warn('device_signals.automation must be an object');
    // A check counts when its field is true or its name is in `evidence`.
    const found = new Set([...strings(automation.evidence), ...Object.keys(automation).filter((k) => automation[k] === true)]);
    let total = 0;
    // Own keys only: `constructor` in the evidence would add Object's function, turn the sum into a string and
    // hide every real check from the threshold.
    for (const name of found) total += Object.hasOwn(WEB_BOT_RULES, name) ? WEB_BOT_RULES[name]! : 0;
    return { tags: total >= 1 ? ['bot'] : [], warnings: [] };
  }
  return warn(`device_signals.platform ${JSON.stringify(block.platform)} is not "android" or "web"`);
}
