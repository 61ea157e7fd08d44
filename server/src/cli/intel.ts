import { renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadConfig } from '../config/load.js';
import { DEFAULT_SOURCES, type IntelListName } from '../risk/intel/config.js';
import { PARSERS, resolveListPaths } from '../risk/intel/lists.js';
import { UsageError, type ParsedArgs } from './args.js';
import { lines, type CliIo } from './io.js';

const NAMES: IntelListName[] = ['tor_exit_list', 'vpn_ranges', 'proxy_list'];

/**
 * `vigil intel update`: downloads each configured list from its sources (config `intel.sources`, or the public
 * defaults) into the list's first path. A download that fails or holds no valid entry leaves the file as it
 * was; a running server picks up the new file by itself.
 */
export async function intelCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const out = lines(io.stdout);
  if (args.positionals[1] !== 'update') throw new UsageError('Usage: vigil intel update [--only tor_exit_list|vpn_ranges|proxy_list]');
  const only = args.flags.get('only');
  if (only !== undefined && !NAMES.includes(only as IntelListName)) throw new UsageError(`--only must be one of ${NAMES.join(', ')}`);
  const config = loadConfig(io.env);
  const paths = resolveListPaths(config.file.intel, config.env.VIGIL_CONFIG ? dirname(config.env.VIGIL_CONFIG) : process.cwd());
  let failed = 0;
  for (const name of NAMES) {
    if (only !== undefined && only !== name) continue;
    const target = paths[name][0];
    if (!target) {
      out(`${name}: no path configured (intel.${name}); skipped`);
      continue;
    }
    const sources = config.file.intel.sources[name] ?? DEFAULT_SOURCES[name];
    try {
      const parts: string[] = [];
      for (const url of sources) {
        const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
        if (!res.ok) throw new Error(`${url} answered ${res.status}`);
        parts.push(await res.text());
      }
      const text = parts.join('\n');
      const parsed = PARSERS[name](text);
      if (parsed.ranges.length === 0) throw new Error(`no valid entry in ${sources.join(', ')}`);
      // Written beside the target and renamed, so a running server never reads a half-written list.
      const tmp = `${target}.${process.pid}.tmp`;
      writeFileSync(tmp, text);
      renameSync(tmp, target);
      out(`${name}: ${parsed.ranges.length} entries (${parsed.invalid} invalid lines) → ${target}`);
    } catch (error) {
      failed++;
      out(`${name}: not updated: ${(error as Error).message}`);
    }
  }
  return failed > 0 ? 1 : 0;
}
