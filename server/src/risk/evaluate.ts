import type { Tx } from '../db/handle.js';
import type { DeviceInfo, Insights } from '../ingest/insights.js';
import type { NormalizedEvent } from '../ingest/normalize.js';
import type { Sightings } from '../ingest/sightings.js';
import { scoreTags } from './score.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface EvaluationInput {
  eventId: string;
  event: NormalizedEvent;
  handprintId: string;
}

export interface RiskOptions {
  tagWeights: Readonly<Record<string, number>>;
}

/**
 * Turns stored facts into insights for a batch of fresh (non-replayed) events, inside the group-commit
 * transaction so what is answered is exactly what is stored.
 */
export async function evaluateBatch(
  _tx: Tx,
  batch: EvaluationInput[],
  sightings: Sightings,
  options: RiskOptions,
): Promise<Insights[]> {
  return batch.map(({ eventId, event, handprintId }) => {
    const device = event.deviceId ? sightings.devices.get(event.deviceId) : undefined;
    const firstSeen = device?.firstSeen ?? sightings.handprints.get(handprintId) ?? event.occurredAt;
    const ageMs = Math.max(0, event.occurredAt.getTime() - firstSeen.getTime());
    const ageDays = Math.floor(ageMs / DAY_MS);
    const isNew = ageMs < DAY_MS;

    const tags: string[] = [];
    if (isNew) tags.push('new_device');

    const deviceInfo: DeviceInfo = {
      is_registered: false,
      is_trusted: false,
      registered_to: null,
      registered_at: null,
      role: null,
      metadata: {},
      age_days: ageDays,
      is_new: isNew,
      model: device?.model ?? event.model,
      os_version: device?.osVersion ?? event.osVersion,
      status: 'unregistered',
    };
    const score = scoreTags(tags, options.tagWeights);
    return {
      event_id: eventId,
      device_id: event.deviceId,
      handprint_id: handprintId,
      current_tags: tags,
      risk_score: score.risk_score,
      score_breakdown: score.score_breakdown,
      device_id_details: { age: { days: ageDays } },
      behaviors: {},
      device: deviceInfo,
      email_intel: null,
      phone_intel: null,
      warnings: event.warnings,
    };
  });
}
