import { describe, expect, it } from 'vitest';
import { clientIp } from './client-ip.js';
import { trustedProxies } from './trusted-proxies.js';

const trusted = trustedProxies(['10.0.0.0/8', 'loopback']);

describe('clientIp', () => {
  it('uses the socket address when the peer is not a trusted proxy, ignoring forged headers', () => {
    expect(clientIp('203.0.113.5', { 'x-forwarded-for': '1.1.1.1' }, trusted)).toBe('203.0.113.5');
    expect(clientIp('203.0.113.5', { 'cf-connecting-ip': '1.1.1.1' }, trusted)).toBe('203.0.113.5');
  });

  it('walks X-Forwarded-For from the nearest hop to the first untrusted address', () => {
    expect(clientIp('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.0.0.9' }, trusted)).toBe('198.51.100.7');
  });

  it('returns the farthest address when every hop is trusted', () => {
    expect(clientIp('10.0.0.1', { 'x-forwarded-for': '10.1.1.1, 10.0.0.9' }, trusted)).toBe('10.1.1.1');
  });

  it('stops at a hop it cannot read rather than believing what is behind it', () => {
    expect(clientIp('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, garbage, 10.0.0.9' }, trusted)).toBe('10.0.0.9');
  });

  it('prefers CF-Connecting-IP, then Forwarded, then X-Forwarded-For', () => {
    const headers = { 'cf-connecting-ip': '203.0.113.1', forwarded: 'for=203.0.113.2', 'x-forwarded-for': '203.0.113.3' };
    expect(clientIp('127.0.0.1', headers, trusted)).toBe('203.0.113.1');
    expect(clientIp('127.0.0.1', { ...headers, 'cf-connecting-ip': undefined }, trusted)).toBe('203.0.113.2');
    expect(clientIp('127.0.0.1', { 'x-forwarded-for': '203.0.113.3' }, trusted)).toBe('203.0.113.3');
  });

  it('handles dual-stack socket addresses and IPv6 clients', () => {
    expect(clientIp('::ffff:127.0.0.1', { forwarded: 'for="[2001:db8::7]"' }, trusted)).toBe('2001:db8::7');
    expect(clientIp('::ffff:203.0.113.5', {}, trusted)).toBe('203.0.113.5');
  });

  it('has no answer without a peer address', () => {
    expect(clientIp(undefined, { 'x-forwarded-for': '1.1.1.1' }, trusted)).toBeUndefined();
  });
});
