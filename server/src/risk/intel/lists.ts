import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ConfigError } from '../../errors.js';
import type { StageLog } from '../../pipeline/stage.js';
import type { IntelConfig, IntelListName } from './config.js';
import { parseProxyList, parseRangeList, parseTorExitList, type ParsedList } from './formats.js';
import { IpRangeSet, type ParsedIp } from './ip-set.js';

export const PARSERS: Record<IntelListName, (text: string) => ParsedList> = {
  tor_exit_list: parseTorExitList,
  vpn_ranges: parseRangeList,
  proxy_list: parseProxyList,
};

export const TAG_OF: Record<IntelListName, 'tor' | 'vpn' | 'proxy'> = { tor_exit_list: 'tor', vpn_ranges: 'vpn', proxy_list: 'proxy' };

interface Loaded {
  set: IpRangeSet;
  /** mtime+size of each file, to notice changes. */
  stamps: string[];
}

const stampOf = (path: string) => {
  const s = statSync(path);
  return `${s.mtimeMs}:${s.size}:${s.ino}`;
};

/** Paths in the config are relative to the config file's directory. */
export function resolveListPaths(config: IntelConfig, baseDir: string): Record<IntelListName, string[]> {
  const abs = (p: string) => (isAbsolute(p) ? p : join(baseDir, p));
  return {
    tor_exit_list: config.tor_exit_list.map(abs),
    vpn_ranges: config.vpn_ranges.map(abs),
    proxy_list: config.proxy_list.map(abs),
  };
}

/**
 * The operator's IP lists, kept in memory and swapped whole when a file changes, so a lookup never sees a
 * half-loaded list. A list that fails to reload keeps its previous contents.
 */
export class IntelLists {
  private readonly loaded = new Map<IntelListName, Loaded>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly paths: Record<IntelListName, string[]>) {}

  /** Loads every list; a missing or unreadable file is an error at start. Returns what was loaded, for the log. */
  loadAll(): Record<IntelListName, { ranges: number; invalid: number }> {
    const summary = {} as Record<IntelListName, { ranges: number; invalid: number }>;
    for (const name of Object.keys(this.paths) as IntelListName[]) {
      try {
        summary[name] = this.load(name);
      } catch (error) {
        throw new ConfigError(`intel.${name}: ${(error as Error).message}`);
      }
    }
    return summary;
  }

  private load(name: IntelListName): { ranges: number; invalid: number } {
    const ranges = [];
    const stamps = [];
    let invalid = 0;
    for (const path of this.paths[name]) {
      stamps.push(stampOf(path));
      const parsed = PARSERS[name](readFileSync(path, 'utf8'));
      ranges.push(...parsed.ranges);
      invalid += parsed.invalid;
    }
    this.loaded.set(name, { set: new IpRangeSet(ranges), stamps });
    return { ranges: ranges.length, invalid };
  }

  /** Reloads lists whose files changed since they were loaded. */
  reloadChanged(log: StageLog): void {
    for (const name of Object.keys(this.paths) as IntelListName[]) {
      const paths = this.paths[name];
      if (paths.length === 0) continue;
      let stamps: string[];
      try {
        stamps = paths.map(stampOf);
      } catch (error) {
        log.warn({ list: name, err: error }, `intel.${name}: cannot read; keeping the loaded list`);
        continue;
      }
      if (stamps.join('|') === this.loaded.get(name)?.stamps.join('|')) continue;
      try {
        const { ranges, invalid } = this.load(name);
        log.info({ list: name, ranges, invalid }, `intel.${name}: reloaded ${ranges} entries`);
      } catch (error) {
        log.warn({ list: name, err: error }, `intel.${name}: reload failed; keeping the loaded list`);
      }
    }
  }

  watch(intervalMs: number, log: StageLog): void {
    this.timer = setInterval(() => this.reloadChanged(log), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The list tags (tor, vpn, proxy) that apply to an address. */
  tagsFor(ip: ParsedIp | null): ('tor' | 'vpn' | 'proxy')[] {
    const tags: ('tor' | 'vpn' | 'proxy')[] = [];
    for (const [name, { set }] of this.loaded) if (set.has(ip)) tags.push(TAG_OF[name]);
    return tags;
  }
}
