import { createPublicKey, X509Certificate } from 'node:crypto';
import { id_ce_keyDescription, KeyDescription, NonStandardKeyDescription, SecurityLevel } from '@peculiar/asn1-android';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import type { TrustedRoots } from './roots.js';

/**
 * What the server concludes from a key's attestation chain (README, "Device binding"):
 * - `strongbox`: the chain verifies to a trusted root and says the key lives in a StrongBox secure element;
 * - `hardware`: … in the trusted execution environment (TEE);
 * - `software`: the chain verifies but the attestation itself is by Android's software Keystore;
 * - `unverified`: no chain, or one that fails (`problem` says why). The key is still bound: its signatures prove
 *   the requests come from the device that registered, only not that the key is in hardware.
 */
export type AttestationLevel = 'strongbox' | 'hardware' | 'software' | 'unverified';

export type AttestationProblem =
  | 'no_chain'
  | 'malformed_certificate'
  | 'key_not_attested'
  | 'broken_chain'
  | 'expired'
  | 'wrong_root'
  | 'no_attestation_extension'
  | 'wrong_challenge';

/** One certificate of a chain as the server keeps it. */
export interface CertificateSummary {
  subject: string;
  issuer: string;
  serial: string;
  not_before: string;
  not_after: string;
  sha256: string;
}

export interface AttestationResult {
  level: AttestationLevel;
  problem: AttestationProblem | null;
  chain: CertificateSummary[];
}

export interface AttestationInput {
  /** Base64 DER certificates, the key's own first, the root (or the one a root signed) last. */
  chain: readonly string[];
  /** SPKI DER of the key being bound: the chain's first certificate must certify this key. */
  publicKey: Buffer;
  /** The challenge the key was created with: the device id, UTF-8. */
  challenge: Buffer;
  roots: TrustedRoots;
  now: Date;
}

const summary = (c: X509Certificate): CertificateSummary => ({
  subject: c.subject.replace(/\n/g, ', '),
  issuer: c.issuer.replace(/\n/g, ', '),
  serial: c.serialNumber,
  not_before: new Date(c.validFrom).toISOString(),
  not_after: new Date(c.validTo).toISOString(),
  sha256: c.fingerprint256.replace(/:/g, '').toLowerCase(),
});

const spki = (c: X509Certificate) => c.publicKey.export({ type: 'spki', format: 'der' });

/** The key description of the attestation extension, read with its standard schema, else the tolerant one. */
function keyDescription(der: Buffer): { level: SecurityLevel; challenge: Buffer } | null {
  const cert = AsnConvert.parse(der, Certificate);
  const ext = cert.tbsCertificate.extensions?.find((e) => e.extnID === id_ce_keyDescription);
  if (!ext) return null;
  const value = ext.extnValue.buffer;
  const read = (d: { attestationSecurityLevel: SecurityLevel; attestationChallenge: { buffer: ArrayBuffer } }) => ({
    level: d.attestationSecurityLevel,
    challenge: Buffer.from(d.attestationChallenge.buffer),
  });
  try {
    return read(AsnConvert.parse(value, KeyDescription));
  } catch {
    // Some devices encode the authorization lists out of order; the non-standard schema reads those.
    return read(AsnConvert.parse(value, NonStandardKeyDescription));
  }
}

/** Checks a key attestation chain: order, signatures, validity, root, the attested key and its challenge. */
export function verifyAttestation(input: AttestationInput): AttestationResult {
  let certs: X509Certificate[];
  try {
    certs = input.chain.map((b64) => new X509Certificate(Buffer.from(b64, 'base64')));
  } catch {
    return { level: 'unverified', problem: 'malformed_certificate', chain: [] };
  }
  const chain = certs.map(summary);
  const fail = (problem: AttestationProblem): AttestationResult => ({ level: 'unverified', problem, chain });
  if (certs.length === 0) return fail('no_chain');
  if (!spki(certs[0]!).equals(input.publicKey)) return fail('key_not_attested');
  for (let i = 0; i + 1 < certs.length; i++) {
    if (!certs[i]!.checkIssued(certs[i + 1]!) || !certs[i]!.verify(certs[i + 1]!.publicKey)) return fail('broken_chain');
  }
  const now = input.now.getTime();
  if (certs.some((c) => Date.parse(c.validFrom) > now || Date.parse(c.validTo) < now)) return fail('expired');
  const last = certs.at(-1)!;
  const rootKey = spki(last);
  const anchored = input.roots.keys.some((key) => key.equals(rootKey) || safeVerify(last, key));
  if (!anchored) return fail('wrong_root');
  let description: ReturnType<typeof keyDescription>;
  try {
    description = keyDescription(Buffer.from(input.chain[0]!, 'base64'));
  } catch {
    return fail('malformed_certificate');
  }
  if (!description) return fail('no_attestation_extension');
  if (!description.challenge.equals(input.challenge)) return fail('wrong_challenge');
  const level = description.level === SecurityLevel.strongBox ? 'strongbox' : description.level === SecurityLevel.trustedEnvironment ? 'hardware' : 'software';
  return { level, problem: null, chain };
}

/** Whether the chain's last certificate is signed by a root key (a chain that stops below its root). */
function safeVerify(cert: X509Certificate, rootSpki: Buffer): boolean {
  try {
    return cert.verify(createPublicKey({ key: rootSpki, format: 'der', type: 'spki' }));
  } catch {
    // A root key of another algorithm than the certificate's signature: not its issuer.
    return false;
  }
}
