import type { VigilError } from './errors.js';
import type { Behavior, InsightsData, JsonObject, RiskTag } from './wire.js';

/**
 * Insights for one event, with typed helpers. Fields keep the service's snake_case names so that
 * what you log or forward is exactly what the service said; `failOpen` and `error` are the only
 * client-side additions (and are not serialised by JSON.stringify).
 */
export class Insights implements InsightsData {
  readonly event_id: string | null;
  readonly device_id: string | null;
  readonly handprint_id: string | null;
  readonly current_tags: (RiskTag | (string & {}))[];
  readonly risk_score: number;
  readonly score_breakdown: InsightsData['score_breakdown'];
  readonly device_id_details: InsightsData['device_id_details'];
  readonly behaviors: Record<string, Behavior>;
  readonly device: InsightsData['device'];
  readonly email_intel: JsonObject | null;
  readonly phone_intel: JsonObject | null;
  readonly warnings: string[];
  /** Fields the service sent that this version of the library does not know yet. */
  readonly extra: JsonObject;
  /** True when the service could not answer and this is the configured fail-open result. */
  declare readonly failOpen: boolean;
  /** Why the result is a fail-open one; undefined for real answers. */
  declare readonly error: VigilError | undefined;

  constructor(data: InsightsData & JsonObject, failure?: VigilError) {
    const {
      event_id,
      device_id,
      handprint_id,
      current_tags,
      risk_score,
      score_breakdown,
      device_id_details,
      behaviors,
      device,
      email_intel,
      phone_intel,
      warnings,
      ...extra
    } = data;
    this.event_id = event_id ?? null;
    this.device_id = device_id ?? null;
    this.handprint_id = handprint_id ?? null;
    this.current_tags = Array.isArray(current_tags) ? current_tags : [];
    this.risk_score = typeof risk_score === 'number' ? risk_score : 0;
    this.score_breakdown = Array.isArray(score_breakdown) ? score_breakdown : [];
    this.device_id_details = device_id_details ?? null;
    this.behaviors = behaviors ?? {};
    this.device = device ?? null;
    this.email_intel = email_intel ?? null;
    this.phone_intel = phone_intel ?? null;
    this.warnings = Array.isArray(warnings) ? warnings : [];
    this.extra = extra;
    // Non-enumerable so JSON.stringify(insights) is the service's answer and nothing else.
    Object.defineProperty(this, 'failOpen', { value: failure !== undefined, enumerable: false });
    Object.defineProperty(this, 'error', { value: failure, enumerable: false });
  }

  /** Whether `tag` is among the current risk tags. */
  hasTag(tag: RiskTag | (string & {})): boolean {
    return this.current_tags.includes(tag);
  }

  /** The named behaviour counter, or undefined when the service reported none by that name. */
  behavior(name: string): Behavior | undefined {
    return Object.prototype.hasOwnProperty.call(this.behaviors, name) ? this.behaviors[name] : undefined;
  }

  /** Age of the device id in days (0 for a device first seen today), null when unknown. */
  get deviceAgeDays(): number | null {
    return this.device_id_details?.age.days ?? null;
  }

  toJSON(): JsonObject {
    const { extra, ...known } = this;
    return { ...known, ...extra };
  }
}

/** Minimal check that a 2xx body is insights; anything else is reported as invalid_response. */
export function isInsightsData(value: unknown): value is InsightsData & JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as JsonObject;
  return typeof v.risk_score === 'number' && Array.isArray(v.current_tags);
}

/**
 * The default fail-open result: no tags, risk 0, a `vigil_unavailable` warning. Letting users in
 * when the risk service is down is the usual choice for login and checkout flows; services that
 * prefer to fail closed configure `failOpen` (see README).
 */
export function defaultFailOpen(deviceId: string | null): InsightsData {
  return {
    event_id: null,
    device_id: deviceId,
    handprint_id: null,
    current_tags: [],
    risk_score: 0,
    score_breakdown: [],
    device_id_details: null,
    behaviors: {},
    device: null,
    email_intel: null,
    phone_intel: null,
    warnings: ['vigil_unavailable'],
  };
}
