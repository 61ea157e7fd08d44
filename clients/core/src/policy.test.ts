import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decide, EVENTS_BATCH, FLUSH_INTERVAL_MS, PAGE_BATCH, QUEUE_BOUND, readPolicyCases, RETRY } from './index.js';

const json = JSON.parse(readFileSync(new URL('../../policy-cases.json', import.meta.url), 'utf8'));
const { cases } = readPolicyCases(json);

describe('the shared policy cases', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(decide(c.attempt)).toEqual(c.expect);
  });
});

describe('the policy table', () => {
  it("has the numbers every client's tests read from policy-cases.json", () => {
    expect({
      retry: {
        base_delay_ms: RETRY.baseDelayMs,
        multiplier: RETRY.multiplier,
        max_delay_ms: RETRY.maxDelayMs,
        jitter: 'equal',
        retry_after_cap_ms: RETRY.retryAfterCapMs,
        max_attempts: RETRY.maxAttempts,
      },
      events_batch: { max_events: EVENTS_BATCH.maxEvents, max_bytes: EVENTS_BATCH.maxBytes },
      page_batch: { max_events: PAGE_BATCH.maxEvents, max_bytes: PAGE_BATCH.maxBytes, keepalive_bytes: PAGE_BATCH.keepaliveBytes },
      flush_interval_ms: FLUSH_INTERVAL_MS,
      queue_bound: QUEUE_BOUND,
    }).toEqual(json.policy);
  });

  it('is the table POLICY.md shows', () => {
    const doc = readFileSync(new URL('../../POLICY.md', import.meta.url), 'utf8');
    const row = (label: string) => doc.split('\n').find((line) => line.startsWith(`| ${label} |`)) ?? `(no row "${label}")`;
    expect(row('Base delay')).toContain('1 s');
    expect(row('Multiplier')).toContain('× 2');
    expect(row('Cap')).toContain('60 s');
    expect(row('Retry-After cap')).toContain('300 s');
    expect(row('Max attempts')).toContain(`${RETRY.maxAttempts}`);
    expect(row('Batch (`/events/batch`)')).toContain('100 events, 1,000,000 bytes');
    expect(row('Batch (`/js/events`)')).toContain('20 events, 61,440 bytes');
  });
});
