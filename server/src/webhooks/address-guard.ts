import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Thrown when a webhook endpoint is, or resolves to, an address Vigil must not send to. */
export class BlockedAddressError extends Error {
  readonly code = 'EWEBHOOKBLOCKED';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private, loopback, link-local or otherwise non-public address`);
    this.name = 'BlockedAddressError';
  }
}

/**
 * Whether an address is public unicast. Everything else is refused: private and unique-local ranges, loopback,
 * link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, reserved, and the IPv6 forms that
 * carry an IPv4 address (IPv4-mapped is judged by the address it maps; NAT64, 6to4 and Teredo are refused).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** The host of a URL as an address when it is an IP literal (brackets of IPv6 removed), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}

/**
 * A DNS lookup for the HTTP client's connect that refuses non-public answers: the address checked is the address
 * connected to, so a name that resolved to a public address at creation and to a private one now (DNS rebinding)
 * is caught at delivery. `allowPrivate` (VIGIL_WEBHOOK_ALLOW_PRIVATE) lets everything through.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const blocked = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (blocked) return callback(new BlockedAddressError(hostname, blocked.address) as unknown as NodeJS.ErrnoException, '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Checks an endpoint URL before it is stored: http or https, and (unless allowed) a host that is, or only resolves
 * to, public addresses. Returns the reason it is refused, or null.
 */
export async function refuseEndpoint(url: string, allowPrivate: boolean): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be http or https';
  if (parsed.username || parsed.password) return 'must not carry credentials; the signature authenticates Vigil';
  if (allowPrivate) return null;
  const literal = literalAddress(parsed.hostname);
  const addresses = literal
    ? [literal]
    : await new Promise<string[]>((resolve) => dnsLookup(parsed.hostname, { all: true }, (error, found) => resolve(error ? [] : found.map((a) => a.address))));
  if (addresses.length === 0) return `host ${parsed.hostname} does not resolve`;
  const blocked = addresses.find((a) => !isPublicAddress(a));
  return blocked
    ? `host ${parsed.hostname} is, or resolves to, ${blocked}: private, loopback and link-local addresses are refused (VIGIL_WEBHOOK_ALLOW_PRIVATE=1 allows them for on-premise receivers)`
    : null;
}
