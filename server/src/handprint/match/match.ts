import { compareFeatures, profileConfidence, type CompareOptions, type Comparison } from './compare.js';
import type { HandprintFeatures } from './features.js';
import { candidateKeys, handprintIdFor } from './keys.js';

export interface StoredHandprint {
  handprint_id: string;
  features: HandprintFeatures;
  /** device_ids seen with this handprint: a tie-breaker between equally good candidates, never an override. */
  device_ids?: readonly string[];
  /** ms since epoch; the most recently seen wins remaining ties. */
  last_seen?: number;
}

export interface MatchOptions extends CompareOptions {
  /** Server secret mixed into ids and keys (so they cannot be computed outside the server). */
  salt?: string;
  deviceId?: string | null;
}

export interface MatchResult {
  handprint_id: string;
  is_new: boolean;
  confidence: number;
  /** Other stored handprints that fitted as well (ambiguity lowers the confidence). */
  alternatives: number;
  /** The comparison with the chosen profile (null for a new handprint). */
  comparison: Comparison | null;
  /** The profile to store under handprint_id: the stored one updated with every feature the new reading knows. */
  features: HandprintFeatures;
  /** Lookup keys of that profile (store them, replacing the handprint's old keys or adding to them). */
  keys: string[];
}

/** Picks the stored handprint the reading belongs to, or mints a new one. Pure: the caller loads and saves. */
export function matchHandprint(incoming: HandprintFeatures, candidates: readonly StoredHandprint[], options: MatchOptions = {}): MatchResult {
  const scored = candidates
    .map((candidate) => ({ candidate, comparison: compareFeatures(candidate.features, incoming, options) }))
    .filter((s) => s.comparison.same);
  const deviceId = options.deviceId ?? null;
  scored.sort(
    (x, y) =>
      Number(hasDevice(y.candidate, deviceId)) - Number(hasDevice(x.candidate, deviceId)) ||
      y.comparison.confidence - x.comparison.confidence ||
      y.comparison.matchedBits - x.comparison.matchedBits ||
      (y.candidate.last_seen ?? 0) - (x.candidate.last_seen ?? 0),
  );
  const best = scored[0];
  if (best) {
    const features = mergeFeatures(best.candidate.features, incoming);
    // Several stored devices fit (the reading lacks what tells them apart) and no device_id settles it.
    const ambiguous = scored.length > 1 && !hasDevice(best.candidate, deviceId);
    return {
      handprint_id: best.candidate.handprint_id,
      is_new: false,
      confidence: ambiguous ? Math.round((best.comparison.confidence / scored.length) * 1000) / 1000 : best.comparison.confidence,
      alternatives: scored.length - 1,
      comparison: best.comparison,
      features,
      keys: candidateKeys(features, options.salt),
    };
  }
  let id = handprintIdFor(incoming, options.salt);
  // The derived id may belong to a profile that has since drifted away from this reading: never merge into it.
  for (let n = 1; candidates.some((c) => c.handprint_id === id); n++) id = handprintIdFor(incoming, `${options.salt ?? ''}#${n}`);
  return {
    handprint_id: id,
    is_new: true,
    confidence: profileConfidence(incoming),
    alternatives: 0,
    comparison: null,
    features: { ...incoming },
    keys: candidateKeys(incoming, options.salt),
  };
}

/** Newest reading wins feature by feature; features the new reading could not read keep their stored value. */
export function mergeFeatures(stored: HandprintFeatures, incoming: HandprintFeatures): HandprintFeatures {
  const merged: HandprintFeatures = { ...stored };
  for (const [name, value] of Object.entries(incoming)) if (value !== null && value !== undefined) merged[name] = value;
  return merged;
}

const hasDevice = (c: StoredHandprint, deviceId: string | null) => deviceId !== null && (c.device_ids ?? []).includes(deviceId);
