import type { ForwardingEvidence } from '../../pipeline/event.js';
import { IpRangeSet, parseIp, parseRange, type ParsedRange } from './ip-set.js';

/** `for=` values of an RFC 7239 Forwarded header, in order (client first). */
function forwardedFor(header: string): string[] {
  const out: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const [key, raw] = pair.split('=', 2).map((s) => s?.trim()) as [string, string | undefined];
      if (key.toLowerCase() !== 'for' || raw === undefined) continue;
      let value = raw.replace(/^"|"$/g, '');
      const bracket = /^\[([^\]]+)\]/.exec(value);
      if (bracket) value = bracket[1]!;
      else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.indexOf(':'));
      out.push(value);
    }
  }
  return out;
}

export function trustedProxySet(entries: readonly string[]): IpRangeSet {
  return new IpRangeSet(entries.map(parseRange).filter((r): r is ParsedRange => r !== null));
}

/**
 * Whether the request passed through a proxy beyond the operator's trusted ones. The hop chain is the
 * Forwarded (or X-Forwarded-For) list followed by the socket peer; walking it from our side, trusted proxies
 * are skipped; the first untrusted hop is the client, and anything left of it means the client forwarded for
 * someone else. Via entries beyond the trusted hops say the same. Returns the reason, or null.
 */
export function proxyEvidence(evidence: ForwardingEvidence, trusted: IpRangeSet): string | null {
  const chain = evidence.forwarded
    ? forwardedFor(evidence.forwarded)
    : (evidence.xForwardedFor
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? []);
  const hops = [...chain, evidence.peer];
  let i = hops.length - 1;
  let trustedHops = 0;
  while (i > 0 && trusted.has(parseIp(hops[i]!))) {
    i--;
    trustedHops++;
  }
  if (i > 0) return evidence.forwarded ? 'forwarded_chain' : 'x_forwarded_for_chain';
  const via =
    evidence.via
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean).length ?? 0;
  if (via > trustedHops) return 'via_header';
  return null;
}
