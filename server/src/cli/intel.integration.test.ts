import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../test-support/cli.js';

// A local stand-in for the public list servers: no test needs the network.
describe('vigil intel update', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    assertBuilt();
    server = createServer((req, res) => {
      const bodies: Record<string, [number, string]> = {
        '/tor': [200, '192.0.2.10\n192.0.2.11\n'],
        '/vpn4': [200, '198.51.100.0/24\n'],
        '/vpn6': [200, '2001:db8:100::/48\n'],
        '/empty': [200, '<html>not a list</html>\n'],
      };
      const [status, body] = bodies[req.url ?? ''] ?? [404, 'missing'];
      res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('downloads each list into its configured path and keeps the old file when a source is bad', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-intel-cli-'));
    writeFileSync(join(dir, 'proxies.txt'), '203.0.113.7:8080\n');
    const config = join(dir, 'vigil.json');
    writeFileSync(
      config,
      JSON.stringify({
        intel: {
          tor_exit_list: 'tor.txt',
          vpn_ranges: 'vpn.txt',
          proxy_list: 'proxies.txt',
          sources: { tor_exit_list: `${base}/tor`, vpn_ranges: [`${base}/vpn4`, `${base}/vpn6`], proxy_list: `${base}/empty` },
        },
      }),
    );
    const result = await runCli(['intel', 'update'], { VIGIL_CONFIG: config });
    expect(result.stdout).toContain(`tor_exit_list: 2 entries (0 invalid lines) → ${join(dir, 'tor.txt')}`);
    expect(result.stdout).toContain('vpn_ranges: 2 entries');
    expect(result.stdout).toMatch(/proxy_list: not updated: no valid entry/);
    expect(result.code).toBe(1);
    expect(readFileSync(join(dir, 'tor.txt'), 'utf8')).toBe('192.0.2.10\n192.0.2.11\n');
    expect(readFileSync(join(dir, 'vpn.txt'), 'utf8')).toContain('2001:db8:100::/48');
    expect(readFileSync(join(dir, 'proxies.txt'), 'utf8')).toBe('203.0.113.7:8080\n');

    const only = await runCli(['intel', 'update', '--only', 'tor_exit_list'], { VIGIL_CONFIG: config });
    expect(only.code).toBe(0);
    expect(only.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('explains its usage', async () => {
    const result = await runCli(['intel'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('vigil intel update');
  });
});
