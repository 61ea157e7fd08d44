import { describe, expect, it } from 'vitest';
import { deviceKey, signedHeaders } from '../test-support/device-keys.js';
import { readSignature, sha256Hex, signingInput, verifiedBy } from './signature.js';

const request = (headers: Record<string, string>, url = '/events/batch', method = 'POST') => ({ method, url, headers });

describe('device request signatures', () => {
  const key = deviceKey();
  const body = '{"events":[{"event":"login"}]}';
  const publicKey = key.spki.toString('base64');

  it('documents the canonical signing input: one field a line', () => {
    expect(signingInput({ method: 'post', path: '/devices/d1/register', keyId: 'k1', time: 1700000000, bodySha256: 'ab' })).toBe(
      'vigil-device-signature-v1\nPOST\n/devices/d1/register\nk1\n1700000000\nab',
    );
  });

  it('verifies a request signed by the key, and nothing else', () => {
    const headers = signedHeaders(key, { method: 'POST', path: '/events/batch', body });
    const signature = readSignature(request(headers), sha256Hex(body))!;
    expect(verifiedBy(signature, publicKey)).toBe(true);
    // Another body, path or method; another key; a key id that is not this key's.
    expect(verifiedBy(readSignature(request(headers), sha256Hex(`${body} `))!, publicKey)).toBe(false);
    expect(verifiedBy(readSignature(request(headers, '/events'), sha256Hex(body))!, publicKey)).toBe(false);
    expect(verifiedBy(readSignature(request(headers, '/events/batch', 'PUT'), sha256Hex(body))!, publicKey)).toBe(false);
    expect(verifiedBy(signature, deviceKey().spki.toString('base64'))).toBe(false);
    const other = deviceKey();
    expect(verifiedBy(readSignature(request(signedHeaders(other, { method: 'POST', path: '/events/batch', body })), sha256Hex(body))!, publicKey)).toBe(false);
  });

  it('reads no headers as unsigned, and malformed ones as a signature that never verifies', () => {
    expect(readSignature(request({}), sha256Hex(body))).toBeNull();
    const headers = signedHeaders(key, { method: 'POST', path: '/events/batch', body });
    for (const broken of <Record<string, string>[]>[
      { ...headers, 'vigil-signature-time': 'yesterday' },
      { ...headers, 'vigil-device-signature': '***' },
      { 'vigil-device-key-id': key.keyId },
    ]) {
      const signature = readSignature(request(broken), sha256Hex(body));
      expect(signature).not.toBeNull();
      expect(verifiedBy(signature!, publicKey)).toBe(false);
    }
  });
});
