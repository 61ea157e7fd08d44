import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';

/** The README's "Try it" request body and example answer, as the README states them. */
function readmeExample(): { request: unknown; response: Record<string, unknown> } {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const tryIt = readme.slice(readme.indexOf('## Try it'));
  const body = /curl -s http:\/\/127\.0\.0\.1:8080\/events[\s\S]*?-d '([^']*)'/.exec(tryIt)?.[1];
  const answer = /```json\n([\s\S]*?)```/.exec(tryIt)?.[1];
  if (!body || !answer) throw new Error('README: the Try it example (curl -d … and its ```json answer) was not found');
  return { request: JSON.parse(body), response: JSON.parse(answer) };
}

// The README is what operators compare their first answer with; it must be what a fresh instance says.
describe.each(testDrivers())('the README example request on a fresh instance on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers what the README shows, apart from the ids each instance mints', async () => {
    const { request, response } = readmeExample();
    const res = await server.post('/events', request);
    expect(res.status).toBe(200);
    // Ids are minted per event and per instance: only their form is promised.
    expect(res.body.event_id).toMatch(/^evt_[0-9A-Z]{26}$/);
    expect(response.event_id).toMatch(/^evt_[0-9A-Z]{26}$/);
    expect(res.body.handprint_id).toMatch(/^hp_[\w-]+$/);
    expect(response.handprint_id).toMatch(/^hp_[\w-]+$/);
    // So is the time the e-mail address was first seen (now, on a fresh instance).
    const firstSeen = (answer: Record<string, any>) => answer.email_intel?.first_seen;
    expect(new Date(firstSeen(res.body)).toISOString()).toBe(firstSeen(res.body));
    expect(new Date(firstSeen(response)).toISOString()).toBe(firstSeen(response));
    const deterministic = (answer: Record<string, any>) => ({
      ...answer,
      event_id: undefined,
      handprint_id: undefined,
      email_intel: answer.email_intel && { ...answer.email_intel, first_seen: undefined },
    });
    expect(deterministic(res.body)).toEqual(deterministic(response));
  });
});
