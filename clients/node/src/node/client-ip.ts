import { isIP } from 'node:net';
import { nodeAddress, parseForwarded, parseXForwardedFor } from './forwarded.js';
import type { TrustedProxies } from './trusted-proxies.js';
import { unmapIPv4 } from './trusted-proxies.js';

export interface ForwardingHeaders {
  'cf-connecting-ip'?: string;
  forwarded?: string;
  'x-forwarded-for'?: string;
}

/**
 * The client's address. Forwarding headers are anyone's to forge, so they are read only when the
 * peer that sent them is a trusted proxy, and then only as far back as the chain stays trusted:
 * walking from the nearest hop outwards, the first address that is not a trusted proxy is the
 * client. With no trusted peer, the socket's address is the answer.
 *
 * Header preference when the peer is trusted: CF-Connecting-IP (Cloudflare sets exactly one
 * value), then Forwarded (RFC 7239), then X-Forwarded-For.
 */
export function clientIp(peer: string | undefined, headers: ForwardingHeaders, trusted: TrustedProxies): string | undefined {
  const socketAddress = peer === undefined ? undefined : validIp(peer);
  if (socketAddress === undefined || !trusted.trusts(socketAddress)) return socketAddress;

  const cf = headers['cf-connecting-ip'];
  if (cf !== undefined) {
    const address = nodeAddress(cf.trim());
    if (address !== undefined) return address;
  }
  const chain =
    headers.forwarded !== undefined
      ? parseForwarded(headers.forwarded)
      : headers['x-forwarded-for'] !== undefined
        ? parseXForwardedFor(headers['x-forwarded-for'])
        : [];

  let client = socketAddress;
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i];
    // An unparseable or hidden hop cannot be vouched for: stop at the last address we trust.
    if (hop === undefined) return client;
    client = hop;
    if (!trusted.trusts(hop)) return hop;
  }
  return client;
}

function validIp(address: string): string | undefined {
  const plain = unmapIPv4(address.trim());
  return isIP(plain) === 0 ? undefined : plain;
}
