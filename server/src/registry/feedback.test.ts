import { describe, expect, it } from 'vitest';
import { describeMove } from './feedback.js';
import type { Registration } from './state.js';

const since = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
const active: Registration = {
  deviceId: 'd1',
  userId: 'ana',
  role: null,
  metadata: {},
  status: 'active',
  registeredAt: since,
  associatedSince: since,
  deactivatedAt: null,
  deactivationReason: null,
  deactivatedBy: null,
  conflictAt: null,
};
const deactivated: Registration = { ...active, status: 'deactivated', deactivatedAt: since, deactivationReason: 'lost', deactivatedBy: 'sup' };
const unchanged = (r: Registration) => ({ ok: true as const, registration: r, changed: false, previous: r });

describe('describeMove', () => {
  it('a repeated deactivation names the time and the kept reason, and a different new reason as not applied', () => {
    const deactivate = (reason: string) => ({ type: 'deactivate' as const, reason, by: null });
    expect(describeMove('d1', deactivate('stolen'), unchanged(deactivated))).toEqual({
      deviceId: 'd1',
      outcome: 'unchanged',
      message: 'already deactivated since 2026-01-02T03:04:05.000Z; reason kept ("lost"), new reason not applied ("stolen")',
    });
    expect(describeMove('d1', deactivate('lost'), unchanged(deactivated)).message).toBe(
      'already deactivated since 2026-01-02T03:04:05.000Z; reason kept ("lost")',
    );
  });

  it('a transfer says from whom to whom, or that the device already was registered to that user', () => {
    const transfer = { type: 'transfer' as const, newUserId: 'bo', by: null };
    expect(describeMove('d1', transfer, { ok: true, registration: { ...active, userId: 'bo' }, changed: true, previous: active })).toMatchObject({
      outcome: 'changed',
      message: 'transferred from ana to bo',
    });
    expect(describeMove('d1', { ...transfer, newUserId: 'ana' }, unchanged(active))).toMatchObject({
      outcome: 'unchanged',
      message: 'already registered to ana',
    });
  });

  it('refusals and unknown devices are outcomes with the catalogue message', () => {
    const deactivate = { type: 'deactivate' as const, reason: 'x', by: null };
    expect(describeMove('d9', deactivate, { ok: false, reason: 'unknown_device', registration: null }).outcome).toBe('not_found');
    expect(describeMove('d9', deactivate, { ok: false, reason: 'device_not_registered', registration: null })).toMatchObject({
      outcome: 'refused',
      message: 'Device d9 is not registered',
    });
  });
});
