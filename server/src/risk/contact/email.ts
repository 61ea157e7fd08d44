import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// Maintained community lists, shipped as npm packages and updated with dependency updates.
const DISPOSABLE = new Set<string>(require('disposable-email-domains') as string[]);
const DISPOSABLE_WILDCARD = new Set<string>(require('disposable-email-domains/wildcard.json') as string[]);
const FREE = new Set<string>(require('free-email-domains') as string[]);

/** Local parts that name a function, not a person. */
const ROLE_ACCOUNTS = new Set([
  'abuse',
  'admin',
  'administrator',
  'billing',
  'contact',
  'help',
  'hello',
  'hostmaster',
  'hr',
  'info',
  'jobs',
  'mail',
  'marketing',
  'noc',
  'noreply',
  'no-reply',
  'office',
  'postmaster',
  'privacy',
  'root',
  'sales',
  'security',
  'support',
  'team',
  'webmaster',
]);

/** Providers where `user+tag@` delivers to `user@`; Gmail also ignores dots in the local part. */
const PLUS_ADDRESSING = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'icloud.com',
  'me.com',
  'fastmail.com',
  'proton.me',
  'protonmail.com',
]);

// Practical syntax (the addresses mail providers accept), not the whole of RFC 5322: no quoted local parts.
const SYNTAX = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export interface EmailFacts {
  address: string;
  valid: boolean;
  /** Lowercased; for providers with sub-addressing the +tag is dropped (and Gmail's dots). */
  normalized: string | null;
  domain: string | null;
  disposable: boolean;
  free_provider: boolean;
  role_account: boolean;
}

/** Listed, or under a listed wildcard domain: one set lookup per label, not a scan of the wildcard list. */
function isDisposable(domain: string): boolean {
  if (DISPOSABLE.has(domain)) return true;
  for (let at = 0; at !== -1; at = domain.indexOf('.', at) + 1 || -1) {
    if (DISPOSABLE_WILDCARD.has(domain.slice(at))) return true;
  }
  return false;
}

export function analyzeEmail(raw: string): EmailFacts {
  const address = raw.trim();
  const valid = SYNTAX.test(address) && !address.split('@')[0]!.startsWith('.') && !address.includes('..');
  if (!valid) return { address, valid, normalized: null, domain: null, disposable: false, free_provider: false, role_account: false };
  const at = address.lastIndexOf('@');
  let local = address.slice(0, at).toLowerCase();
  let domain = address.slice(at + 1).toLowerCase();
  if (domain === 'googlemail.com') domain = 'gmail.com';
  const base = local.split('+')[0]!;
  if (PLUS_ADDRESSING.has(domain)) local = base;
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return {
    address,
    valid,
    normalized: `${local}@${domain}`,
    domain,
    disposable: isDisposable(domain),
    free_provider: FREE.has(domain),
    role_account: ROLE_ACCOUNTS.has(base),
  };
}

/** Whether an identity is an e-mail address (then it gets e-mail intelligence like `properties.email`). */
export const looksLikeEmail = (s: string) => SYNTAX.test(s.trim());
