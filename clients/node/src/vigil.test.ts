import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VigilError } from './core/errors.js';
import { VERSION } from './version.js';
import { vigil } from './vigil.js';
import { FakeTransport, response, insightsBody } from '../test/support/fake-transport.js';

describe('vigil(url, options)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('takes the write key from VIGIL_WRITE_KEY when not given', async () => {
    vi.stubEnv('VIGIL_WRITE_KEY', 'vigil_wk_fromenv');
    const transport = new FakeTransport().reply(response(200, insightsBody()));
    await vigil('http://vigil.test/', { transport }).trackAsync('login');
    expect(transport.requests[0]!.headers.authorization).toBe('Bearer vigil_wk_fromenv');
    expect(transport.requests[0]!.url).toBe('http://vigil.test/events');
  });

  it('keeps a path prefix of the service address', async () => {
    const transport = new FakeTransport().reply(response(200, insightsBody()));
    await vigil('https://gw.example/vigil/', { writeKey: 'k', transport }).trackAsync('login');
    expect(transport.requests[0]!.url).toBe('https://gw.example/vigil/events');
  });

  it('identifies itself in User-Agent', async () => {
    const transport = new FakeTransport().reply(response(200, insightsBody()));
    await vigil('http://vigil.test', { writeKey: 'k', transport }).trackAsync('login');
    expect(transport.requests[0]!.headers['user-agent']).toBe(`vigil-node/${VERSION} node/${process.version}`);
  });

  it('throws a config error at startup, and only then, for a missing key, a bad URL or a bad proxy', () => {
    vi.stubEnv('VIGIL_WRITE_KEY', '');
    expect(() => vigil('http://vigil.test')).toThrow(/write key missing/);
    expect(() => vigil('not a url', { writeKey: 'k' })).toThrow(VigilError);
    expect(() => vigil('ftp://vigil.test', { writeKey: 'k' })).toThrow(/http or https/);
    expect(() => vigil('http://vigil.test', { writeKey: 'k', trustedProxies: ['nope'] })).toThrow(/trustedProxies/);
    try {
      vigil('http://vigil.test');
    } catch (error) {
      expect((error as VigilError).code).toBe('config');
    }
  });

  it('VERSION matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
