import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fileConfigSchema } from '../config/file.js';

// The README promises a complete, working config example: keep it valid.
describe('the README config example', () => {
  it('is accepted by the config schema, with three behaviors, lists and rules', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const block = /Config file \(`VIGIL_CONFIG`[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const config = fileConfigSchema.parse(parse(block!));
    expect(config.behaviors.map((b) => b.name)).toEqual(['tx_count_1h', 'tx_amount_24h', 'ips_per_device_10m']);
    expect(config.intel.vpn_ranges).toHaveLength(2);
    expect(config.score.rules.map((r) => r.name)).toEqual(['many_transfers', 'big_transfer_from_disposable']);
  });
});
