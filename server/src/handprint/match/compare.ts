import { FEATURES, type FeatureValue, type HandprintFeatures } from './features.js';

export interface CompareOptions {
  /** Least matched evidence (bits) for "same": two near-empty profiles are not the same device. */
  minMatchBits?: number;
  /** Fonts may differ by this many, or by this share of their union, whichever is larger. */
  fontTolerance?: { count: number; share: number };
}

export interface Comparison {
  same: boolean;
  /** 0..1: how sure "same" is; 0 when different. */
  confidence: number;
  /** Bits of identifying evidence that agreed. */
  matchedBits: number;
  /** Features whose difference decided "different". */
  vetoes: string[];
  /** Identity features that differed but were forgiven (engine drift after an update, a few fonts). */
  tolerated: string[];
  /** Identity features missing on one side. */
  unknown: string[];
  /** Volatile features that changed (informational). */
  changed: string[];
  reason: 'match' | 'vetoed' | 'insufficient_evidence';
}

export const DEFAULT_MIN_MATCH_BITS = 12;
const DEFAULT_FONT_TOLERANCE = { count: 2, share: 0.1 };

/**
 * Compares a stored profile with a new reading. Decision rules (in order):
 *  1. a device-tier feature known on both sides and different → different;
 *  2. an engine-tier feature different → different, unless the browser's major version changed between them;
 *  3. fonts differing beyond the tolerance → different;
 *  4. fewer than minMatchBits of agreeing evidence → different (not enough to tell);
 *  otherwise the same device, with a confidence that grows with agreeing evidence and shrinks with each forgiven
 *  or unknown feature.
 */
export function compareFeatures(stored: HandprintFeatures, incoming: HandprintFeatures, options: CompareOptions = {}): Comparison {
  const minBits = options.minMatchBits ?? DEFAULT_MIN_MATCH_BITS;
  const tolerance = options.fontTolerance ?? DEFAULT_FONT_TOLERANCE;
  const versionChanged =
    typeof stored.browser_major === 'number' && typeof incoming.browser_major === 'number' && stored.browser_major !== incoming.browser_major;
  const out: Comparison = { same: false, confidence: 0, matchedBits: 0, vetoes: [], tolerated: [], unknown: [], changed: [], reason: 'vetoed' };
  let bonus = 0;

  for (const def of FEATURES) {
    const a = stored[def.name] ?? null;
    const b = incoming[def.name] ?? null;
    if (a === null || b === null) {
      if (def.tier !== 'volatile' && (a !== null || b !== null)) out.unknown.push(def.name);
      continue;
    }
    if (def.tier === 'volatile') {
      if (equal(a, b)) bonus += def.weight;
      else out.changed.push(def.name);
    } else if (def.tier === 'set') {
      const { difference, union, jaccard } = setDistance(a, b);
      if (difference === 0) out.matchedBits += def.weight;
      else if (difference <= Math.max(tolerance.count, Math.floor(tolerance.share * union))) {
        out.matchedBits += def.weight * jaccard;
        out.tolerated.push(def.name);
      } else out.vetoes.push(def.name);
    } else if (equal(a, b)) {
      out.matchedBits += def.weight;
    } else if (def.tier === 'engine' && versionChanged) {
      out.tolerated.push(def.name);
    } else {
      out.vetoes.push(def.name);
    }
  }

  out.matchedBits = round(out.matchedBits);
  if (out.vetoes.length > 0) return out;
  if (out.matchedBits < minBits) return { ...out, reason: 'insufficient_evidence' };
  const evidence = 1 - Math.exp(-(out.matchedBits + bonus) / 12);
  const penalty = 0.93 ** out.tolerated.length * 0.97 ** out.unknown.length;
  return { ...out, same: true, reason: 'match', confidence: round(clamp(evidence * penalty, 0.05, 0.99)) };
}

/** How identifying a profile is on its own (used as the confidence of a brand-new handprint). */
export function profileConfidence(features: HandprintFeatures): number {
  let bits = 0;
  for (const def of FEATURES) if (def.tier !== 'volatile' && (features[def.name] ?? null) !== null) bits += def.weight;
  return round(clamp(1 - Math.exp(-bits / 12), 0.05, 0.99));
}

function equal(a: FeatureValue, b: FeatureValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return a === b;
}

function setDistance(a: FeatureValue, b: FeatureValue): { difference: number; union: number; jaccard: number } {
  const sa = new Set(Array.isArray(a) ? a : [String(a)]);
  const sb = new Set(Array.isArray(b) ? b : [String(b)]);
  let common = 0;
  for (const x of sa) if (sb.has(x)) common++;
  const union = sa.size + sb.size - common;
  return { difference: union - common, union, jaccard: union === 0 ? 1 : common / union };
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round = (x: number) => Math.round(x * 1000) / 1000;
