import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supervisorAuthCases } from '../../test-support/auth-cases.js';
import { surfaceDrivers } from '../../test-support/databases.js';
import { deviceFixtures, seedDevices, type DeviceFixture } from '../../test-support/registry-fixtures.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';
import { supervisorAccounts, supervisorRequest, type TestAccount } from '../../test-support/supervisors.js';

const N = 1000;
const fixtures = deviceFixtures(N);
type Fixture = DeviceFixture;

describe.each(surfaceDrivers())('supervisor REST /api/devices on %s', (driver) => {
  let server: TestVigil;
  let accounts: Record<'admin' | 'supervisor' | 'viewer', TestAccount>;
  beforeAll(async () => {
    server = await startTestVigil(driver);
    accounts = await supervisorAccounts(server);
    await seedDevices(server, fixtures);
    await server.post('/devices/flow-dev/register', { user_id: 'ana', metadata: { role: 'teller', branch: 'harbour' } }, { key: server.clientKey });
    await server.post('/events', { event: 'login', identity: 'ana', properties: { device_id: 'flow-dev' } });
  });
  afterAll(async () => server?.close());

  const api = (method: 'GET' | 'POST', path: string, body?: unknown, token = accounts.supervisor.token) => supervisorRequest(server, method, path, token, body);

  supervisorAuthCases(() => server, { method: 'GET', path: '/api/devices?limit=5', permission: 'read' });
  supervisorAuthCases(() => server, { method: 'GET', path: '/api/devices/flow-dev', permission: 'read' });
  supervisorAuthCases(() => server, {
    method: 'POST',
    path: '/api/devices/bulk-0001/deactivate',
    body: { reason: 'matrix', by: 'matrix' },
    permission: 'manage_devices',
  });
  supervisorAuthCases(() => server, {
    method: 'POST',
    path: '/api/devices/bulk-0002/transfer',
    body: { new_user_id: 'matrix-user', by: 'matrix' },
    permission: 'manage_devices',
  });
  supervisorAuthCases(() => server, {
    method: 'POST',
    path: '/api/devices/bulk-0003/reactivate',
    body: { reason: 'matrix', by: 'matrix' },
    permission: 'manage_devices',
  });

  async function all(query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api('GET', `/api/devices?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.devices.length).toBeLessThanOrEqual(limit);
      ids.push(...res.body.devices.map((d: { device_id: string }) => d.device_id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    return { ids, pages };
  }

  const bulk = (ids: string[]) => ids.filter((id) => id.startsWith('bulk-'));
  // Devices the auth matrix moves (0001–0003) are excluded from exact-count comparisons.
  const stable = (f: Fixture) => !['bulk-0001', 'bulk-0002', 'bulk-0003'].includes(f.deviceId);

  it('pages through 1,000 devices by device id without gaps or repeats', async () => {
    const { ids, pages } = await all('role=teller', 37);
    const expected = fixtures
      .filter((f) => f.role === 'teller')
      .map((f) => f.deviceId)
      .concat('flow-dev')
      .sort();
    expect(ids).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 37));
  });

  it('filters by role, branch, status and user_id, alone and together', async () => {
    const byBranch = await all('branch=south', 100);
    expect(bulk(byBranch.ids)).toEqual(fixtures.filter((f) => f.branch === 'south').map((f) => f.deviceId));
    const combined = await all('role=agent&branch=east&status=active', 500);
    expect(combined.ids.filter(Boolean).filter((id) => ['bulk-0001', 'bulk-0002', 'bulk-0003'].every((x) => x !== id))).toEqual(
      fixtures.filter((f) => stable(f) && f.role === 'agent' && f.branch === 'east' && f.status === 'active').map((f) => f.deviceId),
    );
    const deactivated = await all('status=deactivated', 500);
    expect(bulk(deactivated.ids).filter((id) => !['bulk-0001', 'bulk-0003'].includes(id))).toEqual(
      fixtures.filter((f) => stable(f) && f.status === 'deactivated').map((f) => f.deviceId),
    );
    const byUser = await all('user_id=user-5', 500);
    expect(byUser.ids).toEqual(fixtures.filter((f) => f.userId === 'user-5').map((f) => f.deviceId));
    const harbour = await api('GET', '/api/devices?branch=harbour');
    expect(harbour.body.devices.map((d: { device_id: string }) => d.device_id)).toEqual(['flow-dev']);
  });

  it('sorts by last seen, newest first, never-seen devices last, across pages', async () => {
    const { ids } = await all('role=field&sort=last_seen', 45);
    const field = fixtures.filter((f) => f.role === 'field');
    const expected = [...field]
      .sort((a, b) => (b.lastSeen?.getTime() ?? 0) - (a.lastSeen?.getTime() ?? 0) || (a.deviceId < b.deviceId ? -1 : 1))
      .map((f) => f.deviceId);
    expect(ids).toEqual(expected);
  });

  it('lists unregistered devices that were only seen in events', async () => {
    await server.post('/events', { event: 'login', properties: { device_id: 'zz-unregistered' } });
    const res = await api('GET', '/api/devices?status=unregistered');
    const found = res.body.devices.find((d: { device_id: string }) => d.device_id === 'zz-unregistered');
    expect(found).toMatchObject({ status: 'unregistered', user_id: null, current_tags: expect.arrayContaining(['unregistered']) });
  });

  it('answers each device with registration, sightings and current tags', async () => {
    const res = await api('GET', '/api/devices?branch=harbour');
    expect(res.body.devices[0]).toEqual({
      device_id: 'flow-dev',
      user_id: 'ana',
      role: 'teller',
      metadata: { role: 'teller', branch: 'harbour' },
      status: 'active',
      registered_at: expect.any(String),
      deactivated_at: null,
      deactivation_reason: null,
      first_seen: expect.any(String),
      last_seen: expect.any(String),
      handprint_id: expect.stringMatching(/^hp_/),
      current_tags: expect.any(Array),
      risk_score: expect.any(Number),
      model: null,
      os_version: null,
    });
    expect(res.body.next_cursor).toBeNull();
  });

  it('deactivates, transfers and reactivates, answering the updated device, with each step in the history', async () => {
    const deactivated = await api('POST', '/api/devices/flow-dev/deactivate', { reason: 'left the bank', by: 'sup-maria' });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toMatchObject({ device_id: 'flow-dev', status: 'deactivated', deactivation_reason: 'left the bank' });
    const transferred = await api('POST', '/api/devices/flow-dev/transfer', { new_user_id: 'bruno', by: 'sup-maria' });
    expect(transferred.body).toMatchObject({ user_id: 'bruno', status: 'deactivated' });
    const reactivated = await api('POST', '/api/devices/flow-dev/reactivate', { reason: 'handed to bruno', by: 'sup-maria' });
    expect(reactivated.body).toMatchObject({ user_id: 'bruno', status: 'active', deactivated_at: null });

    const detail = await api('GET', '/api/devices/flow-dev', undefined, accounts.viewer.token);
    expect(detail.status).toBe(200);
    expect(detail.body.history.map((h: { action: string }) => h.action)).toEqual(['reactivate', 'transfer', 'deactivate', 'register']);
    expect(detail.body.history[1]).toMatchObject({
      action: 'transfer',
      from_user: 'ana',
      to_user: 'bruno',
      by: 'sup-maria',
      actor: { kind: 'supervisor', id: accounts.supervisor.id, name: accounts.supervisor.username },
    });
    expect(detail.body.history[2]).toMatchObject({ reason: 'left the bank', by: 'sup-maria' });
    expect(detail.body.history[3]).toMatchObject({ actor: { kind: 'client_key' } });
  });

  it('refuses moves on unknown (404) and unregistered (409) devices', async () => {
    expect((await api('POST', '/api/devices/nope/transfer', { new_user_id: 'x', by: 'y' })).status).toBe(404);
    expect((await api('GET', '/api/devices/nope')).status).toBe(404);
    const res = await api('POST', '/api/devices/zz-unregistered/reactivate', { reason: 'x', by: 'y' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('device_not_registered');
  });

  it('requires every body field as a string (400)', async () => {
    const cases: [string, unknown][] = [
      ['deactivate', { reason: 'x' }],
      ['deactivate', { by: 'x' }],
      ['deactivate', { reason: 1, by: 'x' }],
      ['transfer', { by: 'x' }],
      ['transfer', { new_user_id: 'x' }],
      ['transfer', { new_user_id: '', by: 'x' }],
      ['reactivate', { reason: 'x', by: null }],
    ];
    for (const [action, body] of cases) {
      const res = await api('POST', `/api/devices/flow-dev/${action}`, body);
      expect(res.status, `${action} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    for (const query of ['limit=0', 'limit=501', 'status=lost', 'cursor=garbage', 'sort=name', 'colour=red']) {
      const res = await api('GET', `/api/devices?${query}`);
      expect(res.status, query).toBe(400);
    }
  });
});
