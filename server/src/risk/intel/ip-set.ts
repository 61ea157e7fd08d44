import { isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A parsed address: IPv4 as an unsigned 32-bit number, IPv6 as a 128-bit bigint. */
export type ParsedIp = { v: 4; n: number } | { v: 6; n: bigint };

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAX64 = (1n << 64n) - 1n;

// A strict dotted quad, parsed by hand: lists hold up to millions of IPv4 lines, and this is ~10× faster than
// a general parser. Everything else (IPv6, IPv4-mapped IPv6) goes through ipaddr.js.
function parseV4(text: string): number | null {
  const m = V4.exec(text);
  if (!m) return null;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const part = m[i]!;
    if (part.length > 1 && part[0] === '0') return null; // no octal-looking parts
    const octet = Number(part);
    if (octet > 255) return null;
    n = n * 256 + octet;
  }
  return n;
}

/** Parses an IPv4 or IPv6 address; IPv4-mapped IPv6 (::ffff:a.b.c.d) becomes the IPv4 address. */
export function parseIp(text: string): ParsedIp | null {
  const v4 = parseV4(text);
  if (v4 !== null) return { v: 4, n: v4 };
  const bare = text.includes('%') ? text.slice(0, text.indexOf('%')) : text;
  if (!isIPv6(bare)) return null;
  const addr = ipaddr.IPv6.parse(bare);
  if (addr.isIPv4MappedAddress()) {
    const bytes = addr.toIPv4Address().octets;
    return { v: 4, n: ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]! };
  }
  let n = 0n;
  for (const part of addr.parts) n = (n << 16n) | BigInt(part);
  return { v: 6, n };
}

export type ParsedRange = { v: 4; from: number; to: number } | { v: 6; from: bigint; to: bigint };

/** An address, a CIDR (`10.0.0.0/8`, `2001:db8::/32`) or an inclusive range (`1.2.3.4-1.2.3.9`). */
export function parseRange(text: string): ParsedRange | null {
  const dash = text.indexOf('-');
  if (dash > 0) {
    const a = parseIp(text.slice(0, dash).trim());
    const b = parseIp(text.slice(dash + 1).trim());
    if (!a || !b || a.v !== b.v || a.n > b.n) return null;
    return { v: a.v, from: a.n, to: b.n } as ParsedRange;
  }
  const slash = text.indexOf('/');
  const ip = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (!ip) return null;
  if (slash < 0) return { v: ip.v, from: ip.n, to: ip.n } as ParsedRange;
  const lenText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(lenText)) return null;
  let len = Number(lenText);
  // A mapped IPv6 CIDR (::ffff:10.0.0.0/104) is an IPv4 CIDR of len − 96.
  if (ip.v === 4 && slash >= 0 && text.includes(':')) len -= 96;
  if (ip.v === 4) {
    if (len < 0 || len > 32) return null;
    const size = 2 ** (32 - len);
    const from = Math.floor(ip.n / size) * size;
    return { v: 4, from, to: from + size - 1 };
  }
  if (len > 128) return null;
  const hostBits = BigInt(128 - len);
  const from = (ip.n >> hostBits) << hostBits;
  return { v: 6, from, to: from | ((1n << hostBits) - 1n) };
}

/**
 * A set of address ranges for fast membership tests: ranges sorted by start and merged, so a lookup is one binary
 * search (about 20 comparisons for a million ranges). IPv6 bounds are kept as two 64-bit halves in typed arrays.
 */
export class IpRangeSet {
  private readonly v4From: Float64Array;
  private readonly v4To: Float64Array;
  private readonly v6From: BigUint64Array[];
  private readonly v6To: BigUint64Array[];
  /** Merged ranges held. */
  readonly size: number;

  constructor(ranges: Iterable<ParsedRange>) {
    const v4: [number, number][] = [];
    const v6: [bigint, bigint][] = [];
    for (const r of ranges) (r.v === 4 ? v4 : v6).push([r.from, r.to] as never);
    const m4 = merge(
      v4.sort((a, b) => a[0] - b[0]),
      1,
    );
    const m6 = merge(
      v6.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
      1n,
    );
    this.v4From = Float64Array.from(m4, (r) => r[0]);
    this.v4To = Float64Array.from(m4, (r) => r[1]);
    const halves = (pick: 0 | 1) => [BigUint64Array.from(m6, (r) => r[pick] >> 64n), BigUint64Array.from(m6, (r) => r[pick] & MAX64)];
    this.v6From = halves(0);
    this.v6To = halves(1);
    this.size = m4.length + m6.length;
  }

  has(ip: ParsedIp | null): boolean {
    if (!ip) return false;
    if (ip.v === 4) {
      const i = lastAtMost(this.v4From.length, (k) => this.v4From[k]! <= ip.n);
      return i >= 0 && this.v4To[i]! >= ip.n;
    }
    const hi = ip.n >> 64n;
    const lo = ip.n & MAX64;
    const [fromHi, fromLo] = this.v6From as [BigUint64Array, BigUint64Array];
    const [toHi, toLo] = this.v6To as [BigUint64Array, BigUint64Array];
    const i = lastAtMost(fromHi.length, (k) => fromHi[k]! < hi || (fromHi[k] === hi && fromLo[k]! <= lo));
    return i >= 0 && (toHi[i]! > hi || (toHi[i] === hi && toLo[i]! >= lo));
  }

  static empty = new IpRangeSet([]);
}

function merge<T extends number | bigint>(sorted: [T, T][], one: T): [T, T][] {
  const out: [T, T][] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    // Adjacent ranges merge too (a.to + 1 === b.from).
    if (last && from <= (last[1] as bigint) + (one as bigint)) {
      if (to > last[1]) last[1] = to;
    } else out.push([from, to]);
  }
  return out;
}

/** Index of the last k in [0, n) for which `ok(k)` holds, given ok is true then false; −1 if none. */
function lastAtMost(n: number, ok: (k: number) => boolean): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (ok(mid)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
