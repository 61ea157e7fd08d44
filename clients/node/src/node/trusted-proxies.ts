import { BlockList, isIP } from 'node:net';
import { VigilError } from '../core/errors.js';

/**
 * Named ranges, as in Express's `trust proxy`, so the common deployments need no CIDR arithmetic.
 */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Decides whether a peer address is one of our proxies, whose forwarding headers may be believed. */
export interface TrustedProxies {
  trusts(address: string): boolean;
}

/**
 * Builds the matcher from IPs, CIDRs ("10.0.0.0/8", "2001:db8::/32") and the names `loopback`,
 * `linklocal`, `uniquelocal`. Node's BlockList does the prefix matching; IPv4-mapped IPv6
 * addresses (::ffff:10.1.2.3, as sockets report them on dual-stack listeners) are unwrapped first.
 * An invalid entry is a configuration error, thrown at construction.
 */
export function trustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  let empty = true;
  for (const raw of entries) {
    for (const entry of NAMED_RANGES[raw.trim().toLowerCase()] ?? [raw.trim()]) {
      const [address = '', prefixText, ...rest] = entry.split('/');
      const family = isIP(address);
      const prefix = prefixText === undefined ? (family === 6 ? 128 : 32) : Number(prefixText);
      const max = family === 6 ? 128 : 32;
      if (family === 0 || rest.length > 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > max || prefixText === '') {
        throw new VigilError('config', `trustedProxies: "${raw}" is not an IP address, CIDR range or known name`);
      }
      list.addSubnet(unmapIPv4(address), prefix, family === 6 && !isMappedIPv4(address) ? 'ipv6' : 'ipv4');
      empty = false;
    }
  }
  return {
    trusts(address: string): boolean {
      if (empty) return false;
      const plain = unmapIPv4(address);
      const family = isIP(plain);
      if (family === 0) return false;
      return list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

function isMappedIPv4(address: string): boolean {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address);
}

/** "::ffff:10.1.2.3" → "10.1.2.3"; anything else unchanged. */
export function unmapIPv4(address: string): string {
  return isMappedIPv4(address) ? address.slice(7) : address;
}
