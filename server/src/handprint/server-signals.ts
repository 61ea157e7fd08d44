import { createHash } from 'node:crypto';

export interface ServerSignals {
  userAgent: string | null;
  acceptLanguage: string | null;
  ip: string | null;
}

/** The network a client sits in: /24 for IPv4, /48 for IPv6, so a DHCP renewal keeps the handprint. */
export function ipNetwork(ip: string | null): string {
  if (!ip) return '';
  if (ip.includes(':')) {
    const groups = expandIpv6(ip);
    return groups ? `${groups.slice(0, 3).join(':')}::/48` : '';
  }
  const octets = ip.split('.');
  return octets.length === 4 ? `${octets.slice(0, 3).join('.')}.0/24` : '';
}

function expandIpv6(ip: string): string[] | undefined {
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined && left.length !== 8) return undefined;
  const groups = [...left, ...Array(Math.max(0, missing)).fill('0'), ...right];
  return groups.map((g) => g.padStart(4, '0').toLowerCase());
}

/** The first language preference, lower-cased: quality values and later fallbacks vary between requests. */
export function primaryLanguage(acceptLanguage: string | null): string {
  return (acceptLanguage ?? '').split(',')[0]!.split(';')[0]!.trim().toLowerCase();
}

/**
 * The handprint from what the server sees by itself: user agent, first accept-language and IP network.
 * Same inputs, same id. The browser and Android libraries add richer components; this is the floor.
 */
export function serverHandprint(signals: ServerSignals): string {
  const material = JSON.stringify(['v1', signals.userAgent ?? '', primaryLanguage(signals.acceptLanguage), ipNetwork(signals.ip)]);
  return `hp_${createHash('sha256').update(material).digest('base64url').slice(0, 22)}`;
}
