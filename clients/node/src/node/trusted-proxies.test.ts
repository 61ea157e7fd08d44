import { describe, expect, it } from 'vitest';
import { VigilError } from '../core/errors.js';
import { trustedProxies, unmapIPv4 } from './trusted-proxies.js';

describe('trustedProxies', () => {
  it('matches IPv4 and IPv6 CIDR ranges and single addresses', () => {
    const trusted = trustedProxies(['10.0.0.0/8', '192.168.1.7', '2001:db8::/32']);
    expect(trusted.trusts('10.255.0.1')).toBe(true);
    expect(trusted.trusts('11.0.0.1')).toBe(false);
    expect(trusted.trusts('192.168.1.7')).toBe(true);
    expect(trusted.trusts('192.168.1.8')).toBe(false);
    expect(trusted.trusts('2001:db8:1::5')).toBe(true);
    expect(trusted.trusts('2001:db9::5')).toBe(false);
  });

  it('unwraps IPv4-mapped IPv6 addresses reported by dual-stack sockets', () => {
    const trusted = trustedProxies(['loopback']);
    expect(trusted.trusts('::ffff:127.0.0.1')).toBe(true);
    expect(trusted.trusts('::1')).toBe(true);
    expect(unmapIPv4('::ffff:10.1.2.3')).toBe('10.1.2.3');
  });

  it('knows named ranges', () => {
    const trusted = trustedProxies(['uniquelocal', 'linklocal']);
    expect(trusted.trusts('172.20.1.1')).toBe(true);
    expect(trusted.trusts('172.32.1.1')).toBe(false);
    expect(trusted.trusts('fd00::1')).toBe(true);
    expect(trusted.trusts('169.254.169.254')).toBe(true);
    expect(trusted.trusts('8.8.8.8')).toBe(false);
  });

  it('trusts nothing by default and never trusts garbage', () => {
    expect(trustedProxies([]).trusts('127.0.0.1')).toBe(false);
    expect(trustedProxies(['0.0.0.0/0']).trusts('not-an-ip')).toBe(false);
  });

  it.each(['10.0.0.0/33', '10.0.0/8', 'localhost', '10.0.0.0/', '::1/129', '1.2.3.4/8/9'])('refuses %s', (entry) => {
    expect(() => trustedProxies([entry])).toThrow(VigilError);
  });
});
