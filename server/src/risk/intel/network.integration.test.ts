import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfig } from '../../behaviors/test-config.js';
import { loadConfig } from '../../config/load.js';
import { testDrivers } from '../../test-support/databases.js';
import { startTestVigil, type TestVigil } from '../../test-support/harness.js';

const fixtures = fileURLToPath(new URL('../../../test-fixtures/intel/', import.meta.url));

describe.each(testDrivers())('network intelligence on %s', (driver) => {
  let server: TestVigil;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-intel-'));
    copyFileSync(join(fixtures, 'proxies.txt'), join(dir, 'proxies.txt'));
    const config = {
      intel: {
        tor_exit_list: [join(fixtures, 'tor-bulk-exit-list.txt'), join(fixtures, 'tor-exit-addresses.txt')],
        vpn_ranges: join(fixtures, 'vpn-ranges.txt'),
        proxy_list: 'proxies.txt', // relative to the config file
        reload_interval_seconds: 0.1,
      },
    };
    const path = join(dir, 'vigil.json');
    writeFileSync(path, JSON.stringify(config));
    server = await startTestVigil(driver, { VIGIL_CONFIG: path, VIGIL_TRUSTED_PROXIES: '127.0.0.1' });
  });
  afterAll(async () => server?.close());

  const tagsFor = async (ip: string, headers?: Record<string, string>) => {
    const res = await server.post('/events', { event: 'login', properties: { ip_address: ip } }, { headers });
    expect(res.status).toBe(200);
    return res.body.current_tags as string[];
  };

  it('tags listed addresses tor, vpn and proxy, IPv4 and IPv6, with Critical tor at the block threshold', async () => {
    expect(await tagsFor('192.0.2.10')).toContain('tor');
    expect(await tagsFor('192.0.2.21')).toContain('tor');
    expect(await tagsFor('2001:db8:7::1')).toContain('tor');
    expect(await tagsFor('198.51.100.9')).toContain('vpn');
    expect(await tagsFor('2001:db8:100::42')).toContain('vpn');
    expect(await tagsFor('203.0.113.7')).toContain('proxy');
    const clean = await tagsFor('192.0.2.99');
    expect(clean.filter((t) => ['tor', 'vpn', 'proxy'].includes(t))).toEqual([]);
    const res = await server.post('/events', { event: 'login', properties: { ip_address: '192.0.2.11' } });
    expect(res.body.risk_score).toBeGreaterThanOrEqual(0.8);
  });

  it('normalises IPv4-mapped IPv6 before the lookup', async () => {
    expect(await tagsFor('::ffff:192.0.2.10')).toContain('tor');
  });

  it('reports an invalid ip_address as a warning, not an error', async () => {
    const res = await server.post('/events', { event: 'login', properties: { ip_address: '999.1.1.1' } });
    expect(res.status).toBe(200);
    expect(res.body.warnings.map((w: { code: string }) => w.code)).toContain('invalid_ip_address');
  });

  it('reloads a list when its file changes, without a restart', async () => {
    expect(await tagsFor('203.0.113.66')).not.toContain('proxy');
    writeFileSync(join(dir, 'proxies.txt'), '203.0.113.66:8080\n');
    let tags: string[] = [];
    for (let i = 0; i < 100 && !tags.includes('proxy'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      tags = await tagsFor('203.0.113.66');
    }
    expect(tags).toContain('proxy');
    expect(await tagsFor('203.0.113.7')).not.toContain('proxy'); // replaced, not appended
  });

  it('tags proxy from Via / Forwarded beyond the trusted proxies, for events whose IP is the connection', async () => {
    const direct = (headers: Record<string, string>) => server.post('/events', { event: 'login' }, { headers }).then((r) => r.body.current_tags as string[]);
    expect(await direct({})).not.toContain('proxy');
    // 127.0.0.1 (the test client) is trusted: its own Forwarded hop is fine…
    expect(await direct({ forwarded: 'for=192.0.2.50', via: '1.1 lb' })).not.toContain('proxy');
    // …but a client that itself forwarded for someone, or an extra Via hop, is a proxy.
    expect(await direct({ forwarded: 'for=192.0.2.51, for=192.0.2.50' })).toContain('proxy');
    expect(await direct({ 'x-forwarded-for': '192.0.2.51, 192.0.2.50' })).toContain('proxy');
    expect(await direct({ via: '1.1 squid, 1.1 lb' })).toContain('proxy');
    // A backend passing the user's ip_address: its own request headers say nothing about the user.
    const res = await server.post('/events', { event: 'login', properties: { ip_address: '192.0.2.99' } }, { headers: { via: '1.1 a, 1.1 b' } });
    expect(res.body.current_tags).not.toContain('proxy');
  });
});

describe('intel config', () => {
  it('refuses to start with a list that cannot be read', async () => {
    const config = loadConfig({ VIGIL_CONFIG: writeConfig({ intel: { tor_exit_list: '/nonexistent/tor.txt' } }), VIGIL_LOG_LEVEL: 'silent' });
    const { createNetworkStage } = await import('./stage.js');
    expect(() => createNetworkStage({ intel: config.file.intel, configPath: config.env.VIGIL_CONFIG, trustedProxies: [] })).toThrow(
      /intel.tor_exit_list: ENOENT/,
    );
  });

  it('refuses unknown keys and bad intervals', () => {
    expect(() => loadConfig({ VIGIL_CONFIG: writeConfig({ intel: { tor_list: 'x' } }) })).toThrow(/tor_list/);
    expect(() => loadConfig({ VIGIL_CONFIG: writeConfig({ intel: { reload_interval_seconds: 0 } }) })).toThrow(/reload_interval_seconds/);
  });
});
