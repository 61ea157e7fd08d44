import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';

describe.each(testDrivers())('device integrity on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
  });
  afterAll(async () => server?.close());

  const send = async (device_signals: unknown) => {
    const res = await server.post('/events', { event: 'login', properties: { device_id: `dev-${driver}`, device_signals } });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('turns Android evidence into Critical tags that alone reach the block threshold', async () => {
    const body = await send({
      version: 1,
      platform: 'android',
      emulator: { detected: false, evidence: [] },
      root: { detected: true, evidence: ['su:/system/bin/su'] },
      hooks: { detected: true, evidence: ['maps:frida:frida-agent-64.so'] },
    });
    expect(body.current_tags).toEqual(expect.arrayContaining(['rooted', 'hooked']));
    expect(body.risk_score).toBeGreaterThanOrEqual(0.8);
    expect(body.score_breakdown.map((c: { tag: string }) => c.tag)).toEqual(expect.arrayContaining(['rooted', 'hooked']));
  });

  it('tags bot from the browser library automation block', async () => {
    const body = await send({ version: 1, platform: 'web', automation: { webdriver: true, evidence: ['webdriver'], errors: {} } });
    expect(body.current_tags).toContain('bot');
  });

  it('warns about a block it cannot read and still answers', async () => {
    const body = await send({ version: 9, platform: 'android' });
    expect(body.warnings.map((w: { code: string }) => w.code)).toContain('unsupported_device_signals_version');
  });
});
