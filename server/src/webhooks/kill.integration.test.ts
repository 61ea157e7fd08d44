import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli, startServe } from '../test-support/cli.js';
import { createTestDatabase, testDrivers, type TestDatabase } from '../test-support/databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';

beforeAll(() => assertBuilt());

const fixtures = fileURLToPath(new URL('../../test-fixtures/intel/', import.meta.url));

describe.each(testDrivers())('webhook delivery across kill -9 on %s', (driver) => {
  let db: TestDatabase;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  beforeAll(async () => {
    db = await createTestDatabase(driver);
    receiver = await startWebhookReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'vigil-webhooks-kill-'));
    const config = join(dir, 'vigil.json');
    writeFileSync(config, JSON.stringify({ intel: { tor_exit_list: join(fixtures, 'tor-bulk-exit-list.txt') } }));
    env = { ...db.env, VIGIL_CONFIG: config, VIGIL_WEBHOOK_ALLOW_PRIVATE: '1', VIGIL_WEBHOOK_POLL_MS: '100' };
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.drop();
  });

  it('delivers what was committed before a SIGKILL once, from the restarted process', { timeout: 420_000 }, async () => {
    const key = JSON.parse((await runCli(['keys', 'create', '--kind', 'write', '--name', 'kill', '--json'], env)).stdout).key as string;
    const created = await runCli(
      ['webhooks', 'create', '--url', receiver.url, '--events', 'device.tag_added,device.deactivated', '--tags', 'tor', '--json'],
      env,
    );
    expect(created.stderr).toBe('');
    const { secret } = JSON.parse(created.stdout) as { secret: string };

    // The first process commits but delivers nothing (VIGIL_WEBHOOK_WORKERS=0), so the kill falls for certain
    // between the commit of the change and the delivery of its message.
    const first = await startServe({ ...env, VIGIL_WEBHOOK_WORKERS: '0' });
    const post = (path: string, body: unknown) =>
      fetch(first.url + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const tor = await post('/events', { event: 'login', properties: { device_id: 'kill-dev', ip_address: '192.0.2.10' } });
    expect(((await tor.json()) as { current_tags: string[] }).current_tags).toContain('tor');
    expect((await post('/devices/kill-dev/register', { user_id: 'ana' })).status).toBe(200);
    expect((await post('/devices/kill-dev/deactivate', { reason: 'stolen' })).status).toBe(200);
    first.child.kill('SIGKILL');
    await new Promise((r) => (first.child.exitCode !== null || first.child.signalCode ? r(null) : first.child.once('exit', r)));
    expect(receiver.received).toHaveLength(0);

    const again = await startServe(env);
    try {
      await receiver.waitFor(2, 120_000);
      // Long enough for a duplicate to show up: several polls of the restarted process.
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      await again.stop();
    }
    const payloads = receiver.verified(secret) as { type: string; data: { device_id: string } }[];
    expect(payloads.map((p) => p.type).sort()).toEqual(['device.deactivated', 'device.tag_added']);
    expect(payloads.every((p) => p.data.device_id === 'kill-dev')).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(2);
  });
});
