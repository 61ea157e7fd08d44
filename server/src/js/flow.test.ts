import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bumpChrome, components, WINDOWS_CHROME } from '../handprint/match/fixtures.js';
import { createMemoryHandprintStore } from '../handprint/match/service.js';
import { createMemoryReplayCounter } from '../handprint/token/replay.js';
import { signBrowserToken } from '../handprint/token/sign.js';
import type { KeyRing } from '../handprint/token/types.js';
import { linkBrowserToken } from '../handprint/token/backend-token.js';
import { handleCollect, type CollectDeps } from './collect.js';
import { prepareBrowserEvents } from './prepare-events.js';

const keys: KeyRing = { current: { kid: 'k1', secret: '0123456789abcdef0123456789abcdef' } };
const now = Date.UTC(2025, 0, 1);
const deps = (): CollectDeps => ({ store: createMemoryHandprintStore(), keys, salt: 'salt-salt-salt', now: () => now, randomBytes });
const body = (deviceId: string, profile = WINDOWS_CHROME) => ({ version: 1, device_id: deviceId, components: components(profile) });

describe('POST /js/collect handling', () => {
  it('answers the same handprint for a revisit with cleared storage and a newer browser, with a verifiable token', async () => {
    const d = deps();
    const first = await handleCollect({ body: body('web_first_device'), origin: 'https://shop.example' }, d);
    const again = await handleCollect({ body: body('web_second_device', { ...WINDOWS_CHROME, ua: bumpChrome(WINDOWS_CHROME.ua, 131) }) }, d);
    if (first.status !== 200 || again.status !== 200) throw new Error('expected 200');
    expect(first.body).toMatchObject({ device_id: 'web_first_device', is_new_handprint: true, handprint_id: expect.stringMatching(/^hp_/) });
    expect(again.body).toMatchObject({ device_id: 'web_second_device', is_new_handprint: false, handprint_id: first.body.handprint_id });
    expect(Date.parse(first.body.expires_at) - now).toBe(600_000);
    const link = await linkBrowserToken(again.body.browser_token, { keys, now, replay: createMemoryReplayCounter({ now: () => now }) });
    expect(link).toMatchObject({ status: 'linked', handprint_id: first.body.handprint_id, device_id: 'web_second_device', device_mismatch: false });
  });

  it('answers 400 with field errors for a malformed body', async () => {
    const r = await handleCollect({ body: { version: 1, device_id: 'x', components: 3 } }, deps());
    expect(r).toMatchObject({ status: 400, error: { status: 400, code: 'validation_failed', errors: [{ path: 'device_id' }, { path: 'components' }] } });
  });
});

describe('POST /js/events handling', () => {
  const token = (device = 'web_first_device', at = now) =>
    signBrowserToken({ handprint_id: 'hp_x', device_id: device, confidence: 0.9 }, { keys, now: at, randomBytes }).token;
  const events = [
    { event: 'login', event_id: 'wev_1', timestamp: '2025-01-01T00:00:00Z', properties: { plan: 'pro', ip_address: '6.6.6.6', device_id: 'spoof' } },
    { event: '', event_id: 'wev_2', timestamp: '2025-01-01T00:00:00Z' },
  ];

  it('turns browser events into POST /events bodies with server-owned magic properties', () => {
    const r = prepareBrowserEvents(
      { version: 1, device_id: 'web_first_device', browser_token: token(), events },
      { keys, now: () => now, ip: '203.0.113.9', userAgent: 'UA/1' },
    );
    if (r.status !== 200) throw new Error('expected 200');
    expect(r.token_warning).toBeNull();
    expect(r.claims).toMatchObject({ hp: 'hp_x' });
    expect(r.items[0]).toEqual({
      ok: true,
      ingest: {
        event: 'login',
        properties: {
          plan: 'pro',
          device_id: 'web_first_device',
          event_id: 'wev_1',
          timestamp: '2025-01-01T00:00:00Z',
          browser_token: expect.stringMatching(/^vbt1\./),
          ip_address: '203.0.113.9',
          user_agent: 'UA/1',
        },
      },
    });
    expect(r.items[1]).toMatchObject({ ok: false, error: { status: 400, errors: [{ path: 'events[1].event' }] } });
  });

  it('keeps the events but drops the link when the token is expired, forged or for another device', () => {
    const prep = (browser_token: string) =>
      prepareBrowserEvents({ version: 1, device_id: 'web_first_device', browser_token, events: [events[0]] }, { keys, now: () => now });
    const expired = prep(token('web_first_device', now - 3_600_000));
    const forged = prep(`${token().slice(0, -3)}AAA`);
    const other = prep(token('web_other_device'));
    for (const [r, warning] of [
      [expired, 'browser_token_expired'],
      [forged, 'browser_token_bad_signature'],
      [other, 'browser_token_device_mismatch'],
    ] as const) {
      if (r.status !== 200) throw new Error('expected 200');
      expect(r.token_warning).toBe(warning);
      expect(r.claims).toBeNull();
      expect(r.items[0]).toMatchObject({ ok: true, ingest: { properties: { device_id: 'web_first_device' } } });
      expect((r.items[0] as { ingest: { properties: Record<string, unknown> } }).ingest.properties.browser_token).toBeUndefined();
    }
  });
});

describe("browser_token on the backend's POST /events", () => {
  it('links, refuses with a warning, and counts replays', async () => {
    const replay = createMemoryReplayCounter({ now: () => now });
    const { token } = signBrowserToken({ handprint_id: 'hp_x', device_id: 'web_d1', confidence: 0.8 }, { keys, now, randomBytes });
    const opts = { keys, now, replay, maxUses: 2 };
    expect(await linkBrowserToken(undefined, opts)).toEqual({ status: 'absent' });
    expect(await linkBrowserToken(token, { ...opts, callerDeviceId: 'web_other' })).toMatchObject({ status: 'linked', uses: 1, device_mismatch: true });
    expect(await linkBrowserToken(token, opts)).toMatchObject({ status: 'linked', uses: 2 });
    expect(await linkBrowserToken(token, opts)).toEqual({
      status: 'refused',
      reason: 'replayed',
      warning: { code: 'browser_token_replayed', message: 'browser_token was presented more times than allowed' },
    });
    expect(await linkBrowserToken('vbt1.forged.token', opts)).toMatchObject({ status: 'refused', warning: { code: 'browser_token_malformed' } });
  });
});
