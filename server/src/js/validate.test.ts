import { describe, expect, it } from 'vitest';
import { components, WINDOWS_CHROME } from '../handprint/match/fixtures.js';
import { parseCollectRequest, parseEventsRequest } from './validate.js';

const collectBody = (over: Record<string, unknown> = {}) => ({
  version: 1,
  device_id: 'web_abcdefghijklmnopqrstuvwxyz',
  components: components(WINDOWS_CHROME),
  device_signals: { version: 1, platform: 'web', automation: { webdriver: false } },
  library: { name: '@vigil/browser', version: '0.1.0' },
  ...over,
});

describe('POST /js/collect body', () => {
  it('accepts what the library sends', () => {
    const r = parseCollectRequest(collectBody({ identity: 'user-1' }));
    expect(r).toMatchObject({ ok: true, value: { version: 1, identity: 'user-1', library: { name: '@vigil/browser' } } });
  });

  it.each<[string, unknown, string]>([
    ['not an object', [], ''],
    ['wrong version', collectBody({ version: 2 }), 'version'],
    ['missing device_id', collectBody({ device_id: undefined }), 'device_id'],
    ['odd device_id', collectBody({ device_id: 'a b' }), 'device_id'],
    ['long identity', collectBody({ identity: 'x'.repeat(257) }), 'identity'],
    ['components not an object', collectBody({ components: [] }), 'components'],
    ['component neither value nor error', collectBody({ components: { canvas: { foo: 1 } } }), 'components.canvas'],
    ['component name', collectBody({ components: { 'Bad-Name': { value: 1 } } }), 'components.Bad-Name'],
    ['huge component', collectBody({ components: { fonts: { value: 'x'.repeat(5000) } } }), 'components.fonts.value'],
    ['bad ms', collectBody({ components: { fonts: { value: 1, ms: -1 } } }), 'components.fonts.ms'],
    ['too many components', collectBody({ components: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`c${i}`, { value: i }])) }), 'components'],
    ['device_signals not an object', collectBody({ device_signals: 'x' }), 'device_signals'],
  ])('refuses %s with a field path', (_label, body, path) => {
    const r = parseCollectRequest(body);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.path)).toContain(path);
  });
});

describe('POST /js/events body', () => {
  const event = (over: Record<string, unknown> = {}) => ({ event: 'login', event_id: 'wev_1', timestamp: '2025-01-01T00:00:00.000Z', ...over });
  const body = (events: unknown, over: Record<string, unknown> = {}) => ({ version: 1, device_id: 'web_abcdefghijklmnop', events, ...over });

  it('accepts a batch and fails bad events one by one', () => {
    const r = parseEventsRequest(
      body([event(), event({ event: '' }), event({ timestamp: 'yesterday' }), event({ properties: { a: { b: { c: { d: { e: { f: 1 } } } } } } })]),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.events.map((e) => e.ok)).toEqual([true, false, false, false]);
    expect(r.value.events[1]).toMatchObject({ ok: false, errors: [{ path: 'events[1].event' }] });
    expect(r.value.events[2]).toMatchObject({ ok: false, errors: [{ path: 'events[2].timestamp' }] });
    expect(r.value.events[3]).toMatchObject({ ok: false, errors: [{ path: 'events[3].properties', message: 'at most 5 levels of nesting' }] });
  });

  it.each<[string, unknown, string]>([
    ['empty batch', body([]), 'events'],
    ['51 events', body(Array.from({ length: 51 }, () => event())), 'events'],
    ['events not an array', body({}), 'events'],
    ['bad token type', body([event()], { browser_token: 5 }), 'browser_token'],
    ['missing device', body([event()], { device_id: null }), 'device_id'],
  ])('refuses the whole request for %s', (_label, b, path) => {
    const r = parseEventsRequest(b);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.path)).toContain(path);
  });
});
