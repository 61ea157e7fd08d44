import { describe, expect, it } from 'vitest';
import { fieldsValidationError, toProblem, type FieldError } from '../errors.js';
import { parseCollectRequest, parseEventsRequest } from './schemas.js';

// What a page is answered for each body: the problem (paths, messages, order, detail) or the value the routes go on
// with. The snapshot was written by the hand validator the zod schemas replaced; a change to it changes what pages
// and their developers see.

const problem = (errors: FieldError[]) => toProblem(fieldsValidationError(errors));

const collectAnswer = (body: unknown) => {
  const parsed = parseCollectRequest(body);
  return parsed.ok ? { accepted: parsed.value } : { refused: problem(parsed.errors) };
};

const eventsAnswer = (body: unknown) => {
  const parsed = parseEventsRequest(body);
  if (!parsed.ok) return { refused: problem(parsed.errors) };
  const { events, ...request } = parsed.value;
  return { request, events: events.map((e) => (e.ok ? { accepted: e.event } : { refused: problem(e.errors) })) };
};

const deep = (levels: number): unknown => (levels <= 1 ? 1 : { a: deep(levels - 1) });
const many = (n: number, item: (i: number) => unknown) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, item(i)]));

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
const oneEvent = (over: Record<string, unknown>) => events({ events: [event(over)] });

describe('POST /js/collect: the answer for each body', () => {
  it.each<[string, unknown]>([
    ['what the library sends', collect()],
    ['an identity, no signals, no library', collect({ identity: 'ana', device_signals: null, library: undefined })],
    ['a null identity and extra fields', collect({ identity: null, extra: 1 })],
    ['a library that is not an object', collect({ library: 5 })],
    ['a long library name and version', collect({ library: { name: 'n'.repeat(100), version: 'v'.repeat(50) } })],
    ['a library with a number version', collect({ library: { name: 'x', version: 1 } })],
    ['a sent_at that is not a date', collect({ sent_at: 'yesterday' })],
    ['a component with both value and error', collect({ components: { fonts: { value: 1, error: 'x' } } })],
    ['a component value of null', collect({ components: { fonts: { value: null } } })],
    ['64 components', collect({ components: many(64, (i) => ({ value: i })) })],
    ['a component value 16 levels deep', collect({ components: { fonts: { value: deep(16) } } })],
    ['device_signals 4 levels deep', collect({ device_signals: { a: { b: { c: 1 } } } })],
    ['not an object', []],
    ['a string', 'x'],
    ['null', null],
    ['another version', collect({ version: 2 })],
    ['no version', collect({ version: undefined })],
    ['no device_id', collect({ device_id: undefined })],
    ['a short device_id', collect({ device_id: 'abc' })],
    ['a device_id with spaces', collect({ device_id: 'a b c d e f g h' })],
    ['a 129-character device_id', collect({ device_id: 'x'.repeat(129) })],
    ['a long identity', collect({ identity: 'x'.repeat(257) })],
    ['a number identity', collect({ identity: 5 })],
    ['components as an array', collect({ components: [] })],
    ['no components', collect({ components: undefined })],
    ['null components', collect({ components: null })],
    ['a component that is not an object', collect({ components: { fonts: 1 } })],
    ['a component that is an array', collect({ components: { fonts: [] } })],
    ['a component with neither value nor error', collect({ components: { fonts: { foo: 1 } } })],
    ['a component name in capitals', collect({ components: { 'Bad-Name': { value: 1 } } })],
    ['a bad component name with a bad value', collect({ components: { Fonts: { foo: 1 } } })],
    ['a 65-character component name', collect({ components: { [`c${'x'.repeat(64)}`]: { value: 1 } } })],
    ['an empty component name', collect({ components: { '': { value: 1 } } })],
    ['a huge component value', collect({ components: { fonts: { value: 'x'.repeat(5000) } } })],
    ['a component value 17 levels deep', collect({ components: { fonts: { value: deep(17) } } })],
    ['a long component error', collect({ components: { fonts: { error: 'x'.repeat(501) } } })],
    ['a number component error', collect({ components: { fonts: { error: 5 } } })],
    ['a negative ms', collect({ components: { fonts: { value: 1, ms: -1 } } })],
    ['a string ms', collect({ components: { fonts: { value: 1, ms: 'x' } } })],
    ['a null ms', collect({ components: { fonts: { error: 'x', ms: null } } })],
    ['a bad value and a bad ms', collect({ components: { fonts: { value: 'x'.repeat(5000), ms: -1 } } })],
    ['65 components', collect({ components: many(65, (i) => ({ value: i })) })],
    ['65 components, the first and the last bad', collect({ components: many(65, (i) => (i === 0 || i === 64 ? { foo: i } : { value: i })) })],
    ['device_signals as a string', collect({ device_signals: 'x' })],
    ['device_signals as an array', collect({ device_signals: [] })],
    ['device_signals 5 levels deep', collect({ device_signals: { a: { b: { c: { d: 1 } } } } })],
    ['device_signals over 8192 characters', collect({ device_signals: { a: 'x'.repeat(8200) } })],
    [
      'everything wrong at once',
      { version: 3, device_id: 5, identity: [], components: { Fonts: 1, ok: { foo: 1 }, b: { value: 1, ms: -2 } }, device_signals: 7 },
    ],
    ['seven errors (the detail names five)', collect({ components: many(7, () => ({ foo: 1 })) })],
  ])('%s', (_label, body) => {
    expect(collectAnswer(body)).toMatchSnapshot();
  });
});

