import { describe, expect, it } from 'vitest';
import { classifyJsAuthorization, corsHeaders, isOriginAllowed } from './cors.js';

const policy = { allowedOrigins: ['https://shop.example', 'https://*.bank.example', 'http://localhost:3000'] };

describe('origin policy', () => {
  it.each([
    ['https://shop.example', true],
    ['HTTPS://SHOP.EXAMPLE', true],
    ['https://shop.example:8443', false],
    ['http://shop.example', false],
    ['https://www.bank.example', true],
    ['https://a.b.bank.example', true],
    ['https://bank.example', false],
    ['https://evilbank.example', false],
    ['http://www.bank.example', false],
    ['http://localhost:3000', true],
    ['null', false],
    ['', false],
  ])('%s → %s', (origin, allowed) => {
    expect(isOriginAllowed(origin, policy)).toBe(allowed);
  });

  it('allows any origin only when configured with *', () => {
    expect(isOriginAllowed('https://anything.example', { allowedOrigins: ['*'] })).toBe(true);
    expect(isOriginAllowed('https://anything.example', { allowedOrigins: [] })).toBe(false);
  });

  it('echoes the allowed origin with Vary, adds preflight headers, and gives nothing to others', () => {
    expect(corsHeaders('https://shop.example', policy)).toEqual({
      'access-control-allow-origin': 'https://shop.example',
      vary: 'Origin',
      'access-control-expose-headers': 'Retry-After',
    });
    expect(corsHeaders('https://shop.example', policy, true)).toMatchObject({
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'content-type, authorization',
      'access-control-max-age': '600',
    });
    expect(corsHeaders('https://evil.example', policy)).toBeNull();
    expect(corsHeaders(undefined, policy)).toBeNull();
  });
});

describe('Authorization on /js', () => {
  it('tells client keys from write keys and junk', () => {
    expect(classifyJsAuthorization(undefined)).toEqual({ kind: 'none' });
    expect(classifyJsAuthorization('Bearer vigil_ck_abc')).toEqual({ kind: 'client_key', key: 'vigil_ck_abc' });
    expect(classifyJsAuthorization('bearer  vigil_ck_abc ')).toEqual({ kind: 'client_key', key: 'vigil_ck_abc' });
    expect(classifyJsAuthorization('Bearer vigil_wk_abc')).toEqual({ kind: 'write_key' });
    expect(classifyJsAuthorization('Basic dXNlcg==')).toEqual({ kind: 'malformed' });
    expect(classifyJsAuthorization('Bearer something')).toEqual({ kind: 'malformed' });
  });
});
