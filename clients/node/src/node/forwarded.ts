import { isIP } from 'node:net';
import { unmapIPv4 } from './trusted-proxies.js';

/**
 * Addresses from an RFC 7239 `Forwarded` header, in hop order (client first). Obfuscated or
 * unknown nodes ("_hidden", "unknown") are kept as undefined so they still count as a hop.
 */
export function parseForwarded(header: string): (string | undefined)[] {
  const hops: (string | undefined)[] = [];
  for (const element of splitOutsideQuotes(header, ',')) {
    let forNode: string | undefined;
    let sawFor = false;
    for (const pair of splitOutsideQuotes(element, ';')) {
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      if (pair.slice(0, eq).trim().toLowerCase() !== 'for') continue;
      sawFor = true;
      forNode = nodeAddress(unquote(pair.slice(eq + 1).trim()));
    }
    if (sawFor) hops.push(forNode);
  }
  return hops;
}

/** Addresses from `X-Forwarded-For`, client first; ports (some load balancers add them) removed. */
export function parseXForwardedFor(header: string): (string | undefined)[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(nodeAddress);
}

/** A node from either header: "1.2.3.4", "1.2.3.4:80", "[2001:db8::1]:443", "2001:db8::1". */
export function nodeAddress(node: string): string | undefined {
  let candidate = node;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(candidate);
  if (bracketed) {
    candidate = bracketed[1]!;
  } else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(candidate)) {
    candidate = candidate.slice(0, candidate.lastIndexOf(':'));
  }
  candidate = unmapIPv4(candidate);
  return isIP(candidate) === 0 ? undefined : candidate;
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && quoted && i + 1 < text.length) {
      current += ch + text[++i]!;
      continue;
    }
    if (ch === '"') quoted = !quoted;
    if (ch === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}