describe('POST /js/events: the answer for each body', () => {
  it.each<[string, unknown]>([
    ['what the library sends', events()],
    ['a browser_token, sent_at and an identity', events({ browser_token: 'bt1.x', sent_at: '2026-01-01T10:00:05Z', events: [event({ identity: 'ana' })] })],
    ['a null browser_token and identity, no properties', events({ browser_token: null, events: [event({ identity: null, properties: undefined })] })],
    ['a long library name', events({ library: { name: 'n'.repeat(100), version: '1' } })],
    ['a library that is not an object', events({ library: 'x' })],
    ['50 events', events({ events: Array.from({ length: 50 }, (_, i) => event({ event_id: `e-${i}` })) })],
    ['an offset timestamp', oneEvent({ timestamp: '2026-01-01T10:00:00+02:00' })],
    ['a timestamp without seconds', oneEvent({ timestamp: '2026-01-01T10:00Z' })],
    ['a timestamp with a colon-less offset', oneEvent({ timestamp: '2026-01-01T10:00:00+0200' })],
    ['a timestamp of 30 February', oneEvent({ timestamp: '2026-02-30T10:00:00Z' })],
    ['a sent_at without seconds', events({ sent_at: '2026-01-01T10:00Z' })],
    ['properties 5 levels deep and 200 keys', oneEvent({ properties: { ...many(196, () => 1), a: { b: { c: { d: 1 } } } } })],
    ['extra fields', events({ extra: 1, events: [event({ extra: 2 })] })],
    ['not an object', 'x'],
    ['null', null],
    ['an array', []],
    ['another version', events({ version: 0 })],
    ['a bad device_id', events({ device_id: '!' })],
    ['a number browser_token', events({ browser_token: 5 })],
    ['a long browser_token', events({ browser_token: 'x'.repeat(2049) })],
    ['a sent_at that is not a date', events({ sent_at: 'yesterday' })],
    ['a number sent_at', events({ sent_at: 5 })],
    ['a null sent_at', events({ sent_at: null })],
    ['no events', events({ events: [] })],
    ['51 events', events({ events: Array.from({ length: 51 }, (_, i) => event({ event_id: `e-${i}` })) })],
    ['events as an object', events({ events: {} })],
    ['events missing', events({ events: undefined })],
    ['everything wrong at once', { version: 2, device_id: null, browser_token: [], sent_at: 'x', events: 'x' }],
    [
      'bad events among good ones',
      events({
        events: [
          event(),
          5,
          null,
          [],
          event({ event: '' }),
          event({ event: 'x'.repeat(201) }),
          event({ event: 5 }),
          event({ event: undefined }),
          event({ identity: 'x'.repeat(257) }),
          event({ identity: 5 }),
          event({ properties: [] }),
          event({ properties: 'x' }),
          event({ properties: null }),
          event({ properties: { a: { b: { c: { d: { e: { f: 1 } } } } } } }),
          event({ properties: { a: [[[[1]]]] } }),
          event({ properties: many(201, () => 1) }),
          event({ properties: { ...many(201, () => 1), a: { b: { c: { d: { e: 1 } } } } } }),
          event({ event_id: '' }),
          event({ event_id: 'x'.repeat(129) }),
          event({ event_id: undefined }),
          event({ event_id: 5 }),
          event({ timestamp: 'yesterday' }),
          event({ timestamp: undefined }),
          event({ timestamp: '2026-01-01T10:00:00' }),
          event({ timestamp: '2026-01-01T10:00:00.1234567891Z' }),
          event({ timestamp: '2026-13-01T10:00:00Z' }),
          event({ timestamp: 1767261600000 }),
          { event: '', identity: 5, properties: 1, event_id: null, timestamp: 'x' },
        ],
      }),
    ],
  ])('%s', (_label, body) => {
    expect(eventsAnswer(body)).toMatchSnapshot();
  });
});
