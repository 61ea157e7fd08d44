import { describe, expect, it } from 'vitest';
import { roleOf, transition, type Command, type Registration } from './state.js';

const T0 = new Date('2025-01-01T00:00:00Z');
const T1 = new Date('2025-01-02T00:00:00Z');

const active = (over: Partial<Registration> = {}): Registration => ({
  deviceId: 'd1',
  userId: 'ana',
  role: 'teller',
  metadata: { role: 'teller', branch: 'north' },
  status: 'active',
  registeredAt: T0,
  associatedSince: T0,
  deactivatedAt: null,
  deactivationReason: null,
  deactivatedBy: null,
  conflictAt: null,
  ...over,
});
const deactivated = () => active({ status: 'deactivated', deactivatedAt: T0, deactivationReason: 'lost', deactivatedBy: 'boss' });

const register = (userId = 'ana', metadata: Record<string, unknown> = { role: 'teller' }): Command => ({ type: 'register', userId, metadata });
const deactivate: Command = { type: 'deactivate', reason: 'stolen', by: 'sup-1' };
const reactivate: Command = { type: 'reactivate', reason: 'found', by: 'sup-1' };
const transfer = (newUserId = 'bea'): Command => ({ type: 'transfer', newUserId, by: 'sup-1' });

describe('registry state table', () => {
  it('not registered → register → active, role from metadata, audited', () => {
    const t = transition(null, register('ana', { role: 'teller', branch: 'north' }), T1, 'd1');
    expect(t.ok).toBe(true);
    if (!t.ok) return;
    expect(t.changed).toBe(true);
    expect(t.next).toMatchObject({ deviceId: 'd1', userId: 'ana', role: 'teller', status: 'active', registeredAt: T1, associatedSince: T1 });
    expect(t.next.metadata).toEqual({ role: 'teller', branch: 'north' });
    expect(t.audit).toMatchObject({ action: 'register', fromUser: null, toUser: 'ana' });
  });

  it('active, same user → register → unchanged and idempotent, nothing audited', () => {
    const current = active();
    const t = transition(current, register('ana', { role: 'other' }), T1, 'd1');
    expect(t).toEqual({ ok: true, next: current, changed: false, audit: null });
  });

  it('active, other user → register → refused, conflict recorded and audited, owner unchanged', () => {
    const t = transition(active(), register('bea'), T1, 'd1');
    expect(t.ok).toBe(false);
    if (t.ok) return;
    expect(t.refusal).toBe('device_registered_to_other_user');
    expect(t.next).toMatchObject({ userId: 'ana', status: 'active', conflictAt: T1 });
    expect(t.audit).toMatchObject({ action: 'register_conflict', fromUser: 'ana', toUser: 'bea' });
  });

  it('active → deactivate → deactivated with reason and by; repeating is idempotent', () => {
    const t = transition(active(), deactivate, T1, 'd1');
    expect(t.ok && t.changed).toBe(true);
    if (!t.ok) return;
    expect(t.next).toMatchObject({ status: 'deactivated', deactivatedAt: T1, deactivationReason: 'stolen', deactivatedBy: 'sup-1', userId: 'ana' });
    expect(t.audit).toMatchObject({ action: 'deactivate', reason: 'stolen', by: 'sup-1', fromUser: 'ana', toUser: 'ana' });
    const again = transition(t.next, deactivate, T1, 'd1');
    expect(again).toEqual({ ok: true, next: t.next, changed: false, audit: null });
  });

  it('active → transfer → active, new user, fresh association, conflict cleared, history has both users', () => {
    const t = transition(active({ conflictAt: T0 }), transfer('bea'), T1, 'd1');
    expect(t.ok && t.changed).toBe(true);
    if (!t.ok) return;
    expect(t.next).toMatchObject({ userId: 'bea', status: 'active', associatedSince: T1, conflictAt: null, registeredAt: T0 });
    expect(t.audit).toMatchObject({ action: 'transfer', fromUser: 'ana', toUser: 'bea', by: 'sup-1' });
  });

  it('deactivated → transfer → still deactivated, new user', () => {
    const t = transition(deactivated(), transfer('bea'), T1, 'd1');
    expect(t.ok && t.changed).toBe(true);
    if (!t.ok) return;
    expect(t.next).toMatchObject({ userId: 'bea', status: 'deactivated', deactivationReason: 'lost' });
  });

  it('transfer to the current user changes nothing', () => {
    const current = active();
    expect(transition(current, transfer('ana'), T1, 'd1')).toEqual({ ok: true, next: current, changed: false, audit: null });
  });

  it('deactivated → reactivate → active, deactivation cleared, audited; repeating is idempotent', () => {
    const t = transition(deactivated(), reactivate, T1, 'd1');
    expect(t.ok && t.changed).toBe(true);
    if (!t.ok) return;
    expect(t.next).toMatchObject({ status: 'active', deactivatedAt: null, deactivationReason: null, deactivatedBy: null });
    expect(t.audit).toMatchObject({ action: 'reactivate', reason: 'found', by: 'sup-1' });
    expect(transition(t.next, reactivate, T1, 'd1')).toEqual({ ok: true, next: t.next, changed: false, audit: null });
  });
});

describe('illegal moves', () => {
  for (const command of [deactivate, reactivate, transfer()]) {
    it(`not registered → ${command.type} → device_not_registered, nothing written`, () => {
      expect(transition(null, command, T1, 'd1')).toEqual({ ok: false, refusal: 'device_not_registered', next: null, audit: null });
    });
  }

  it('deactivated, same user → register → device_deactivated (only a supervisor reactivates)', () => {
    expect(transition(deactivated(), register('ana'), T1, 'd1')).toEqual({ ok: false, refusal: 'device_deactivated', next: null, audit: null });
  });

  it('deactivated, other user → register → device_registered_to_other_user, recorded', () => {
    const t = transition(deactivated(), register('bea'), T1, 'd1');
    expect(t).toMatchObject({ ok: false, refusal: 'device_registered_to_other_user', audit: { action: 'register_conflict' } });
  });
});

describe('roleOf', () => {
  it('takes metadata.role when it is a value, else null', () => {
    expect(roleOf({ role: 'teller' })).toBe('teller');
    expect(roleOf({ role: 3 })).toBe('3');
    expect(roleOf({ role: '' })).toBeNull();
    expect(roleOf({ role: { x: 1 } })).toBeNull();
    expect(roleOf({})).toBeNull();
  });
});
