import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { rootCa } from '../test-support/device-keys.js';
import { GOOGLE_ATTESTATION_ROOTS } from './google-roots.js';
import { trustedRoots } from './roots.js';

describe('attestation roots', () => {
  it("ships Google's roots intact: each is self-signed, two of them one RSA key, one a P-384 key", () => {
    const certs = GOOGLE_ATTESTATION_ROOTS.map((b64) => new X509Certificate(Buffer.from(b64.replace(/\s+/g, ''), 'base64')));
    for (const cert of certs) expect(cert.verify(cert.publicKey)).toBe(true);
    expect(certs.map((c) => c.serialNumber)).toEqual(['E8FA196314D2FA18', 'F1C172A699EAF51D', '84A9D0297B0EB58AE7FF0E80DE760605']);
    expect(certs[0]!.publicKey.equals(certs[1]!.publicKey)).toBe(true);
    expect(certs[2]!.publicKey.asymmetricKeyDetails?.namedCurve).toBe('secp384r1');
    expect(trustedRoots(undefined).keys).toHaveLength(3);
  });

  it('adds VIGIL_ATTESTATION_EXTRA_ROOTS given as PEM text or as a file', async () => {
    const pem = (await rootCa()).cert.toString('pem');
    expect(trustedRoots(pem).keys).toHaveLength(4);
    const file = join(mkdtempSync(join(tmpdir(), 'vigil-roots-')), 'roots.pem');
    writeFileSync(file, pem + (await rootCa()).cert.toString('pem'));
    expect(trustedRoots(file).keys).toHaveLength(5);
  });

  it('refuses extra roots that hold no certificate or cannot be read', () => {
    expect(() => trustedRoots('/nonexistent/roots.pem')).toThrow(ConfigError);
    expect(() => trustedRoots('-----BEGIN NOTHING-----')).toThrow(ConfigError);
  });
});
