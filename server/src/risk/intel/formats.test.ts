import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProxyList, parseRangeList, parseTorExitList } from './formats.js';
import { IpRangeSet, parseIp } from './ip-set.js';

const fixture = (name: string) => readFileSync(new URL(`../../../test-fixtures/intel/${name}`, import.meta.url), 'utf8');
const hasAll = (ranges: ReturnType<typeof parseRangeList>['ranges'], ips: string[]) => {
  const s = new IpRangeSet(ranges);
  return ips.map((ip) => s.has(parseIp(ip)));
};

describe('intel list formats', () => {
  it('reads the Tor bulk exit list and the exit-addresses document', () => {
    const bulk = parseTorExitList(fixture('tor-bulk-exit-list.txt'));
    expect(bulk.invalid).toBe(0);
    expect(hasAll(bulk.ranges, ['192.0.2.10', '2001:db8:7::1', '192.0.2.12'])).toEqual([true, true, false]);
    const doc = parseTorExitList(fixture('tor-exit-addresses.txt'));
    expect(doc).toMatchObject({ invalid: 0 });
    expect(doc.ranges).toHaveLength(2);
    expect(hasAll(doc.ranges, ['192.0.2.20', '192.0.2.21'])).toEqual([true, true]);
  });

  it('reads CIDR lists of both families and counts bad lines without failing', () => {
    const list = parseRangeList(fixture('vpn-ranges.txt'));
    expect(list.invalid).toBe(1);
    expect(list.examples).toEqual(['not-a-range']);
    expect(hasAll(list.ranges, ['198.51.100.77', '203.0.113.200', '203.0.113.5', '2001:db8:100:1::9'])).toEqual([true, true, false, true]);
  });

  it('reads open proxy lists with ports, schemes and bracketed IPv6', () => {
    const list = parseProxyList(fixture('proxies.txt'));
    expect(list.invalid).toBe(0);
    expect(hasAll(list.ranges, ['203.0.113.7', '203.0.113.8', '2001:db8:200::5', '203.0.113.9', '203.0.113.10'])).toEqual([true, true, true, true, false]);
  });
});
