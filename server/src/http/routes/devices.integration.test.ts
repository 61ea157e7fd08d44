import { asc, eq } from 'drizzle-orm';
import { registryAudit } from '@vigil/drizzle/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authCases } from '../../test-support/auth-cases.js';
import { testDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';
import { supervisorAccounts, supervisorRequest } from '../../test-support/supervisors.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDrivers())('device registry routes on %s', (driver) => {
  let server: TestVigil;
  beforeAll(async () => {
    server = await startTestVigil(driver);
    await server.post('/devices/auth-dev/register', { user_id: 'auth-user' }, { key: server.clientKey });
  });
  afterAll(async () => server?.close());

  const register = (id: string, body: unknown, key = server.clientKey) => server.post(`/devices/${id}/register`, body, { key });
  const event = (properties: Record<string, unknown>, identity?: string) =>
    server.post('/events', { event: 'login', ...(identity ? { identity } : {}), properties });
  const audit = (deviceId: string) =>
    server.database.db.select().from(registryAudit).where(eq(registryAudit.deviceId, deviceId)).orderBy(asc(registryAudit.at), asc(registryAudit.id));

  authCases(() => server, { method: 'POST', path: '/devices/auth-dev/register', body: { user_id: 'auth-user' }, accepts: ['client', 'write'] });
  authCases(() => server, { method: 'GET', path: '/devices/auth-dev/registration', accepts: ['client', 'write'] });
  authCases(() => server, { method: 'POST', path: '/devices/auth-dev/deactivate', body: { reason: 'auth matrix' }, accepts: ['client', 'write'] });

  it('registers a device: DeviceRegistration with role from metadata; again by the same user is idempotent', async () => {
    const res = await register('dev-1', { user_id: 'ana', metadata: { role: 'teller', branch: 'north', floor: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      device_id: 'dev-1',
      user_id: 'ana',
      role: 'teller',
      registered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      metadata: { role: 'teller', branch: 'north', floor: 2 },
    });
    const again = await register('dev-1', { user_id: 'ana', metadata: { role: 'changed' } }, server.writeKey);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const records = await audit('dev-1');
    expect(records.map((r) => r.action)).toEqual(['register']);
    expect(records[0]).toMatchObject({ toUser: 'ana', actorKind: 'client_key', actorName: 'test client' });
  });

  it('reads the registration as the Android library expects, also for an unregistered device', async () => {
    const res = await server.get('/devices/dev-1/registration', { key: server.clientKey });
    expect(res.body).toMatchObject({ device_id: 'dev-1', is_registered: true, user_id: 'ana', is_active: true, role: 'teller', status: 'active' });
    const none = await server.get('/devices/never-seen/registration', { key: server.clientKey });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ is_registered: false, user_id: null, is_active: false, role: null, status: 'unregistered', metadata: {} });
  });

  it('refuses another user with 409 device_registered_to_other_user, records the attempt and tags multi_user', async () => {
    await register('dev-2', { user_id: 'ana', metadata: { role: 'agent' } });
    const before = await event({ device_id: 'dev-2' }, 'ana');
    expect(before.body.current_tags).not.toContain('multi_user');
    const res = await register('dev-2', { user_id: 'bea' });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'device_registered_to_other_user', type: '/problems/device_registered_to_other_user', status: 409 });
    expect((await server.get('/devices/dev-2/registration', { key: server.clientKey })).body.user_id).toBe('ana');
    expect((await audit('dev-2')).map((r) => [r.action, r.fromUser, r.toUser])).toEqual([
      ['register', null, 'ana'],
      ['register_conflict', 'ana', 'bea'],
    ]);
    const after = await event({ device_id: 'dev-2' }, 'ana');
    expect(after.body.current_tags).toContain('multi_user');
    expect(after.body.device).toMatchObject({ is_registered: true, is_trusted: false, status: 'active' });
  });

  it('deactivates from the device with a reason; repeating is idempotent; re-registering is refused', async () => {
    await register('dev-3', { user_id: 'carl' });
    const res = await server.post('/devices/dev-3/deactivate', { reason: 'lost phone' }, { key: server.clientKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_registered: true, is_active: false, status: 'deactivated', deactivation_reason: 'lost phone' });
    expect((await server.post('/devices/dev-3/deactivate', { reason: 'again' }, { key: server.clientKey })).status).toBe(200);
    expect((await audit('dev-3')).map((r) => r.action)).toEqual(['register', 'deactivate']);
    expect((await audit('dev-3'))[1]).toMatchObject({ reason: 'lost phone', actorKind: 'client_key' });
    const again = await register('dev-3', { user_id: 'carl' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('device_deactivated');
    const e = await event({ device_id: 'dev-3' });
    expect(e.body.device).toMatchObject({ is_registered: true, is_trusted: false, status: 'deactivated', registered_to: 'carl' });
    // Blocked by default: a caller reading only the score or the tags must see it.
    expect(e.body.current_tags).toContain('deactivated');
    expect(e.body.risk_score).toBe(1);
  });

  it('deactivating an unknown device is 404, a seen but unregistered one 409 device_not_registered', async () => {
    const unknown = await server.post('/devices/nobody/deactivate', { reason: 'x' }, { key: server.clientKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    await event({ device_id: 'seen-only' });
    const seen = await server.post('/devices/seen-only/deactivate', { reason: 'x' }, { key: server.clientKey });
    expect(seen.status).toBe(409);
    expect(seen.body.code).toBe('device_not_registered');
  });

  it('answers bad input with 400 problems, never a 5xx', async () => {
    const cases: [string, unknown][] = [
      ['/devices/dev-x/register', {}],
      ['/devices/dev-x/register', { user_id: '' }],
      ['/devices/dev-x/register', { user_id: 'u', metadata: 'branch=north' }],
      ['/devices/dev-x/register', { user_id: 'u', metadata: { a: { b: { c: { d: 1 } } } } }],
      ['/devices/dev-x/register', { user_id: 'u\u0000' }],
      ['/devices/dev-x/register', { user_id: 'u', extra: true }],
      [`/devices/${'x'.repeat(129)}/register`, { user_id: 'u' }],
      ['/devices/dev-1/deactivate', {}],
      ['/devices/dev-1/deactivate', { reason: 7 }],
    ];
    for (const [path, body] of cases) {
      const res = await server.post(path, body, { key: server.clientKey });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    expect((await server.post('/devices/dev-x/register', '{', { key: server.clientKey })).body.code).toBe('invalid_json');
  });

  it('fills device in every event response and tags unregistered devices', async () => {
    await register('dev-4', { user_id: 'dora', metadata: { role: 'field', branch: 'south' } });
    const registered = await event({ device_id: 'dev-4' }, 'dora');
    expect(registered.body.device).toMatchObject({
      is_registered: true,
      is_trusted: true,
      registered_to: 'dora',
      role: 'field',
      metadata: { role: 'field', branch: 'south' },
      status: 'active',
    });
    expect(registered.body.device.registered_at).toMatch(/^\d{4}-/);
    expect(registered.body.current_tags).not.toContain('unregistered');

    const unregistered = await event({ device_id: 'stranger' });
    expect(unregistered.body.current_tags).toContain('unregistered');
    expect(unregistered.body.device).toMatchObject({ is_registered: false, is_trusted: false, status: 'unregistered' });
    const noDevice = await server.post('/events', { event: 'login' });
    expect(noDevice.body.current_tags).not.toContain('unregistered');
  });

  it('tags multi_user for events under two identities within the window; a transfer starts afresh', async () => {
    await register('shared', { user_id: 'erin' });
    expect((await event({ device_id: 'shared' }, 'erin')).body.current_tags).not.toContain('multi_user');
    const second = await event({ device_id: 'shared' }, 'fred');
    expect(second.body.current_tags).toContain('multi_user');
    expect(second.body.device.is_trusted).toBe(false);

    const { supervisor } = await supervisorAccounts(server);
    const moved = await supervisorRequest(server, 'POST', '/api/devices/shared/transfer', supervisor.token, { new_user_id: 'fred', by: 'boss' });
    expect(moved.status).toBe(200);
    const afterTransfer = await event({ device_id: 'shared' }, 'fred');
    expect(afterTransfer.body.current_tags).not.toContain('multi_user');
    expect(afterTransfer.body.device).toMatchObject({ registered_to: 'fred', is_trusted: true });
    // Erin again, after the transfer: two users in the new association.
    expect((await event({ device_id: 'shared' }, 'erin')).body.current_tags).toContain('multi_user');
  });

  it('does not count identities seen only before the window', async () => {
    const old = new Date(Date.now() - 40 * DAY).toISOString();
    await event({ device_id: 'window-dev', timestamp: old }, 'old-user');
    expect((await event({ device_id: 'window-dev' }, 'new-user')).body.current_tags).not.toContain('multi_user');
    const recent = new Date(Date.now() - 10 * DAY).toISOString();
    expect((await event({ device_id: 'window-dev', timestamp: recent }, 'mid-user')).body.current_tags).toContain('multi_user');
  });

  it('documents the registry, supervisor and GraphQL routes in /openapi.json', async () => {
    const doc = (await server.get('/openapi.json', { key: null })).body;
    for (const path of [
      '/devices/{device_id}/register',
      '/devices/{device_id}/registration',
      '/devices/{device_id}/deactivate',
      '/api/devices',
      '/api/devices/{device_id}',
      '/api/devices/{device_id}/transfer',
      '/api/auth/login',
      '/graphql',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.components.schemas.RegisterDevice.required).toContain('user_id');
    expect(doc.components.schemas.SupervisorTransfer.required).toEqual(expect.arrayContaining(['new_user_id', 'by']));
    expect(doc.components.securitySchemes.supervisorToken).toBeDefined();
  });
});
