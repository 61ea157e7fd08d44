import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { GOOGLE_ATTESTATION_ROOTS } from './google-roots.js';

/** The public keys an attestation chain may end in, as SPKI DER. */
export interface TrustedRoots {
  readonly keys: readonly Buffer[];
}

const PEM = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

const spkiOf = (cert: X509Certificate) => cert.publicKey.export({ type: 'spki', format: 'der' });

/** Certificates of a PEM bundle. */
export function certificatesOfPem(pem: string): X509Certificate[] {
  return [...pem.matchAll(PEM)].map((m) => new X509Certificate(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64')));
}

/**
 * Google's roots plus `VIGIL_ATTESTATION_EXTRA_ROOTS` (PEM text, or the path of a PEM file): a private PKI's roots,
 * or a test's. Unreadable or certificate-less extra roots stop the start.
 */
export function trustedRoots(extra: string | undefined): TrustedRoots {
  const google = GOOGLE_ATTESTATION_ROOTS.map((b64) => new X509Certificate(Buffer.from(b64.replace(/\s+/g, ''), 'base64')));
  const added: X509Certificate[] = [];
  if (extra !== undefined && extra.trim() !== '') {
    let pem = extra;
    try {
      if (!extra.includes('-----BEGIN')) pem = readFileSync(extra, 'utf8');
      added.push(...certificatesOfPem(pem));
    } catch (error) {
      throw new ConfigError(`VIGIL_ATTESTATION_EXTRA_ROOTS: ${(error as Error).message}`);
    }
    if (added.length === 0) throw new ConfigError('VIGIL_ATTESTATION_EXTRA_ROOTS holds no PEM certificate');
  }
  return { keys: [...google, ...added].map(spkiOf) };
}
