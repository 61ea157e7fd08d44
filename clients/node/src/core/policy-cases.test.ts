import { readFileSync } from 'node:fs';
import { readPolicyCases } from '@vigil/client-core';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../test/support/fake-clock.js';
import { fakeClient } from '../../test/support/fake-client.js';
import { batchOk, response } from '../../test/support/fake-transport.js';

// The shared client policy cases (clients/policy-cases.json), played through track() and the batch path.
const { nowMs, cases } = readPolicyCases(JSON.parse(readFileSync(new URL('../../../policy-cases.json', import.meta.url), 'utf8')));

describe('the shared policy cases, through track()', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, { attempt, expect: decision }) => {
    // The batch goes out one flush interval after track(), at the cases' `now` (Retry-After dates count from it).
    const clock = new FakeClock(nowMs - 1000);
    const { client, transport, errors } = fakeClient({ clock, flushInterval: 1000, random: () => attempt.random });
    // Earlier failures in a row: answered ones (503) for the attempts before this one, the rest without an answer.
    const answeredBefore = attempt.status === null ? 0 : attempt.attempts - 1;
    for (let i = 0; i < attempt.failure - 1; i++) transport.reply(i < answeredBefore ? response(503) : new TypeError('fetch failed'));
    const headers: Record<string, string> = attempt.retryAfter ? { 'Retry-After': attempt.retryAfter } : {};
    transport.reply(
      attempt.status === null
        ? new TypeError('fetch failed')
        : attempt.status >= 200 && attempt.status < 300
          ? batchOk(attempt.batchSize)
          : response(attempt.status, {}, headers),
    );
    transport.fallback = (r) => batchOk(r.json.events.length);

    for (let i = 0; i < attempt.batchSize; i++) client.track(`e${i}`);
    await clock.advance(1000);
    for (let i = 0; i < attempt.failure - 1; i++) await clock.advance(clock.pending[0]!);
    const answered = attempt.failure; // requests up to the one this case is about

    if (decision.kind !== 'shrink') expect(transport.requests).toHaveLength(answered);
    switch (decision.kind) {
      case 'done':
        expect(errors).toEqual([]);
        expect(client.queued).toBe(0);
        break;
      case 'retry':
        expect(clock.pending).toEqual([decision.delayMs]);
        expect(errors).toEqual([]);
        expect(client.queued).toBe(attempt.batchSize);
        break;
      case 'give_up':
        expect(errors.map((e) => e.code)).toEqual(['retries_exhausted']);
        expect(client.queued).toBe(0);
        break;
      case 'drop':
        expect(errors).toHaveLength(1);
        expect(errors[0]!.status).toBe(attempt.status);
        expect(errors[0]!.dropped).toHaveLength(attempt.batchSize);
        expect(client.queued).toBe(0);
        break;
      case 'shrink':
        // The smaller batch goes at once: no wait after a 413.
        expect(transport.requests[answered]!.json.events).toHaveLength(decision.batchLimit);
        expect(errors).toEqual([]);
        break;
    }
  });
});
