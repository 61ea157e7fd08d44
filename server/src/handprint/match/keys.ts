import { base32, hmacSha256 } from '../crypto.js';
import { FEATURES, IDENTITY_FEATURES, type HandprintFeatures } from './features.js';

const DEVICE = FEATURES.filter((f) => f.tier === 'device').map((f) => f.name);
const CORE = FEATURES.filter((f) => f.core).map((f) => f.name);
const HARDWARE = ['os', 'browser', 'gpu', 'platform', 'screen', 'timezone', 'device_memory', 'math'];

/**
 * Lookup keys for candidate search. A stored profile is a candidate for a new reading when they share a key:
 *  - "d": every device-tier feature (the usual case: nothing about the machine changed);
 *  - "c": the core features (user agent families, screen, pixel ratio, timezone, languages, cores), from sources
 *    that practically never fail, so a reading whose WebGL or client hints failed still finds its profile;
 *  - "h": hardware features from other sources (GPU, platform, screen, timezone, memory, maths), so a reading
 *    whose languages, pixel ratio or core count could not be read still finds it.
 * Engine, font and volatile features are left out on purpose: they are the ones allowed to drift.
 * Store each key with the handprint id (e.g. a table of (key, handprint_id)) and fetch candidates by key.
 */
export function candidateKeys(features: HandprintFeatures, salt = ''): string[] {
  const keys: string[] = [];
  for (const [prefix, names] of [
    ['c', CORE],
    ['h', HARDWARE],
    ['d', DEVICE],
  ] as const) {
    if (names.some((name) => (features[name] ?? null) !== null)) keys.push(`${prefix}:${digest(features, names, salt)}`);
  }
  return keys;
}

/**
 * Id for a brand-new handprint, derived from its identity features with a server secret: two first visits of the
 * same browser racing each other (no stored profile yet) get the same id, and outsiders cannot compute ids.
 */
export function handprintIdFor(features: HandprintFeatures, salt = ''): string {
  return `hp_${base32(hmacSha256(salt || 'vigil-handprint', canonical(features, IDENTITY_FEATURES)), 26)}`;
}

function digest(features: HandprintFeatures, names: readonly string[], salt: string): string {
  return base32(hmacSha256(salt || 'vigil-handprint', canonical(features, names)), 26);
}

function canonical(features: HandprintFeatures, names: readonly string[]): string {
  return JSON.stringify(names.map((name) => [name, features[name] ?? null]));
}
