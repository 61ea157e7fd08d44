import { describe, expect, it } from 'vitest';
// Loaded first on purpose: it names the schemas as OpenAPI components in zod's global registry, as the server does.
import '../http/openapi.js';
import { fastEventInput } from './fast-input.js';
import { limits } from './limits.js';
import { eventInputSchema } from './schema.js';

const login = {
  event: 'login',
  identity: 'user1@example.com',
  properties: {
    event_id: 'e-1',
    device_id: 'device-1',
    ip_address: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8)',
    session_id: 's-1',
    amount: 10.5,
    nested: { list: [1, 'two', { three: null }] },
    device_model: 'Pixel 8',
    os_version: '14',
  },
};

const long = (n: number, unit = 'a') => unit.repeat(n);
const withProperty = (key: string, value: unknown) => ({ ...login, properties: { ...login.properties, [key]: value } });
let deep: unknown = 'leaf';
for (let i = 0; i < limits.propertiesMaxDepth + 1; i++) deep = { d: deep };

/** Bodies at and across every edge the schema checks. */
const bodies: [string, unknown][] = [
  ['a login', login],
  ['no properties', { event: 'page_view' }],
  ['identity null', { ...login, identity: null }],
  ['empty properties', { event: 'x', properties: {} }],
  ['event at its limit', { event: long(limits.eventNameMax) }],
  ['event over its limit', { event: long(limits.eventNameMax + 1) }],
  ['event of astral characters at the limit in code points', { event: long(limits.eventNameMax / 2 + 1, '😀') }],
  ['empty event', { event: '' }],
  ['event not a string', { event: 7 }],
  ['no event', { identity: 'u' }],
  ['event with NUL', { event: 'a\u0000b' }],
  ['event with a lone surrogate', { event: 'a\ud800' }],
  ['empty identity', { ...login, identity: '' }],
  ['identity over its limit', { ...login, identity: long(limits.identityMax + 1) }],
  ['identity a number', { ...login, identity: 5 }],
  ['an unknown top-level field', { ...login, extra: 1 }],
  ['sent_at', { ...login, sent_at: '2026-01-01T00:00:00Z' }],
  ['sent_at not a time', { ...login, sent_at: 'yesterday' }],
  ['sent_at with an offset and milliseconds', { ...login, sent_at: '2026-01-01T01:00:00.250+01:00' }],
  ['sent_at on 30 February', { ...login, sent_at: '2026-02-30T00:00:00Z' }],
  ['sent_at a number', { ...login, sent_at: 1700000000000 }],
  ['sent_at null', { ...login, sent_at: null }],
  ['properties an array', { event: 'x', properties: [1] }],
  ['properties null', { event: 'x', properties: null }],
  ['properties a string', { event: 'x', properties: 'p' }],
  ['timestamp', withProperty('timestamp', '2026-01-01T10:00:00.123+02:00')],
  ['timestamp without offset', withProperty('timestamp', '2026-01-01T10:00:00')],
  ['timestamp on 30 February', withProperty('timestamp', '2026-02-30T10:00:00Z')],
  ['timestamp a number', withProperty('timestamp', 1700000000000)],
  ['device_id empty', withProperty('device_id', '')],
  ['device_id over its limit', withProperty('device_id', long(limits.idMax + 1))],
  ['device_id a number', withProperty('device_id', 12)],
  ['ip_address at its limit', withProperty('ip_address', long(64))],
  ['ip_address over its limit', withProperty('ip_address', long(65))],
  ['email with NUL', withProperty('email', 'a\u0000@b')],
  ['user_agent null', withProperty('user_agent', null)],
  ['device_signals', withProperty('device_signals', { emulator: false, hooks: ['x'] })],
  ['device_signals an array', withProperty('device_signals', [1])],
  ['device_signals null', withProperty('device_signals', null)],
  ['a custom property with a lone surrogate deep down', withProperty('custom', { a: ['ok', 'b\udc00'] })],
  ['a key with NUL', withProperty('k\u0000', 1)],
  ['nesting over the limit', withProperty('deep', deep)],
  ['too many keys', withProperty('many', Object.fromEntries(Array.from({ length: limits.propertiesMaxKeys }, (_, i) => [`k${i}`, i])))],
  ['a __proto__ key', { event: 'x', properties: JSON.parse('{"__proto__": {"polluted": true}}') }],
  ['not an object', 'login'],
  ['null', null],
];

describe('fastEventInput', () => {
  it.each(bodies)('%s: accepted only when the schema accepts it, and then as the schema returns it', (_, body) => {
    const fast = fastEventInput(body);
    const parsed = eventInputSchema.safeParse(body);
    if (fast !== undefined) {
      expect(parsed.success).toBe(true);
      expect(fast).toEqual(parsed.data);
    }
  });

  it('accepts the common bodies, so that they skip the schema', () => {
    for (const name of ['a login', 'no properties', 'identity null', 'timestamp', 'device_signals', 'ip_address at its limit', 'sent_at']) {
      expect(fastEventInput(bodies.find(([n]) => n === name)![1]), name).toBeDefined();
    }
  });
});
