import { describe, expect, it } from 'vitest';
import { bumpChrome, components, WINDOWS_CHROME as BASE, type Profile } from './fixtures.js';
import { candidateKeys, handprintIdFor } from './keys.js';
import { matchHandprint, mergeFeatures, type StoredHandprint } from './match.js';
import { normalizeComponents } from './normalize.js';
import { createMemoryHandprintStore, resolveHandprint } from './service.js';

const features = (p: Partial<Profile>, fail: string[] = []) => normalizeComponents(components({ ...BASE, ...p }, fail));
const SALT = 'test-salt-0123456789';

describe('handprint ids and candidate keys', () => {
  it('derives a stable, salted id from the identity features only', () => {
    const id = handprintIdFor(features({}), SALT);
    expect(id).toMatch(/^hp_[a-z2-7]{26}$/);
    expect(handprintIdFor(features({ inner: [100, 100] }), SALT)).toBe(id);
    expect(handprintIdFor(features({ hwc: 4 }), SALT)).not.toBe(id);
    expect(handprintIdFor(features({}), 'another-salt')).not.toBe(id);
  });

  it('shares a key with the stored profile when WebGL failed or the browser updated', () => {
    const stored = new Set(candidateKeys(features({}), SALT));
    expect(candidateKeys(features({}, ['webgl', 'platform']), SALT).some((k) => stored.has(k))).toBe(true);
    expect(candidateKeys(features({ ua: bumpChrome(BASE.ua, 131), canvasText: 'x' }), SALT).some((k) => stored.has(k))).toBe(true);
    expect(candidateKeys(features({}, ['languages', 'pixel_ratio']), SALT).some((k) => stored.has(k))).toBe(true);
    expect(candidateKeys(features({}), SALT)).toHaveLength(3);
    expect(candidateKeys({}, SALT)).toEqual([]);
  });
});

describe('matchHandprint', () => {
  const mine: StoredHandprint = { handprint_id: 'hp_mine', features: features({}), device_ids: ['web_a'], last_seen: 1 };
  const other: StoredHandprint = { handprint_id: 'hp_other', features: features({ hwc: 4 }), last_seen: 2 };

  it('returns the stored handprint the reading belongs to, with the profile updated', () => {
    const r = matchHandprint(features({ ua: bumpChrome(BASE.ua, 131), inner: [900, 700] }), [other, mine], { salt: SALT });
    expect(r).toMatchObject({ handprint_id: 'hp_mine', is_new: false, comparison: { same: true } });
    expect(r.features).toMatchObject({ browser_major: 131, window: '900x700' });
    expect(r.keys).toEqual(candidateKeys(r.features, SALT));
  });

  it('mints a new handprint when no candidate is the same device', () => {
    const r = matchHandprint(features({ hwc: 16 }), [mine, other], { salt: SALT });
    expect(r).toMatchObject({ is_new: true, comparison: null, handprint_id: handprintIdFor(features({ hwc: 16 }), SALT) });
    expect(r.confidence).toBeGreaterThan(0.9);
  });

  it('never reuses a derived id that now belongs to a drifted, different profile', () => {
    const id = handprintIdFor(features({ hwc: 16 }), SALT);
    const squatter: StoredHandprint = { handprint_id: id, features: features({ hwc: 2 }) };
    const r = matchHandprint(features({ hwc: 16 }), [squatter], { salt: SALT });
    expect(r.is_new).toBe(true);
    expect(r.handprint_id).not.toBe(id);
    expect(r.handprint_id).toMatch(/^hp_[a-z2-7]{26}$/);
  });

  it('prefers the candidate that has seen this device_id when several match equally', () => {
    const twin: StoredHandprint = { handprint_id: 'hp_twin', features: features({}), device_ids: ['web_b'], last_seen: 9 };
    expect(matchHandprint(features({}), [mine, twin], { deviceId: 'web_a' }).handprint_id).toBe('hp_mine');
    expect(matchHandprint(features({}), [mine, twin], { deviceId: 'web_b' }).handprint_id).toBe('hp_twin');
    expect(matchHandprint(features({}), [mine, twin], {}).handprint_id).toBe('hp_twin'); // most recent
    // device_id never overrides a veto:
    expect(matchHandprint(features({ hwc: 4 }), [mine], { deviceId: 'web_a' }).is_new).toBe(true);
  });

  it('merges readings feature by feature, keeping what a failed source could not read', () => {
    expect(mergeFeatures({ a: '1', b: '2' }, { a: '3', b: null })).toEqual({ a: '3', b: '2' });
  });
});

