import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { readSignature, signatureHeaders } from '../binding/signature.js';
import type { DeviceSignature } from '../pipeline/event.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** SHA-256 (hex) of the body bytes as parsed, on routes that take device signatures. */
    bodySha256?: string;
  }
}

const EMPTY_SHA256 = createHash('sha256').digest('hex');

/**
 * A `preParsing` hook that hashes the body on its way to the JSON parser, for the device signature's body hash
 * (README, "Device binding"); the bytes are passed on unchanged, so the body is read once.
 */
export const bodyDigest: preParsingAsyncHookHandler = async (request, _reply, payload) => {
  // Most requests carry no device signature (every backend's, every browser's): they skip the hash and the extra stream.
  if (!Object.values(signatureHeaders).some((name) => request.headers[name] !== undefined)) return payload;
  const hash = createHash('sha256');
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      request.bodySha256 = hash.digest('hex');
      done();
    },
  });
  payload.on('error', (error) => tee.destroy(error));
  // A gzipped body (app-level hook, before this one) is checked against Content-Length by the bytes that came over
  // the wire, which the inflating stream counts: pass its count on, or every signed gzipped batch is a 400.
  Object.defineProperty(tee, 'receivedEncodedLength', { get: () => (payload as { receivedEncodedLength?: number }).receivedEncodedLength });
  return payload.pipe(tee);
};

/** The request's device signature headers, read against its path and body (null without them). */
export const deviceSignatureOf = (request: FastifyRequest): DeviceSignature | null => readSignature(request, request.bodySha256 ?? EMPTY_SHA256);
