import { records } from '../db/compose.js';
import { sql, type Sql } from '../db/statement.js';
import { newId } from '../ids.js';
import type { Insights } from '../pipeline/insights.js';
import type { NormalizedEvent } from '../pipeline/event.js';
import type { WebhookPayload } from './event-types.js';

/** What ingestion needs of a subscription; the cache holds these for the enabled ones. */
export interface IngestSubscription {
  id: string;
  tagAdded: boolean;
  /** Tags `device.tag_added` is limited to; empty: any tag. */
  tags: readonly string[];
  /** `device.score_exceeded` threshold, or null when the subscription does not want it. */
  scoreThreshold: number | null;
}

export interface IngestedEvent {
  eventId: string;
  event: NormalizedEvent;
}

interface Candidate {
  id: string;
  sub: string;
  type: string;
  payload: WebhookPayload;
  device: string;
  tag: string | null;
  threshold: number | null;
  event: string;
  keyed: boolean;
  /** Decided by the device's stored latest event (true) or already decided against an earlier event of the batch. */
  stored: boolean;
}

/**
 * The outbox write for a batch of stored events, as a CTE of the batch's own write statement (so it commits with
 * the events, and costs no round trip), or null when no subscription can match: with none, ingestion does nothing.
 *
 * "A tag appearing on a device": an event of a device (`device_id` given) carries a tag that the device's previous
 * event did not. The previous event is the one before it in the same batch, else the device's latest stored event
 * by `occurred_at` (read inside the write statement, whose snapshot does not yet hold the batch). A device's first
 * event has no previous state, so all its tags appear. One message per tag that appeared. `device.score_exceeded`
 * is the same crossing for a score: above the threshold now, and the previous event was not.
 *
 * `claimed`: the CTE that claimed the batch's idempotency keys; an event that lost its key to a racing retry was not
 * stored, and announces nothing.
 */
export function ingestOutboxWrite(
  subscriptions: readonly IngestSubscription[],
  batch: readonly IngestedEvent[],
  insights: readonly Insights[],
  claimed: Sql | null,
): Sql | null {
  if (subscriptions.length === 0) return null;
  const candidates: Candidate[] = [];
  const earlier = new Map<string, { tags: readonly string[]; score: number }>();
  batch.forEach(({ eventId, event }, i) => {
    const deviceId = event.deviceId;
    if (deviceId === null) return;
    const answer = insights[i]!;
    const previous = earlier.get(deviceId);
    earlier.set(deviceId, { tags: answer.current_tags, score: answer.risk_score });
    const base = {
      device_id: deviceId,
      event_id: eventId,
      event_name: event.name,
      identity: event.identity,
      current_tags: answer.current_tags,
      risk_score: answer.risk_score,
      occurred_at: event.occurredAt.toISOString(),
    };
    const timestamp = event.receivedAt.toISOString();
    const keyed = event.idempotencyKey !== null;
    for (const s of subscriptions) {
      if (s.tagAdded) {
        for (const tag of answer.current_tags) {
          if (s.tags.length > 0 && !s.tags.includes(tag)) continue;
          if (previous?.tags.includes(tag)) continue;
          const payload: WebhookPayload = { type: 'device.tag_added', timestamp, data: { ...base, tag } };
          candidates.push({
            id: newId('msg'),
            sub: s.id,
            type: payload.type,
            payload,
            device: deviceId,
            tag,
            threshold: null,
            event: eventId,
            keyed,
            stored: !previous,
          });
        }
      }
      if (s.scoreThreshold !== null && answer.risk_score > s.scoreThreshold && !(previous && previous.score > s.scoreThreshold)) {
        const payload: WebhookPayload = { type: 'device.score_exceeded', timestamp, data: { ...base, threshold: s.scoreThreshold } };
        candidates.push({
          id: newId('msg'),
          sub: s.id,
          type: payload.type,
          payload,
          device: deviceId,
          tag: null,
          threshold: s.scoreThreshold,
          event: eventId,
          keyed,
          stored: !previous,
        });
      }
    }
  });
  if (candidates.length === 0) return null;
  return sql`INSERT INTO webhook_messages (id, subscription_id, type, payload)
    SELECT c.id, c.sub, c.type, c.payload
    FROM ${records(candidates, 'id text, sub text, type text, payload jsonb, device text, tag text, threshold float8, event text, keyed boolean, stored boolean', 'c')}
    WHERE (NOT c.keyed ${claimed ? sql`OR c.event IN (SELECT event_id FROM ${claimed})` : sql``})
      AND (NOT c.stored OR NOT EXISTS (
        SELECT 1 FROM (SELECT e.tags, e.risk_score FROM events e WHERE e.device_id = c.device ORDER BY e.occurred_at DESC LIMIT 1) AS p
        WHERE (c.tag IS NOT NULL AND c.tag = ANY(p.tags)) OR (c.threshold IS NOT NULL AND p.risk_score > c.threshold)))
    RETURNING 1`;
}
