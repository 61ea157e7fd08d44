import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { loadConfig } from '../config/load.js';

const LONG = 'a-secret-that-is-at-least-32-bytes-long';

describe('browser_token key configuration (VIGIL_JS_TOKEN_SECRETS)', () => {
  it('reads kid:secret pairs in order; the first one signs', () => {
    const env = loadConfig({ VIGIL_JS_TOKEN_SECRETS: `new:${LONG}x, old:${LONG}` }).env;
    expect(env.VIGIL_JS_TOKEN_SECRETS).toEqual([
      { kid: 'new', secret: `${LONG}x` },
      { kid: 'old', secret: LONG },
    ]);
  });

  it('keeps colons inside a secret', () => {
    expect(loadConfig({ VIGIL_JS_TOKEN_SECRETS: `k1:${LONG}:with:colons` }).env.VIGIL_JS_TOKEN_SECRETS).toEqual([{ kid: 'k1', secret: `${LONG}:with:colons` }]);
  });

  it.each([
    ['a secret shorter than 32 bytes', 'k1:too-short', /at least 32 bytes/],
    ['a missing kid', `:${LONG}`, /kid/],
    ['a kid with spaces', `my kid:${LONG}`, /kid/],
    ['a repeated kid', `k1:${LONG},k1:${LONG}x`, /unique/],
    ['nothing', ' , ', /at least one/],
  ])('refuses %s at start, without echoing the secret', (_what, value, message) => {
    expect(() => loadConfig({ VIGIL_JS_TOKEN_SECRETS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ VIGIL_JS_TOKEN_SECRETS: value })).toThrow(message);
    try {
      loadConfig({ VIGIL_JS_TOKEN_SECRETS: value });
    } catch (error) {
      expect((error as Error).message).not.toContain('too-short');
    }
  });

  it('defaults the other /js settings', () => {
    const env = loadConfig({}).env;
    expect(env).toMatchObject({
      VIGIL_JS_ALLOWED_ORIGINS: [],
      VIGIL_JS_TOKEN_TTL_SECONDS: 600,
      VIGIL_JS_TOKEN_MAX_USES: 5,
      VIGIL_JS_COLLECT_RPS: 1,
      VIGIL_JS_EVENTS_RPS: 10,
    });
    expect(env.VIGIL_JS_TOKEN_SECRETS).toBeUndefined();
    expect(env.VIGIL_HANDPRINT_SALT).toBeUndefined();
  });
});
