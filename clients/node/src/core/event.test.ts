import { describe, expect, it } from 'vitest';
import { VigilError } from './errors.js';
import { asProperties, prepareEvent } from './event.js';

const now = Date.parse('2025-01-01T00:00:00Z');
const newId = () => 'generated';

describe('prepareEvent', () => {
  it('adds an idempotency key and the time it happened', () => {
    const prepared = prepareEvent('login', 'u1', { amount: 3 }, now, newId);
    expect(prepared).toEqual({
      event: {
        event: 'login',
        identity: 'u1',
        properties: { amount: 3, event_id: 'generated', timestamp: '2025-01-01T00:00:00.000Z' },
      },
      bytes: expect.any(Number),
    });
  });

  it('keeps a caller-provided event_id and timestamp', () => {
    const prepared = prepareEvent('login', undefined, { event_id: 'mine', timestamp: '2024-12-31T00:00:00Z' }, now, newId);
    expect(prepared).not.toBeInstanceOf(VigilError);
    if (prepared instanceof VigilError) return;
    expect(prepared.event.properties).toEqual({ event_id: 'mine', timestamp: '2024-12-31T00:00:00Z' });
    expect('identity' in prepared.event).toBe(false);
  });

  it.each([
    ['an empty name', '', undefined, {}],
    ['a name over 200 characters', 'x'.repeat(201), undefined, {}],
    ['an identity over 256 characters', 'login', 'x'.repeat(257), {}],
    ['properties above 64 KiB', 'login', undefined, { blob: 'x'.repeat(70_000) }],
  ])('refuses %s', (_label, name, identity, properties) => {
    const prepared = prepareEvent(name, identity, properties, now, newId);
    expect(prepared).toBeInstanceOf(VigilError);
    expect((prepared as VigilError).code).toBe('invalid_event');
  });

  it('refuses properties that cannot be serialised', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect((prepareEvent('login', undefined, circular, now, newId) as VigilError).code).toBe('invalid_event');
    expect((prepareEvent('login', undefined, { n: 1n }, now, newId) as VigilError).code).toBe('invalid_event');
  });

  it('counts bytes, not characters', () => {
    const ascii = prepareEvent('e', undefined, { event_id: 'a', timestamp: 't', s: 'aa' }, now, newId);
    const utf8 = prepareEvent('e', undefined, { event_id: 'a', timestamp: 't', s: 'éé' }, now, newId);
    expect((utf8 as { bytes: number }).bytes - (ascii as { bytes: number }).bytes).toBe(2);
  });
});

describe('asProperties', () => {
  it('accepts plain objects and absence, refuses the rest', () => {
    expect(asProperties(undefined)).toEqual({});
    expect(asProperties({ a: 1 })).toEqual({ a: 1 });
    expect(asProperties([1])).toBeUndefined();
    expect(asProperties('x')).toBeUndefined();
  });
});
