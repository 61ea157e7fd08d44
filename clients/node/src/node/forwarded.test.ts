import { describe, expect, it } from 'vitest';
import { nodeAddress, parseForwarded, parseXForwardedFor } from './forwarded.js';

describe('parseForwarded (RFC 7239)', () => {
  it('reads for= in hop order, with quotes, ports and IPv6 brackets', () => {
    expect(parseForwarded('for=192.0.2.60;proto=http;by=203.0.113.43')).toEqual(['192.0.2.60']);
    expect(parseForwarded('for="[2001:db8:cafe::17]:4711", for=198.51.100.17')).toEqual(['2001:db8:cafe::17', '198.51.100.17']);
    expect(parseForwarded('For="192.0.2.43:47011"')).toEqual(['192.0.2.43']);
  });

  it('keeps hidden and unknown nodes as hops without an address', () => {
    expect(parseForwarded('for=_hidden, for=unknown, for=10.0.0.1')).toEqual([undefined, undefined, '10.0.0.1']);
  });

  it('ignores elements without for= and separators inside quotes', () => {
    expect(parseForwarded('proto=https, for="a,b";by=x, for=1.2.3.4')).toEqual([undefined, '1.2.3.4']);
    expect(parseForwarded('by=1.1.1.1')).toEqual([]);
  });
});

describe('parseXForwardedFor', () => {
  it('splits, trims and drops ports', () => {
    expect(parseXForwardedFor(' 203.0.113.9 , 10.0.0.2:8080,[2001:db8::1]:443 ')).toEqual(['203.0.113.9', '10.0.0.2', '2001:db8::1']);
  });

  it('marks garbage as unknown', () => {
    expect(parseXForwardedFor('evil, 10.0.0.1')).toEqual([undefined, '10.0.0.1']);
  });
});

describe('nodeAddress', () => {
  it('accepts bare IPv6 and unmaps IPv4-mapped ones', () => {
    expect(nodeAddress('2001:db8::1')).toBe('2001:db8::1');
    expect(nodeAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(nodeAddress('example.com')).toBeUndefined();
  });
});
