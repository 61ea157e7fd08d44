/**
 * The handprint's features and how each one is compared. Weights are rough bits of identifying information
 * (after published browser-fingerprint entropy studies), used for confidence, not for the same/different veto.
 */
export type FeatureValue = string | number | string[] | null;

/** Normalized features of one browser; null means unknown (the source failed or the browser lacks it). */
export type HandprintFeatures = Record<string, FeatureValue>;

/**
 * - device: a property of the machine/profile. Any difference means a different device.
 * - engine: rendering results that a browser update may change. A difference means a different device unless the
 *   browser's major version changed between the two visits.
 * - set: a set compared with a tolerance (fonts: a few added or removed fonts are the same device).
 * - volatile: changes in normal use (window size, version, settings). Never decides; small confidence bonus.
 */
export type FeatureTier = 'device' | 'engine' | 'set' | 'volatile';

export interface FeatureDefinition {
  name: string;
  tier: FeatureTier;
  weight: number;
  /** Reported by sources that rarely fail: these alone build the fallback candidate key. */
  core?: boolean;
}

export const FEATURES: readonly FeatureDefinition[] = [
  { name: 'os', tier: 'device', weight: 2, core: true },
  { name: 'browser', tier: 'device', weight: 2, core: true },
  { name: 'platform', tier: 'device', weight: 2 },
  { name: 'ua_platform', tier: 'device', weight: 0.5 },
  { name: 'cpu', tier: 'device', weight: 1 },
  { name: 'model', tier: 'device', weight: 4 },
  { name: 'gpu', tier: 'device', weight: 7 },
  { name: 'screen', tier: 'device', weight: 5, core: true },
  { name: 'pixel_ratio', tier: 'device', weight: 2, core: true },
  { name: 'timezone', tier: 'device', weight: 3, core: true },
  { name: 'languages', tier: 'device', weight: 3, core: true },
  { name: 'hardware_concurrency', tier: 'device', weight: 2, core: true },
  { name: 'device_memory', tier: 'device', weight: 1.5 },
  { name: 'touch', tier: 'device', weight: 1 },
  { name: 'color', tier: 'device', weight: 1 },
  { name: 'math', tier: 'device', weight: 1 },
  { name: 'architecture', tier: 'device', weight: 0.5 },
  { name: 'canvas_text', tier: 'engine', weight: 5 },
  { name: 'canvas_geometry', tier: 'engine', weight: 3 },
  { name: 'audio', tier: 'engine', weight: 4 },
  { name: 'webgl_params', tier: 'engine', weight: 3 },
  { name: 'intl', tier: 'engine', weight: 1 },
  { name: 'fonts', tier: 'set', weight: 6 },
  { name: 'browser_major', tier: 'volatile', weight: 0.5 },
  { name: 'window', tier: 'volatile', weight: 0.5 },
  { name: 'avail_screen', tier: 'volatile', weight: 0.5 },
  { name: 'features', tier: 'volatile', weight: 0.5 },
  { name: 'preferences', tier: 'volatile', weight: 0.5 },
  { name: 'storage', tier: 'volatile', weight: 0.25 },
  { name: 'plugins', tier: 'volatile', weight: 0.25 },
  { name: 'platform_version', tier: 'volatile', weight: 0.5 },
];

export const FEATURE_BY_NAME: ReadonlyMap<string, FeatureDefinition> = new Map(FEATURES.map((f) => [f.name, f]));

/** Features that define identity (everything but volatile), used for deterministic ids. */
export const IDENTITY_FEATURES = FEATURES.filter((f) => f.tier !== 'volatile').map((f) => f.name);
