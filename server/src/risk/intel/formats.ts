import { parseIp, parseRange, type ParsedRange } from './ip-set.js';

export interface ParsedList {
  ranges: ParsedRange[];
  /** Lines that were neither data, comments nor known keywords (first few kept for the log). */
  invalid: number;
  examples: string[];
}

function collect(text: string, entry: (line: string) => string | null | undefined): ParsedList {
  const out: ParsedList = { ranges: [], invalid: 0, examples: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';') || line.startsWith('//')) continue;
    const candidate = entry(line);
    if (candidate === undefined) continue; // a known non-address line
    const range = candidate === null ? null : parseRange(candidate);
    if (range) out.ranges.push(range);
    else if (out.invalid++ < 3) out.examples.push(line.slice(0, 80));
  }
  return out;
}

/**
 * Tor exit lists: the bulk exit list (one address per line, check.torproject.org/torbulkexitlist) or the
 * exit-addresses document (`ExitAddress <ip> <date> <time>` lines among ExitNode/Published/LastStatus).
 */
export function parseTorExitList(text: string): ParsedList {
  return collect(text, (line) => {
    const [keyword, value] = line.split(/\s+/);
    if (keyword === 'ExitAddress') return value ?? null;
    if (keyword === 'ExitNode' || keyword === 'Published' || keyword === 'LastStatus') return undefined;
    return line;
  });
}

/** VPN and hosting ranges: a CIDR, an address or `from-to` per line (IPv4 and IPv6); text after a space is ignored. */
export function parseRangeList(text: string): ParsedList {
  return collect(text, (line) => line.split(/[\s,]+/)[0]!);
}

/**
 * Open proxy lists: `ip:port` per line (as the public lists publish them), also `scheme://ip:port`,
 * `[ipv6]:port`, a bare address or a CIDR.
 */
export function parseProxyList(text: string): ParsedList {
  return collect(text, (line) => {
    let s = line.split(/\s+/)[0]!;
    s = s.replace(/^[a-z0-9+]+:\/\//i, '').replace(/^[^@/]*@/, '');
    const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
    if (bracket) return bracket[1]!;
    const hostPort = /^([^:]+):\d+$/.exec(s);
    if (hostPort) return hostPort[1]!;
    return parseIp(s) || s.includes('/') ? s : null;
  });
}
