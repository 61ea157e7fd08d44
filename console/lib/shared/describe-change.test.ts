import { describe, expect, it } from 'vitest';
import { describeChange } from './describe-change';

const registration = (userId: string, deactivated?: { at: string; reason: string }) => ({
  userId,
  role: null,
  branch: null,
  metadata: {},
  status: deactivated ? ('DEACTIVATED' as const) : ('ACTIVE' as const),
  registeredAt: '2026-01-01T00:00:00Z',
  associatedSince: '2026-01-01T00:00:00Z',
  deactivatedAt: deactivated?.at ?? null,
  deactivationReason: deactivated?.reason ?? null,
  deactivatedBy: null,
});
const active = { id: 'd1', status: 'ACTIVE' as const, registration: registration('u1') };
const deactivated = { id: 'd1', status: 'DEACTIVATED' as const, registration: registration('u1', { at: '2026-02-03T04:05:00Z', reason: 'lost' }) };

describe('feedback of a device change', () => {
  it('says a change happened only when it did', () => {
    expect(describeChange({ type: 'deactivate', reason: 'stolen' }, active, deactivated)).toBe('Device d1 deactivated.');
    expect(describeChange({ type: 'deactivate', reason: 'stolen' }, deactivated, deactivated)).toBe(
      'Device d1 was already deactivated since 2026-02-03 04:05 UTC; reason kept: “lost”.',
    );
    expect(describeChange({ type: 'reactivate', reason: 'found' }, active, active)).toBe('Device d1 was already active; nothing changed.');
    expect(describeChange({ type: 'transfer', newUserId: 'u1' }, active, active)).toBe('Device d1 is already registered to u1; nothing changed.');
    expect(describeChange({ type: 'transfer', newUserId: 'u2' }, active, { ...active, registration: registration('u2') })).toBe(
      'Device d1 transferred from u1 to u2.',
    );
  });

  it("names the kept reason in the supervisor's time zone", () => {
    expect(describeChange({ type: 'deactivate', reason: 'x' }, deactivated, deactivated, 'Asia/Kolkata')).toContain('since 2026-02-03 09:35 GMT+5:30');
  });
});
