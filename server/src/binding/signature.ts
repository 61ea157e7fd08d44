import { createHash, createPublicKey, verify } from 'node:crypto';
import type { DeviceSignature } from '../pipeline/event.js';

/**
 * The request headers of device binding (README, "Device binding"). A bound device sends all three on every
 * registration change and every event batch.
 */
export const signatureHeaders = {
  keyId: 'vigil-device-key-id',
  time: 'vigil-signature-time',
  signature: 'vigil-device-signature',
} as const;

/** First line of the signing input: a signature over anything else never verifies as one of ours. */
export const SIGNING_SCHEME = 'vigil-device-signature-v1';

export interface SignedRequest {
  method: string;
  /** Path and query exactly as sent (`/devices/d1/register`). */
  path: string;
  keyId: string;
  /** Unix seconds, as in `Vigil-Signature-Time`. */
  time: number;
  /** SHA-256 of the body bytes, lower-case hex (of nothing for a request without a body). */
  bodySha256: string;
}

/**
 * The canonical signing input, one field a line: scheme, method, path with query, key id, time, body hash. The
 * Android library builds the same string (`RequestSigner.kt`); change both together.
 */
export function signingInput(r: SignedRequest): string {
  return [SIGNING_SCHEME, r.method.toUpperCase(), r.path, r.keyId, String(r.time), r.bodySha256].join('\n');
}

export const sha256Hex = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The key id of an SPKI: base64url SHA-256, unpadded (the `Vigil-Device-Key-Id` header). */
export const keyIdOf = (spki: Buffer) => createHash('sha256').update(spki).digest('base64url');

/** A request header's first value. */
function first(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The request's device signature, or null when it carries none of the headers. Headers present but malformed read
 * as a signature that verifies under no key (the request is then treated as a forged one, never as an unsigned one).
 */
export function readSignature(
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined> },
  bodySha256: string,
): DeviceSignature | null {
  const keyId = first(request.headers, signatureHeaders.keyId);
  const time = first(request.headers, signatureHeaders.time);
  const signature = first(request.headers, signatureHeaders.signature);
  if (keyId === undefined && time === undefined && signature === undefined) return null;
  const seconds = time !== undefined && /^\d{1,12}$/.test(time) ? Number(time) : Number.NaN;
  return {
    keyId: keyId ?? '',
    time: seconds,
    signature: signature !== undefined && BASE64.test(signature) ? Buffer.from(signature, 'base64') : Buffer.alloc(0),
    signedInput: signingInput({ method: request.method, path: request.url, keyId: keyId ?? '', time: seconds, bodySha256 }),
  };
}

/** Whether the signature is by the key whose SPKI (base64 DER) is given, over the signing input it names. */
export function verifiedBy(signature: DeviceSignature, publicKeyBase64: string): boolean {
  if (!Number.isFinite(signature.time) || signature.signature.length === 0) return false;
  const spki = Buffer.from(publicKeyBase64, 'base64');
  if (signature.keyId !== keyIdOf(spki)) return false;
  try {
    const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    return verify('sha256', Buffer.from(signature.signedInput, 'utf8'), { key, dsaEncoding: 'der' }, signature.signature);
  } catch {
    // A stored key always parses; a signature that is not DER ECDSA simply does not verify.
    return false;
  }
}
