// @peculiar/x509 resolves its parts through tsyringe, which needs the metadata polyfill loaded first.
import 'reflect-metadata';
import { createHash, generateKeyPairSync, sign, webcrypto, type KeyObject } from 'node:crypto';
import { AuthorizationList, id_ce_keyDescription, KeyDescription, SecurityLevel, Version } from '@peculiar/asn1-android';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import * as x509 from '@peculiar/x509';
import { keyIdOf, signatureHeaders, signingInput } from '../binding/signature.js';

/**
 * Device keys and attestation-shaped chains for tests: real EC keys, and certificate chains built as Android's
 * Keystore builds them (root → intermediate → the key's own certificate with the key description extension).
 */
x509.cryptoProvider.set(webcrypto as never);

const EC_GEN = { name: 'ECDSA', namedCurve: 'P-256' };
const EC_SIGN = { name: 'ECDSA', hash: 'SHA-256' };
const DAY = 24 * 60 * 60 * 1000;

/** A device's key pair, as the Android library holds it. */
export interface TestDeviceKey {
  privateKey: KeyObject;
  /** SPKI DER. */
  spki: Buffer;
  keyId: string;
}

export function deviceKey(): TestDeviceKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  return { privateKey, spki, keyId: keyIdOf(spki) };
}

/** The three signature headers for a request, signed by `key` (the Android library's RequestSigner does the same). */
export function signedHeaders(key: TestDeviceKey, request: { method: string; path: string; body: string; time?: number }): Record<string, string> {
  const time = request.time ?? Math.floor(Date.now() / 1000);
  const input = signingInput({
    method: request.method,
    path: request.path,
    keyId: key.keyId,
    time,
    bodySha256: createHash('sha256').update(request.body).digest('hex'),
  });
  return {
    [signatureHeaders.keyId]: key.keyId,
    [signatureHeaders.time]: String(time),
    [signatureHeaders.signature]: sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'der' }).toString('base64'),
  };
}

export interface TestCa {
  keys: webcrypto.CryptoKeyPair;
  cert: x509.X509Certificate;
  name: string;
}

interface Validity {
  notBefore?: Date;
  notAfter?: Date;
}

const window = (v: Validity) => ({ notBefore: v.notBefore ?? new Date(Date.now() - DAY), notAfter: v.notAfter ?? new Date(Date.now() + 365 * DAY) });
let serial = 1;
const nextSerial = () => (serial++).toString(16).padStart(4, '0');

const caExtensions = () => [
  new x509.BasicConstraintsExtension(true, undefined, true),
  new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
];

export async function rootCa(name = 'CN=Vigil Test Attestation Root', validity: Validity = {}): Promise<TestCa> {
  const keys = (await webcrypto.subtle.generateKey(EC_GEN, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: nextSerial(),
    name,
    keys,
    signingAlgorithm: EC_SIGN,
    extensions: caExtensions(),
    ...window(validity),
  });
  return { keys, cert, name };
}

export async function intermediateCa(issuer: TestCa, name = 'CN=Vigil Test Attestation Intermediate', validity: Validity = {}): Promise<TestCa> {
  const keys = (await webcrypto.subtle.generateKey(EC_GEN, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: nextSerial(),
    subject: name,
    issuer: issuer.name,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    signingAlgorithm: EC_SIGN,
    extensions: caExtensions(),
    ...window(validity),
  });
  return { keys, cert, name };
}

/** The key description extension (1.3.6.1.4.1.11129.2.1.17) as KeyMint writes it, with the given challenge and level. */
export function keyDescriptionExtension(challenge: Buffer, level: SecurityLevel): x509.Extension {
  const description = new KeyDescription({
    attestationVersion: Version.keyMint2,
    attestationSecurityLevel: level,
    keymasterVersion: 200,
    keymasterSecurityLevel: level,
    attestationChallenge: new OctetString(challenge),
    uniqueId: new OctetString(new Uint8Array(0)),
    softwareEnforced: new AuthorizationList({ creationDateTime: Date.now() }),
    teeEnforced: new AuthorizationList({ algorithm: 3, keySize: 256, ecCurve: 1 }),
  });
  return new x509.Extension(id_ce_keyDescription, false, AsnConvert.serialize(description));
}

export interface LeafOptions extends Validity {
  challenge: Buffer;
  level?: SecurityLevel;
  /** Leave the extension out. */
  noExtension?: boolean;
}

/** The key's own certificate, signed by `issuer` (on a device: the Keystore's attestation key). */
export async function attestedLeaf(issuer: TestCa, key: TestDeviceKey, options: LeafOptions): Promise<x509.X509Certificate> {
  return x509.X509CertificateGenerator.create({
    serialNumber: '01',
    subject: 'CN=Android Keystore Key',
    issuer: issuer.name,
    publicKey: new Uint8Array(key.spki),
    signingKey: issuer.keys.privateKey,
    signingAlgorithm: EC_SIGN,
    extensions: options.noExtension ? [] : [keyDescriptionExtension(options.challenge, options.level ?? SecurityLevel.trustedEnvironment)],
    ...window(options),
  });
}

export const der64 = (cert: x509.X509Certificate) => Buffer.from(cert.rawData).toString('base64');

/** A whole chain for `key`, leaf first: leaf → intermediate → root, and the root's PEM for the trusted roots. */
export async function attestationChain(key: TestDeviceKey, challenge: Buffer, level = SecurityLevel.trustedEnvironment, issuedBy?: TestCa) {
  const root = issuedBy ?? (await rootCa());
  const intermediate = await intermediateCa(root);
  const leaf = await attestedLeaf(intermediate, key, { challenge, level });
  return { root, intermediate, leaf, chain: [leaf, intermediate.cert, root.cert].map(der64), rootPem: root.cert.toString('pem') };
}
