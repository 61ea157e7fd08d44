import { describe, expect, it } from 'vitest';
import { parseCollectRequest, parseEventsRequest } from '../../js/validate.js';
import { collectRequestSchema, eventsRequestSchema } from './schemas.js';

// The routes validate with the browser kit; /openapi.json shows these zod schemas. They must give the same verdicts.

const collect = (over: Record<string, unknown> = {}) => ({
  version: 1,
  device_id: 'web_abcdefghijklmnop',
  components: { fonts: { value: ['Arial'], ms: 3 }, canvas: { error: 'blocked' } },
  device_signals: { automation: { webdriver: false } },
  library: { name: '@vigil/browser', version: '0.1.0' },
  ...over,
});

const event = (over: Record<string, unknown> = {}) => ({
  event: 'page_view',
  event_id: 'e-1',
  timestamp: '2026-01-01T10:00:00.123Z',
  properties: { path: '/' },
  ...over,
});
const events = (over: Record<string, unknown> = {}) => ({ version: 1, device_id: 'web_abcdefghijklmnop', events: [event()], ...over });

/** The kit answers a bad event on its own (400 in its result); the document describes a request whose events all pass. */
const kitAcceptsEvents = (body: unknown) => {
  const parsed = parseEventsRequest(body);
  return parsed.ok && parsed.value.events.every((e) => e.ok);
};

describe('POST /js/collect: the documented schema and the parser agree', () => {
  it.each<[string, unknown]>([
    ['what the library sends', collect()],
    ['an identity', collect({ identity: 'ana' })],
    ['a null identity and no signals', collect({ identity: null, device_signals: null })],
    ['64 components', collect({ components: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`c${i}`, { value: i }])) })],
  ])('both accept %s', (_label, body) => {
    expect(parseCollectRequest(body).ok).toBe(true);
    expect(collectRequestSchema.safeParse(body).success).toBe(true);
  });

  it.each<[string, unknown]>([
    ['not an object', []],
    ['another version', collect({ version: 2 })],
    ['no device_id', collect({ device_id: undefined })],
    ['a short device_id', collect({ device_id: 'abc' })],
    ['a device_id with spaces', collect({ device_id: 'a b c d e f g h' })],
    ['a long identity', collect({ identity: 'x'.repeat(257) })],
    ['components as an array', collect({ components: [] })],
    ['a component name in capitals', collect({ components: { Fonts: { value: 1 } } })],
    ['a component with neither value nor error', collect({ components: { fonts: { foo: 1 } } })],
    ['a long component error', collect({ components: { fonts: { error: 'x'.repeat(501) } } })],
    ['a negative ms', collect({ components: { fonts: { value: 1, ms: -1 } } })],
    ['65 components', collect({ components: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`c${i}`, { value: i }])) })],
    ['device_signals as a string', collect({ device_signals: 'x' })],
  ])('both refuse %s', (_label, body) => {
    expect(parseCollectRequest(body).ok).toBe(false);
    expect(collectRequestSchema.safeParse(body).success).toBe(false);
  });
});

describe('POST /js/events: the documented schema and the parser agree', () => {
  it.each<[string, unknown]>([
    ['what the library sends', events()],
    ['a browser_token and an identity', events({ browser_token: 'bt1.x', events: [event({ identity: 'ana' })] })],
    ['50 events', events({ events: Array.from({ length: 50 }, (_, i) => event({ event_id: `e-${i}` })) })],
    ['an offset timestamp', events({ events: [event({ timestamp: '2026-01-01T10:00:00+02:00' })] })],
  ])('both accept %s', (_label, body) => {
    expect(kitAcceptsEvents(body)).toBe(true);
    expect(eventsRequestSchema.safeParse(body).success).toBe(true);
  });

  it.each<[string, unknown]>([
    ['not an object', 'x'],
    ['another version', events({ version: 0 })],
    ['a bad device_id', events({ device_id: '!' })],
    ['no events', events({ events: [] })],
    ['51 events', events({ events: Array.from({ length: 51 }, (_, i) => event({ event_id: `e-${i}` })) })],
    ['a long browser_token', events({ browser_token: 'x'.repeat(2049) })],
    ['an empty event name', events({ events: [event({ event: '' })] })],
    ['a long event_id', events({ events: [event({ event_id: 'x'.repeat(129) })] })],
    ['a timestamp without offset', events({ events: [event({ timestamp: '2026-01-01T10:00:00' })] })],
    ['properties as an array', events({ events: [event({ properties: [] })] })],
  ])('both refuse %s', (_label, body) => {
    expect(kitAcceptsEvents(body)).toBe(false);
    expect(eventsRequestSchema.safeParse(body).success).toBe(false);
  });
});
