import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { loadConfig } from './load.js';

const file = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'vigil-config-')), name);
  writeFileSync(path, text);
  return path;
};

describe('loadConfig', () => {
  it('fills every default', () => {
    const { env, tagWeights, file: f } = loadConfig({});
    expect(env).toMatchObject({ PORT: 8080, HOST: '127.0.0.1', VIGIL_DATA_DIR: './.vigil/data', VIGIL_TRUSTED_PROXIES: [] });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(tagWeights.tor).toBe(0.9);
    expect(f.score.block_threshold).toBe(0.8);
  });

  it('reads YAML and JSON config files', () => {
    const yaml = file('vigil.yaml', 'score:\n  weights:\n    vpn: 0.6\n');
    expect(loadConfig({ VIGIL_CONFIG: yaml }).tagWeights.vpn).toBe(0.6);
    const json = file('vigil.json', JSON.stringify({ score: { weights: { proxy: 0.3 } } }));
    expect(loadConfig({ VIGIL_CONFIG: json }).tagWeights.proxy).toBe(0.3);
  });

  it('refuses what is wrong, naming it', () => {
    expect(() => loadConfig({ PORT: '99999' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ VIGIL_CONFIG: '/nonexistent/vigil.yaml' })).toThrow(ConfigError);
    expect(() => loadConfig({ VIGIL_CONFIG: file('bad.yaml', 'scroe: {}\n') })).toThrow(/scroe|Unrecognized/);
    expect(() => loadConfig({ VIGIL_CONFIG: file('w.yaml', 'score:\n  weights:\n    vpn: 2\n') })).toThrow(/vpn/);
    // A replica of what? The embedded database has none.
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://replica/vigil' })).toThrow(/DATABASE_REPLICA_URL needs DATABASE_URL/);
  });

  it('keeps the promise that one Critical tag blocks', () => {
    expect(() => loadConfig({ VIGIL_CONFIG: file('c.yaml', 'score:\n  weights:\n    tor: 0.5\n') })).toThrow(/block_threshold/);
  });
});
