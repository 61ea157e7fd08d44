import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../test-support/harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhook-receiver.js';
import { supervisorAccounts } from '../test-support/supervisors.js';
import { sweepExpiries } from '../auth/expiry-sweep.js';
import { SupervisorStore } from '../auth/supervisor-store.js';
import { WebhookDelivery } from './delivery.js';
import { WebhookSender } from './sender.js';
import { WebhookSubscriptions, type CreateSubscriptionInput } from './subscriptions.js';

const fixtures = fileURLToPath(new URL('../../test-fixtures/intel/', import.meta.url));
const TOR_IP = '192.0.2.10';

/** Loopback receivers need the allow flag; retries are made fast so a dead letter takes a moment, not hours. */
const ENV = {
  VIGIL_WEBHOOK_ALLOW_PRIVATE: '1',
  VIGIL_WEBHOOK_RETRY_BASE_MS: '20',
  VIGIL_WEBHOOK_RETRY_MAX_MS: '200',
  VIGIL_WEBHOOK_POLL_MS: '50',
  VIGIL_WEBHOOK_MAX_ATTEMPTS: '3',
};

describe.each(testDrivers())('webhooks on %s', (driver) => {
  let server: TestVigil;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-webhooks-'));
    const path = join(dir, 'vigil.json');
    writeFileSync(path, JSON.stringify({ intel: { tor_exit_list: join(fixtures, 'tor-bulk-exit-list.txt') } }));
    server = await startTestVigil(driver, { VIGIL_CONFIG: path, ...ENV });
  });
  afterAll(async () => server?.close());
  afterEach(async () => {
    // Each test has its own endpoint: a subscription left behind would receive the next test's events.
    for (const s of await server.vigil.webhooks.subscriptions.list()) await server.vigil.webhooks.subscriptions.delete(s.id);
    await receiver?.close();
  });

  const subscribe = async (input: Omit<CreateSubscriptionInput, 'url'>) => {
    receiver = await startWebhookReceiver();
    return server.vigil.webhooks.subscriptions.create({ url: receiver.url, ...input });
  };
  const event = (properties: Record<string, unknown>) => server.post('/events', { event: 'login', properties });
  const messagesOf = (subscriptionId: string) => server.vigil.webhooks.subscriptions.messages({ subscriptionId, limit: 50 });
  const settle = async (subscriptionId: string) => {
    for (let i = 0; i < 200; i++) {
      const pending = (await messagesOf(subscriptionId)).filter((m) => m.status === 'pending');
      if (pending.length === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('messages still pending');
  };

  it('a Tor event yields one signed device.tag_added; the same tag again on that device yields none', async () => {
    const { subscription, secret } = await subscribe({ eventTypes: ['device.tag_added'], tags: ['tor'] });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const first = await event({ device_id: 'tor-dev', ip_address: TOR_IP });
    expect(first.body.current_tags).toContain('tor');
    await event({ device_id: 'tor-dev', ip_address: TOR_IP });
    await event({ device_id: 'clean-dev', ip_address: '192.0.2.99' });
    await receiver.waitFor(1);
    await settle(subscription.id);
    expect(receiver.received).toHaveLength(1);
    const [payload] = receiver.verified(secret) as { type: string; timestamp: string; data: Record<string, unknown> }[];
    expect(payload).toMatchObject({ type: 'device.tag_added', data: { device_id: 'tor-dev', tag: 'tor', event_id: first.body.event_id } });
    expect(receiver.received[0]!.headers['webhook-id']).toMatch(/^msg_/);
    const [message] = await messagesOf(subscription.id);
    expect(message).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 204 });
    // The tag disappears, then appears again: that is a new appearance.
    await event({ device_id: 'tor-dev', ip_address: '192.0.2.99' });
    await event({ device_id: 'tor-dev', ip_address: TOR_IP });
    await receiver.waitFor(2);
  });

  it('a score crossing its threshold yields device.score_exceeded once, within one batch too', async () => {
    const { subscription } = await subscribe({ eventTypes: ['device.score_exceeded'], scoreThreshold: 0.5 });
    await Promise.all([event({ device_id: 'score-dev', ip_address: TOR_IP }), event({ device_id: 'score-dev', ip_address: TOR_IP })]);
    await receiver.waitFor(1);
    await settle(subscription.id);
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'device.score_exceeded', data: { device_id: 'score-dev', threshold: 0.5 } });
  });

  it('registry moves yield one message each: registered, conflict, deactivated, reactivated, transferred', async () => {
    const { subscription, secret } = await subscribe({
      eventTypes: ['device.registered', 'device.registration_conflict', 'device.deactivated', 'device.reactivated', 'device.transferred'],
    });
    const key = server.writeKey;
    await server.post('/devices/reg-dev/register', { user_id: 'ana' }, { key });
    await server.post('/devices/reg-dev/register', { user_id: 'ana' }, { key }); // idempotent: nothing new
    expect((await server.post('/devices/reg-dev/register', { user_id: 'bea' }, { key })).status).toBe(409);
    await server.post('/devices/reg-dev/deactivate', { reason: 'lost phone' }, { key });
    await server.post('/devices/reg-dev/deactivate', { reason: 'lost phone' }, { key }); // idempotent
    await receiver.waitFor(3);
    await settle(subscription.id);
    const types = (receiver.verified(secret) as { type: string }[]).map((p) => p.type);
    expect(types).toEqual(['device.registered', 'device.registration_conflict', 'device.deactivated']);
    expect(JSON.parse(receiver.received[2]!.body).data).toMatchObject({ device_id: 'reg-dev', status: 'deactivated', reason: 'lost phone' });
  });

  it('honours Retry-After: the retry waits as long as the receiver asked, with the same webhook-id', async () => {
    const { subscription } = await subscribe({ eventTypes: ['device.tag_added'], tags: ['tor'] });
    receiver.answers.push({ status: 503, headers: { 'retry-after': '1' } });
    await event({ device_id: 'retry-dev', ip_address: TOR_IP });
    const [first, second] = await receiver.waitFor(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
    await settle(subscription.id);
    const [message] = await messagesOf(subscription.id);
    const log = await server.vigil.webhooks.subscriptions.attempts(message!.id);
    expect(log.map((a) => [a.attempt, a.status])).toEqual([
      [1, 503],
      [2, 204],
    ]);
    expect(log.every((a) => a.durationMs >= 0)).toBe(true);
  });

  it('410 Gone disables the subscription: nothing more is sent to it', async () => {
    const { subscription } = await subscribe({ eventTypes: ['device.tag_added'], tags: ['tor'] });
    receiver.answers.push({ status: 410 });
    await event({ device_id: 'gone-dev-1', ip_address: TOR_IP });
    await receiver.waitFor(1);
    await settle(subscription.id);
    expect(await server.vigil.webhooks.subscriptions.get(subscription.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
    expect((await messagesOf(subscription.id))[0]).toMatchObject({ status: 'cancelled', lastStatus: 410 });
    await event({ device_id: 'gone-dev-2', ip_address: TOR_IP });
    await server.vigil.webhooks.delivery.drain();
    expect(receiver.received).toHaveLength(1);
    expect(await messagesOf(subscription.id)).toHaveLength(1);
  });

  it('dead-letters after the last attempt; a redelivery sends it again and marks it delivered', async () => {
    const { subscription } = await subscribe({ eventTypes: ['device.tag_added'], tags: ['tor'] });
    receiver.answers.push({ status: 500 }, { status: 500 }, { status: 500 });
    await event({ device_id: 'dead-dev', ip_address: TOR_IP });
    await receiver.waitFor(3);
    await settle(subscription.id);
    const [dead] = await server.vigil.webhooks.subscriptions.messages({ status: 'dead', limit: 10 });
    expect(dead).toMatchObject({ subscriptionId: subscription.id, attempts: 3, lastStatus: 500 });
    const result = await server.vigil.webhooks.delivery.redeliver(dead!.id);
    expect(result).toMatchObject({ status: 204 });
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received[3]!.headers['webhook-id']).toBe(dead!.id);
    expect((await messagesOf(subscription.id))[0]).toMatchObject({ status: 'delivered', attempts: 4 });
    const log = await server.vigil.webhooks.subscriptions.attempts(dead!.id);
    expect(log.map((a) => [a.status, a.trigger])).toEqual([
      [500, 'auto'],
      [500, 'auto'],
      [500, 'auto'],
      [204, 'manual'],
    ]);
  });

  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const { admin } = await supervisorAccounts(server);
    const res = await server.post('/graphql', { query, variables }, { key: admin.token });
    return res.body as { data?: Record<string, any>; errors?: { extensions: { code: string } }[] };
  };

  it('is managed through admin GraphQL: the secret is shown once, a redelivery is logged', async () => {
    receiver = await startWebhookReceiver();
    const created = await graphql(
      `mutation($input: WebhookSubscriptionInput!) { createWebhookSubscription(input: $input) { secret subscription { id url eventTypes enabled } } }`,
      { input: { url: receiver.url, eventTypes: ['key.created', 'key.revoked', 'account.created'], description: 'ops' } },
    );
    const { secret, subscription } = created.data!.createWebhookSubscription;
    expect(secret).toMatch(/^whsec_/);
    expect(subscription).toMatchObject({ url: receiver.url, enabled: true });
    const listed = await graphql(`{ webhookSubscriptions { id description } }`);
    expect(listed.data!.webhookSubscriptions).toEqual([{ id: subscription.id, description: 'ops' }]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    // Key and account changes announce themselves in their transactions.
    const key = (await server.vigil.keys.create('write', 'hooked key')).id;
    await server.vigil.keys.revoke(key);
    await receiver.waitFor(2);
    await settle(subscription.id);
    expect((receiver.verified(secret) as { type: string; data: { key_id: string } }[]).map((p) => [p.type, p.data.key_id])).toEqual([
      ['key.created', key],
      ['key.revoked', key],
    ]);
    const messages = await graphql(`query($id: ID!) { webhookMessages(subscriptionId: $id) { id type status attempts } }`, { id: subscription.id });
    const revoked = messages.data!.webhookMessages.find((m: { type: string }) => m.type === 'key.revoked');
    expect(revoked).toMatchObject({ status: 'delivered', attempts: 1 });
    const again = await graphql(`mutation($id: ID!) { redeliverWebhookMessage(id: $id) { status } }`, { id: revoked.id });
    expect(again.data!.redeliverWebhookMessage).toEqual({ status: 204 });
    const log = await graphql(`query($id: ID!) { webhookAttempts(messageId: $id) { attempt status trigger durationMs } }`, { id: revoked.id });
    expect(log.data!.webhookAttempts.map((a: { status: number; trigger: string }) => [a.status, a.trigger])).toEqual([
      [204, 'auto'],
      [204, 'manual'],
    ]);
    const bad = await graphql(`mutation($input: WebhookSubscriptionInput!) { createWebhookSubscription(input: $input) { secret } }`, {
      input: { url: 'ftp://example.com/hook', eventTypes: ['key.created'] },
    });
    expect(bad.errors?.[0]?.extensions.code).toBe('webhook_endpoint_refused');
    const { viewer } = await supervisorAccounts(server);
    const denied = await server.post('/graphql', { query: '{ webhookSubscriptions { id } }' }, { key: viewer.token });
    expect(denied.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('a key rotation yields key.rotated, and the end of its overlap key.expired, once', async () => {
    const subscription = await subscribe({ eventTypes: ['key.rotated', 'key.expired'] });
    const old = (await server.vigil.keys.create('write', 'rotated key')).id;
    const created = await server.vigil.keys.rotate(old, 0);
    const sweep = () => sweepExpiries({ database: server.database, keys: server.vigil.keys, supervisors: new SupervisorStore(server.database) });
    await sweep();
    await sweep();
    await receiver.waitFor(2);
    await settle(subscription.subscription.id);
    const seen = receiver.verified(subscription.secret) as { type: string; data: { key_id: string; replaced_by: string } }[];
    expect(seen.map((p) => [p.type, p.data.key_id, p.data.replaced_by])).toEqual([
      ['key.rotated', old, created.id],
      ['key.expired', old, created.id],
    ]);
  });

  it('refuses private endpoints without VIGIL_WEBHOOK_ALLOW_PRIVATE, at creation and again at delivery', async () => {
    const strict = new WebhookSubscriptions({ database: server.database, allowPrivate: false });
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost:9/hook',
      'http://[::1]:9/hook',
      'http://[::ffff:127.0.0.1]:9/hook',
      'http://169.254.169.254/',
    ]) {
      await expect(strict.create({ url, eventTypes: ['device.registered'] })).rejects.toMatchObject({ code: 'webhook_endpoint_refused' });
    }
    // Stored while allowed (or while its name resolved elsewhere), the endpoint now resolves to loopback: a
    // process without the flag resolves it at delivery and refuses to connect.
    const { subscription } = await subscribe({ eventTypes: ['device.registered'] });
    await server.vigil.webhooks.subscriptions.update(subscription.id, { url: receiver.url.replace('127.0.0.1', 'localhost') });
    await server.vigil.webhooks.delivery.stop();
    const sender = new WebhookSender({ allowPrivate: false, timeoutMs: 2000 });
    const delivery = new WebhookDelivery({
      database: server.database,
      sender,
      maxAttempts: 3,
      backoff: { baseMs: 10, maxMs: 10 },
      concurrency: 1,
      pollMs: 1000,
      leaseMs: 30_000,
      log: { warn: () => {} },
    });
    try {
      await server.post('/devices/ssrf-dev/register', { user_id: 'ana' }, { key: server.writeKey });
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 30));
        await delivery.drain();
      }
      const [message] = await messagesOf(subscription.id);
      expect(message).toMatchObject({ status: 'dead', attempts: 3, lastStatus: null });
      const log = await server.vigil.webhooks.subscriptions.attempts(message!.id);
      expect(log[0]!.error).toMatch(/^blocked: localhost resolves to (127\.0\.0\.1|::1)/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await sender.close();
    }
  });
});
