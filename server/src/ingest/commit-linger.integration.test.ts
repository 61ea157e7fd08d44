import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { groupCommits } from '../test-support/metrics.js';

/** Far longer than the gaps between the events below and than any commit, on any machine. */
const LINGER_MS = 800;
const GAP_MS = 100;

/**
 * Under a light load an event waits up to VIGIL_COMMIT_LINGER_MS for others, so that events arriving a little apart
 * share one commit instead of paying a statement, a commit record and a flush each.
 */
describe.each(testDrivers())('events arriving apart under a light load on %s', (driver) => {
  let vigil: TestVigil;
  beforeAll(async () => {
    vigil = await startTestVigil(driver, { VIGIL_COMMIT_LINGER_MS: String(LINGER_MS) });
  });
  afterAll(async () => vigil?.close());

  it('share one group commit when they arrive within the linger of the first', async () => {
    const before = await groupCommits(vigil);
    const started = performance.now();
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(vigil.post('/events', { event: 'login', properties: { device_id: `linger-${driver}-${i}` } }));
      await new Promise((r) => setTimeout(r, GAP_MS));
    }
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([200, 200, 200]);
    // The first answer waited for the linger, counted from its arrival.
    expect(performance.now() - started).toBeGreaterThanOrEqual(LINGER_MS - 50);
    const after = await groupCommits(vigil);
    expect(after.events - before.events).toBe(3);
    expect(after.commits - before.commits).toBe(1);
  });
});
