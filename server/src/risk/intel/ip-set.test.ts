import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IpRangeSet, parseIp, parseRange } from './ip-set.js';

const set = (...entries: string[]) => new IpRangeSet(entries.map((e) => parseRange(e)!));
const has = (s: IpRangeSet, ip: string) => s.has(parseIp(ip));

describe('IP parsing', () => {
  it('reads IPv4, IPv6 and IPv4-mapped IPv6 as the IPv4 address', () => {
    expect(parseIp('1.2.3.4')).toEqual({ v: 4, n: 0x01020304 });
    expect(parseIp('::ffff:1.2.3.4')).toEqual({ v: 4, n: 0x01020304 });
    expect(parseIp('::ffff:102:304')).toEqual({ v: 4, n: 0x01020304 });
    expect(parseIp('2001:db8::1')).toEqual({ v: 6, n: (0x20010db8n << 96n) | 1n });
  });

  it('refuses what is not a plain address', () => {
    for (const bad of ['1.2.3', '1.2.3.256', '01.2.3.4', '1.2.3.4.5', 'example.com', '', '2001:db8::g', '::ffff:1.2.3']) {
      expect(parseIp(bad), bad).toBeNull();
    }
  });

  it('reads CIDRs, ranges and mapped CIDRs', () => {
    expect(parseRange('10.0.0.0/8')).toEqual({ v: 4, from: 0x0a000000, to: 0x0affffff });
    expect(parseRange('10.1.2.3/8')).toEqual({ v: 4, from: 0x0a000000, to: 0x0affffff }); // host bits dropped
    expect(parseRange('::ffff:10.0.0.0/104')).toEqual({ v: 4, from: 0x0a000000, to: 0x0affffff });
    expect(parseRange('1.2.3.4-1.2.3.9')).toEqual({ v: 4, from: 0x01020304, to: 0x01020309 });
    expect(parseRange('0.0.0.0/0')).toEqual({ v: 4, from: 0, to: 0xffffffff });
    expect(parseRange('1.2.3.4/33')).toBeNull();
    expect(parseRange('1.2.3.9-1.2.3.4')).toBeNull();
  });
});

describe('IpRangeSet', () => {
  it('answers membership at range edges, for both families', () => {
    const s = set('198.51.100.0/24', '2001:db8:100::/48', '192.0.2.7');
    expect(has(s, '198.51.100.0')).toBe(true);
    expect(has(s, '198.51.100.255')).toBe(true);
    expect(has(s, '198.51.101.0')).toBe(false);
    expect(has(s, '198.51.99.255')).toBe(false);
    expect(has(s, '192.0.2.7')).toBe(true);
    expect(has(s, '::ffff:192.0.2.7')).toBe(true);
    expect(has(s, '2001:db8:100:ffff:ffff:ffff:ffff:ffff')).toBe(true);
    expect(has(s, '2001:db8:101::')).toBe(false);
    expect(s.has(null)).toBe(false);
  });

  it('merges overlapping and adjacent ranges', () => {
    expect(set('10.0.0.0/25', '10.0.0.128/25', '10.0.0.5', '10.0.1.0/24').size).toBe(1);
  });

  it('agrees with a linear scan for random ranges and addresses (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 32 })), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 40 }),
        (ranges, probes) => {
          const parsed = ranges.map(([n, len]) => parseRange(`${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}/${len}`)!);
          const s = new IpRangeSet(parsed);
          for (const p of [...probes, ...parsed.flatMap((r) => [r.from as number, r.to as number])]) {
            const naive = parsed.some((r) => (r.from as number) <= p && p <= (r.to as number));
            expect(s.has({ v: 4, n: p })).toBe(naive);
          }
        },
      ),
    );
  });

  it('holds a million ranges and still answers correctly', () => {
    // Every other /32 in 10.0.0.0/11 (IPv4) and 250,000 /64s (the 128-bit path).
    const v4 = Array.from({ length: 1_000_000 }, (_, i) => ({ v: 4 as const, from: 0x0a000000 + 2 * i, to: 0x0a000000 + 2 * i }));
    const s4 = new IpRangeSet(v4);
    expect(s4.size).toBe(1_000_000);
    expect(s4.has({ v: 4, n: 0x0a000000 + 2 * 777_777 })).toBe(true);
    expect(s4.has({ v: 4, n: 0x0a000000 + 2 * 777_777 + 1 })).toBe(false);
    const base = 0x20010db8n << 96n;
    const v6 = Array.from({ length: 250_000 }, (_, i) => ({
      v: 6 as const,
      from: base + (BigInt(2 * i) << 64n),
      to: base + (BigInt(2 * i) << 64n) + (2n ** 64n - 1n),
    }));
    const s6 = new IpRangeSet(v6);
    expect(s6.has({ v: 6, n: base + (1234n << 64n) + 99n })).toBe(true);
    expect(s6.has({ v: 6, n: base + (1235n << 64n) + 99n })).toBe(false);
  });
});
