import { readFileSync } from 'node:fs';
import { SecurityLevel } from '@peculiar/asn1-android';
import { describe, expect, it } from 'vitest';
import { attestationChain, attestedLeaf, der64, deviceKey, intermediateCa, rootCa } from '../test-support/device-keys.js';
import { verifyAttestation } from './attestation.js';
import { certificatesOfPem, trustedRoots } from './roots.js';

const DAY = 24 * 60 * 60 * 1000;
const challenge = Buffer.from('device-42', 'utf8');

async function setup(level = SecurityLevel.trustedEnvironment) {
  const key = deviceKey();
  const made = await attestationChain(key, challenge, level);
  return { key, ...made, roots: trustedRoots(made.rootPem) };
}

describe('verifyAttestation', () => {
  it("verifies a real device's chain to Google's shipped root: a TEE key, challenge `challenge`", () => {
    // google/android-key-attestation, server/src/test/resources/normal_cert_chain.pem (Apache 2.0): a KeyMint key
    // certified through remotely provisioned Droid CA3/CA2 up to Google's RSA root (its 2019 certificate, the
    // key shipped here). Its provisioned certificates were valid in March 2023.
    const certs = certificatesOfPem(readFileSync(new URL('./fixtures/google-tee-chain.pem', import.meta.url), 'utf8'));
    const input = {
      chain: certs.map((c) => c.raw.toString('base64')),
      publicKey: certs[0]!.publicKey.export({ type: 'spki', format: 'der' }),
      challenge: Buffer.from('challenge'),
      roots: trustedRoots(undefined),
      now: new Date('2023-03-01T00:00:00Z'),
    };
    expect(verifyAttestation(input)).toMatchObject({ level: 'hardware', problem: null });
    expect(verifyAttestation(input).chain.at(-1)!.issuer).toBe('serialNumber=f92009e853b6b045');
    expect(verifyAttestation({ ...input, challenge: Buffer.from('device-42') }).problem).toBe('wrong_challenge');
    expect(verifyAttestation({ ...input, now: new Date() }).problem).toBe('expired');
  });

  it('concludes hardware, StrongBox or software from a chain that verifies to a trusted root', async () => {
    for (const [level, expected] of [
      [SecurityLevel.trustedEnvironment, 'hardware'],
      [SecurityLevel.strongBox, 'strongbox'],
      [SecurityLevel.software, 'software'],
    ] as const) {
      const { key, chain, roots } = await setup(level);
      const result = verifyAttestation({ chain, publicKey: key.spki, challenge, roots, now: new Date() });
      expect(result).toMatchObject({ level: expected, problem: null });
      expect(result.chain).toHaveLength(3);
      expect(result.chain[0]!.subject).toContain('Android Keystore Key');
    }
  });

  it('trusts a chain that stops below a trusted root (the root left out)', async () => {
    const { key, chain, roots } = await setup();
    expect(verifyAttestation({ chain: chain.slice(0, 2), publicKey: key.spki, challenge, roots, now: new Date() }).level).toBe('hardware');
  });

  it('refuses a chain whose root is not trusted (Google roots only)', async () => {
    const { key, chain } = await setup();
    expect(verifyAttestation({ chain, publicKey: key.spki, challenge, roots: trustedRoots(undefined), now: new Date() })).toMatchObject({
      level: 'unverified',
      problem: 'wrong_root',
    });
  });

  it('refuses a broken chain: certificates out of order, or one signed by another issuer', async () => {
    const { key, chain, roots, root } = await setup();
    expect(verifyAttestation({ chain: [chain[0]!, chain[2]!, chain[1]!], publicKey: key.spki, challenge, roots, now: new Date() }).problem).toBe(
      'broken_chain',
    );
    // The same intermediate name, another key: the leaf's signature does not verify under it.
    const impostor = await intermediateCa(root);
    expect(verifyAttestation({ chain: [chain[0]!, der64(impostor.cert), chain[2]!], publicKey: key.spki, challenge, roots, now: new Date() }).problem).toBe(
      'broken_chain',
    );
  });

  it('refuses an expired certificate anywhere in the chain', async () => {
    const { key, roots, intermediate, chain } = await setup();
    const old = await attestedLeaf(intermediate, key, { challenge, notBefore: new Date(Date.now() - 30 * DAY), notAfter: new Date(Date.now() - DAY) });
    expect(verifyAttestation({ chain: [der64(old), chain[1]!, chain[2]!], publicKey: key.spki, challenge, roots, now: new Date() }).problem).toBe('expired');
    // A valid chain read at a time past its root's end.
    expect(verifyAttestation({ chain, publicKey: key.spki, challenge, roots, now: new Date(Date.now() + 400 * DAY) }).problem).toBe('expired');
  });

  it('refuses a wrong challenge, a missing extension, and a chain for another key', async () => {
    const { key, roots, intermediate, chain } = await setup();
    expect(verifyAttestation({ chain, publicKey: key.spki, challenge: Buffer.from('device-43'), roots, now: new Date() }).problem).toBe('wrong_challenge');
    const bare = await attestedLeaf(intermediate, key, { challenge, noExtension: true });
    expect(verifyAttestation({ chain: [der64(bare), chain[1]!, chain[2]!], publicKey: key.spki, challenge, roots, now: new Date() }).problem).toBe(
      'no_attestation_extension',
    );
    expect(verifyAttestation({ chain, publicKey: deviceKey().spki, challenge, roots, now: new Date() }).problem).toBe('key_not_attested');
  });

  it('concludes unverified for no chain or bytes that are not a certificate', async () => {
    const key = deviceKey();
    const roots = trustedRoots((await rootCa()).cert.toString('pem'));
    expect(verifyAttestation({ chain: [], publicKey: key.spki, challenge, roots, now: new Date() })).toMatchObject({
      level: 'unverified',
      problem: 'no_chain',
    });
    expect(verifyAttestation({ chain: ['AAAA'], publicKey: key.spki, challenge, roots, now: new Date() }).problem).toBe('malformed_certificate');
  });
});
