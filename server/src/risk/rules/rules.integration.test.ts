import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../../behaviors/test-config.js';
import { loadConfig } from '../../config/load.js';
import { testDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';

const config = {
  behaviors: [{ name: 'tx_count_1h', group_by: 'identity', operation: 'count', window_duration_seconds: 3600, filters: ['transfer'] }],
  score: {
    weights: { velocity: 0.2 },
    rules: [
      { name: 'many_transfers', when: 'behaviors.tx_count_1h.count > 2', weight: 0.3, tag: 'velocity' },
      { name: 'big_amount', when: ['event == transfer', 'properties.amount >= 1000'], weight: 0.25 },
    ],
  },
};

describe.each(testDrivers())('score rules on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver, { VIGIL_CONFIG: writeConfig(config) });
  });
  afterAll(async () => server?.close());

  it('adds weight and custom tags when conditions hold, and the breakdown names each contribution', async () => {
    const send = (amount: number) => server.post('/events', { event: 'transfer', identity: `${driver}-u`, properties: { amount } }).then((r) => r.body);
    const first = await send(10);
    expect(first.current_tags).not.toContain('velocity');
    await send(10);
    const third = await send(5000);
    expect(third.current_tags).toContain('velocity');
    const parts = Object.fromEntries(third.score_breakdown.map((c: { tag: string; weight: number }) => [c.tag, c.weight]));
    expect(parts).toMatchObject({ 'rule:many_transfers': 0.3, 'rule:big_amount': 0.25, velocity: 0.2 });
    const sum = third.score_breakdown.reduce((a: number, c: { contribution: number }) => a + c.contribution, 0);
    expect(third.risk_score).toBeCloseTo(sum, 5);
    expect(third.risk_score).toBeGreaterThan(first.risk_score);
  });
});

describe('score rules config', () => {
  it('refuses a rule it cannot read, naming it', () => {
    const path = writeConfig({ score: { rules: [{ name: 'bad', when: 'behaviors.x.count >>> 5', weight: 0.1 }] } });
    expect(() => loadConfig({ VIGIL_CONFIG: path })).toThrow(/score.rules.0.when/);
    const none = writeConfig({ score: { rules: [{ name: 'empty', when: 'identity exists' }] } });
    expect(() => loadConfig({ VIGIL_CONFIG: none })).toThrow(/a weight, a tag, or both/);
  });
});
