import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64url } from '../crypto.js';
import { createMemoryReplayCounter } from './replay.js';
import { signBrowserToken } from './sign.js';
import { BrowserTokenConfigError, type KeyRing } from './types.js';
import { verifyBrowserToken, verifyBrowserTokenSignature } from './verify.js';

const NOW = Date.UTC(2025, 0, 1, 12);
const K1 = { kid: 'k1', secret: '0123456789abcdef0123456789abcdef' };
const K2 = { kid: 'k2', secret: randomBytes(32) };
const ring: KeyRing = { current: K1 };
const input = { handprint_id: 'hp_abc', device_id: 'web_device1', confidence: 0.97, origin: 'https://shop.example' };
const issue = (keys: KeyRing = ring, now = NOW, ttlSeconds?: number) =>
  signBrowserToken(input, { keys, now, randomBytes, ...(ttlSeconds !== undefined ? { ttlSeconds } : {}) });

describe('browser_token signing', () => {
  it('round-trips its claims', () => {
    const { token, claims } = issue();
    expect(token).toMatch(/^vbt1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(claims).toEqual({
      v: 1,
      hp: 'hp_abc',
      dev: 'web_device1',
      conf: 0.97,
      iat: NOW / 1000,
      exp: NOW / 1000 + 600,
      jti: expect.stringMatching(/^[a-z2-7]{26}$/),
      kid: 'k1',
      org: 'https://shop.example',
    });
    expect(verifyBrowserTokenSignature(token, { keys: ring, now: NOW + 1000 })).toEqual({ ok: true, claims, uses: null });
  });

  it('gives every token its own nonce', () => {
    expect(issue().claims.jti).not.toBe(issue().claims.jti);
  });

  it('refuses short secrets, bad kids and out-of-range lifetimes as configuration errors', () => {
    expect(() => issue({ current: { kid: 'k', secret: 'short' } })).toThrow(BrowserTokenConfigError);
    expect(() => issue({ current: { kid: 'bad kid!', secret: K1.secret } })).toThrow(BrowserTokenConfigError);
    expect(() => issue(ring, NOW, 3601)).toThrow(BrowserTokenConfigError);
    expect(() => issue(ring, NOW, 0)).toThrow(BrowserTokenConfigError);
    expect(() => verifyBrowserTokenSignature('x', { keys: { current: { kid: 'k', secret: '' } }, now: NOW })).toThrow(BrowserTokenConfigError);
  });
});

describe('browser_token verification', () => {
  const verify = (token: unknown, now = NOW, keys = ring) => verifyBrowserTokenSignature(token, { keys, now });

  it('refuses forged and altered tokens', () => {
    const { token } = issue();
    const [prefix, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const altered = `${prefix}.${base64url(JSON.stringify({ ...claims, hp: 'hp_victim' }))}.${signature}`;
    expect(verify(altered)).toEqual({ ok: false, reason: 'bad_signature' });
    const flipped = `${prefix}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(verify(flipped)).toEqual({ ok: false, reason: 'bad_signature' });
    const otherSecret = issue({ current: { kid: 'k1', secret: 'ffffffffffffffffffffffffffffffff' } }).token;
    expect(verify(otherSecret)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses tokens from unknown keys and accepts rotated-out keys still on the ring', () => {
    const old = issue({ current: K2 }).token;
    expect(verify(old)).toEqual({ ok: false, reason: 'unknown_key' });
    expect(verify(old, NOW, { current: K1, previous: [K2] })).toMatchObject({ ok: true, claims: { kid: 'k2' } });
  });

  it('refuses expired and future tokens, allowing 30 s of clock skew', () => {
    const { token } = issue();
    expect(verify(token, NOW + 600_000 + 29_000)).toMatchObject({ ok: true });
    expect(verify(token, NOW + 600_000 + 30_000)).toMatchObject({ ok: false, reason: 'expired', claims: { hp: 'hp_abc' } });
    expect(verify(token, NOW - 29_000)).toMatchObject({ ok: true });
    expect(verify(token, NOW - 31_000)).toMatchObject({ ok: false, reason: 'not_yet_valid' });
  });

  it.each([
    [undefined],
    [null],
    [42],
    [''],
    ['vbt1'],
    ['vbt1.a'],
    ['vbt2.a.b'],
    ['vbt1.a.b.c'],
    ['vbt1.!!!.abc'],
    [`vbt1.${base64url('not json')}.abc`],
    [`vbt1.${base64url(JSON.stringify({ v: 2 }))}.abc`],
    ['vbt1.' + 'a'.repeat(3000) + '.b'],
  ])('refuses malformed token %#', (token) => {
    expect(verify(token)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('replay counting', () => {
  it('accepts a token up to maxUses times, then reports it replayed', async () => {
    let now = NOW;
    const replay = createMemoryReplayCounter({ now: () => now });
    const { token } = issue();
    const check = () => verifyBrowserToken(token, { keys: ring, now, replay, maxUses: 3 });
    expect(await check()).toMatchObject({ ok: true, uses: 1 });
    expect(await check()).toMatchObject({ ok: true, uses: 2 });
    expect(await check()).toMatchObject({ ok: true, uses: 3 });
    expect(await check()).toMatchObject({ ok: false, reason: 'replayed', uses: 4 });
    // A different token has its own count.
    expect(await verifyBrowserToken(issue().token, { keys: ring, now, replay, maxUses: 3 })).toMatchObject({ ok: true, uses: 1 });
    now += 3_600_000;
    expect(await check()).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('never counts forged tokens', async () => {
    const calls: string[] = [];
    const replay = { use: (jti: string) => (calls.push(jti), 1) };
    const forged = issue({ current: { kid: 'k1', secret: 'ffffffffffffffffffffffffffffffff' } }).token;
    expect(await verifyBrowserToken(forged, { keys: ring, now: NOW, replay })).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(calls).toEqual([]);
  });

  it('accepts an asynchronous counter (a database or Redis)', async () => {
    const counts = new Map<string, number>();
    const replay = { use: async (jti: string) => counts.set(jti, (counts.get(jti) ?? 0) + 1).get(jti) as number };
    const { token } = issue();
    await verifyBrowserToken(token, { keys: ring, now: NOW, replay });
    expect(await verifyBrowserToken(token, { keys: ring, now: NOW, replay })).toMatchObject({ ok: true, uses: 2 });
  });

  it('forgets expired entries and stays bounded', () => {
    let now = 0;
    const replay = createMemoryReplayCounter({ now: () => now, maxEntries: 10 });
    for (let i = 0; i < 10; i++) replay.use(`a${i}`, 1000);
    expect(replay.size()).toBe(10);
    now = 2000;
    replay.use('fresh', 5000);
    expect(replay.size()).toBe(1);
    for (let i = 0; i < 50; i++) replay.use(`b${i}`, 10_000 + i);
    expect(replay.size()).toBeLessThanOrEqual(11);
  });
});
