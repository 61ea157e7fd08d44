import { describe, expect, it } from 'vitest';
import { proxyEvidence, trustedProxySet } from './forwarding.js';

const none = trustedProxySet([]);
const lb = trustedProxySet(['10.0.0.0/8']);

describe('proxy evidence from forwarding headers', () => {
  it('sees nothing in a direct request', () => {
    expect(proxyEvidence({ peer: '203.0.113.1' }, none)).toBeNull();
  });

  it('flags Via and Forwarded added by a proxy we do not run', () => {
    expect(proxyEvidence({ peer: '203.0.113.1', via: '1.1 squid' }, none)).toBe('via_header');
    expect(proxyEvidence({ peer: '203.0.113.1', forwarded: 'for=198.51.100.2' }, none)).toBe('forwarded_chain');
    expect(proxyEvidence({ peer: '203.0.113.1', xForwardedFor: '198.51.100.2' }, none)).toBe('x_forwarded_for_chain');
  });

  it('accepts the hops of trusted proxies, and flags hops beyond them', () => {
    expect(proxyEvidence({ peer: '10.0.0.5', forwarded: 'for=198.51.100.2', via: '1.1 lb' }, lb)).toBeNull();
    expect(proxyEvidence({ peer: '10.0.0.5', forwarded: 'for=198.51.100.2, for=10.0.0.9', via: '1.1 a, 1.1 b' }, lb)).toBeNull();
    expect(proxyEvidence({ peer: '10.0.0.5', forwarded: 'for=192.0.2.1;proto=https, for="[2001:db8::1]:443"' }, lb)).toBe('forwarded_chain');
    expect(proxyEvidence({ peer: '10.0.0.5', forwarded: 'for=198.51.100.2', via: '1.1 open-proxy, 1.1 lb' }, lb)).toBe('via_header');
  });
});
