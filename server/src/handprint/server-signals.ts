import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { base32 } from './crypto.js';

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

function material(signals: ServerSignals): string {
  return JSON.stringify(['v1', signals.userAgent ?? '', primaryLanguage(signals.acceptLanguage), ipNetwork(signals.ip)]);
}

/**
 * The handprint from what the server sees by itself: user agent, first accept-language and IP network.
 * Same inputs and installation, same id. Keyed with the installation's handprint secret (the one browser handprints
 * use), so ids differ between installations and nobody without the secret can compute one; same format as browser
 * handprints (`hp_` + 26 lower-case base32). The browser and Android libraries add richer components; this is the floor.
 */
export function serverHandprint(signals: ServerSignals, secret: string): string {
  return idOf(secret, material(signals));
}

const idOf = (key: KeyObject | string, input: string) => `hp_${base32(createHmac('sha256', key).update(input, 'utf8').digest(), 26)}`;

/** How many distinct inputs `ServerHandprints` remembers before it starts over. */
const REMEMBERED = 10_000;

/**
 * `serverHandprint` for every event of a process: the same inputs (a user agent, a language and an IP network)
 * come back on event after event, and the HMAC (with its key set up anew from the secret on each call) costs far
 * more than looking the id up. The memo is bounded and starts over when full; an id only depends on its inputs.
 */
export class ServerHandprints {
  private readonly ids = new Map<string, string>();
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  of(signals: ServerSignals): string {
    const input = material(signals);
    let id = this.ids.get(input);
    if (id === undefined) {
      id = idOf(this.key, input);
      if (this.ids.size >= REMEMBERED) this.ids.clear();
      this.ids.set(input, id);
    }
    return id;
  }
}

/**
 * The id earlier versions gave the same inputs (an unkeyed SHA-256), computed only to find handprints stored
 * before the change and link them to the keyed id (handprint/legacy-links.ts).
 */
export function legacyServerHandprint(signals: ServerSignals): string {
  return `hp_${createHash('sha256').update(material(signals)).digest('base64url').slice(0, 22)}`;
}