describe('resolveHandprint with a store', () => {
  it('links revisits and keeps strangers apart', async () => {
    const store = createMemoryHandprintStore();
    const first = await resolveHandprint(store, features({}), { now: 1, salt: SALT, deviceId: 'web_a' });
    const cleared = await resolveHandprint(store, features({}), { now: 2, salt: SALT, deviceId: 'web_new' });
    const updated = await resolveHandprint(store, features({ ua: bumpChrome(BASE.ua, 131), audio: '1.0' }), { now: 3, salt: SALT });
    const afterUpdate = await resolveHandprint(store, features({ ua: bumpChrome(BASE.ua, 131), audio: '1.0' }), { now: 4, salt: SALT });
    const stranger = await resolveHandprint(store, features({ tz: 'America/New_York' }), { now: 5, salt: SALT });
    expect(first.is_new).toBe(true);
    expect([cleared, updated, afterUpdate].map((r) => r.handprint_id)).toEqual([first.handprint_id, first.handprint_id, first.handprint_id]);
    // The stored profile followed the update, so the next visit matches without any tolerance.
    expect(afterUpdate.comparison?.tolerated).toEqual([]);
    expect(stranger.is_new).toBe(true);
    expect(store.size()).toBe(2);
  });

  it('gives two racing first visits of one browser the same handprint', async () => {
    const store = createMemoryHandprintStore();
    const [a, b] = await Promise.all([
      resolveHandprint(store, features({}), { now: 1, salt: SALT, deviceId: 'web_a' }),
      resolveHandprint(store, features({ inner: [10, 10] }), { now: 1, salt: SALT, deviceId: 'web_b' }),
    ]);
    expect(a.handprint_id).toBe(b.handprint_id);
    expect(store.size()).toBe(1);
  });
});

describe('a synthetic population', () => {
  // Deterministic pseudo-random choice so the test is reproducible.
  let seed = 7;
  const pick = <T>(xs: readonly T[]): T => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return xs[seed % xs.length] as T;
  };
  const gpus = ['Intel UHD 620', 'Intel Iris Xe', 'NVIDIA RTX 3070', 'AMD Radeon RX 6600', 'Apple M1', 'Apple M2', 'Mali-G78'].map(
    (g) => `ANGLE (${g} Direct3D11)`,
  );
  const screens: Array<[number, number]> = [
    [1920, 1080],
    [1366, 768],
    [1536, 864],
    [2560, 1440],
    [1440, 900],
    [3840, 2160],
    [390, 844],
  ];
  const dprs = [1, 1.25, 1.5, 2, 3];
  const zones = ['Europe/Berlin', 'Europe/London', 'America/New_York', 'Asia/Tokyo', 'Asia/Kolkata', 'UTC'];
  const langs = [['en-US', 'en'], ['de-DE', 'de'], ['fr-FR', 'fr'], ['en-GB', 'en'], ['ja-JP']];
  const cores = [2, 4, 8, 12, 16];

  it("keeps every device's handprint across updates, resizes, new fonts and failed sources, with no collisions", async () => {
    const store = createMemoryHandprintStore();
    const devices = new Map<string, Profile>();
    while (devices.size < 300) {
      const p: Profile = { ...BASE, gpu: pick(gpus), screen: pick(screens), dpr: pick(dprs), tz: pick(zones), langs: pick(langs), hwc: pick(cores) };
      devices.set(JSON.stringify([p.gpu, p.screen, p.dpr, p.tz, p.langs, p.hwc]), p);
    }
    const ids = new Map<string, string>();
    let now = 0;
    let n = 0;
    const deviceIds = new Map<string, string>();
    for (const [key, p] of devices) {
      deviceIds.set(key, `web_device${++n}`);
      ids.set(key, (await resolveHandprint(store, features(p), { now: ++now, salt: SALT, deviceId: deviceIds.get(key) })).handprint_id);
    }
    expect(new Set(ids.values()).size).toBe(devices.size);
    let kept = 0;
    for (const [key, p] of devices) {
      const revisits: Array<[ReturnType<typeof features>, string | null]> = [
        // Storage cleared (no known device_id) in the first three.
        [features({ ...p, ua: bumpChrome(BASE.ua, 131), canvasText: `${p.canvasText}-131` }), null],
        [features({ ...p, inner: [p.inner[0] - 200, p.inner[1] - 100] }), null],
        [features({ ...p, fonts: [...p.fonts, 'Roboto'] }), null],
        // WebGL failed: devices differing only by GPU are then told apart by the device_id.
        [features(p, ['webgl', 'audio']), deviceIds.get(key) ?? null],
      ];
      const got = [];
      for (const [r, deviceId] of revisits) got.push((await resolveHandprint(store, r, { now: ++now, salt: SALT, deviceId })).handprint_id);
      if (got.every((id) => id === ids.get(key))) kept++;
    }
    expect(kept).toBe(devices.size);
    expect(store.size()).toBe(devices.size);
  });

  it('limit: with the only distinguishing source failed and storage cleared, twins are ambiguous', async () => {
    const store = createMemoryHandprintStore();
    const a = await resolveHandprint(store, features({ gpu: 'ANGLE (Intel UHD 620)' }), { now: 1, salt: SALT });
    const b = await resolveHandprint(store, features({ gpu: 'ANGLE (NVIDIA RTX 3070)' }), { now: 2, salt: SALT });
    expect(a.handprint_id).not.toBe(b.handprint_id);
    const blind = await resolveHandprint(store, features({ gpu: 'ANGLE (Intel UHD 620)' }, ['webgl']), { now: 3, salt: SALT });
    // Both match; the most recently seen wins. Documented in SERVER_CONTRACT.md (limits).
    expect(blind.handprint_id).toBe(b.handprint_id);
    expect(blind.alternatives).toBe(1);
    expect(blind.confidence).toBeLessThanOrEqual(0.5);
  });
});
