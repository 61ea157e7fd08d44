import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../test-support/cli.js';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { deviceKey, signedHeaders } from '../test-support/device-keys.js';
import { startTestVigil } from '../test-support/harness.js';

beforeAll(() => assertBuilt());

// The command is driver-neutral (one store function each way, tested on both drivers in binding/): one driver here
// keeps the spawned processes few.
describe('vigil devices key|unbind', () => {
  let db: TestDatabase;
  const key = deviceKey();
  beforeAll(async () => {
    db = await createTestDatabase('pglite');
    const server = await startTestVigil('pglite', {}, db);
    try {
      const body = JSON.stringify({ user_id: 'ana', device_key: { public_key: key.spki.toString('base64'), attestation_chain: [] } });
      const headers = signedHeaders(key, { method: 'POST', path: '/devices/dev-cli/register', body });
      const res = await server.post('/devices/dev-cli/register', body, { key: server.clientKey, headers });
      expect(res.status, res.text).toBe(200);
    } finally {
      await server.close();
    }
  });
  afterAll(async () => db?.drop());

  it('shows a bound key, forgets it once, and then reports the device unbound', async () => {
    const shown = await runCli(['devices', 'key', 'dev-cli'], db.env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^dev-cli: key ${key.keyId}, unverified \\(no_chain\\), bound \\d{4}-\\d\\d-\\d\\dT`));
    const unbound = await runCli(['devices', 'unbind', 'dev-cli', '--json'], db.env);
    expect(unbound.code, unbound.stderr).toBe(0);
    expect(JSON.parse(unbound.stdout)).toEqual({ device_id: 'dev-cli', unbound: true });
    expect((await runCli(['devices', 'key', 'dev-cli', '--json'], db.env)).stdout).toBe('null\n');
  });

  it('answers a missing device id with the usage', async () => {
    const res = await runCli(['devices', 'unbind'], db.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('devices key|unbind needs DEVICE_ID');
  });
});
