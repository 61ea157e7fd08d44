import type { FastifyInstance } from 'fastify';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { VigilError } from '../errors.js';

/**
 * Request bodies sent with `Content-Encoding: gzip` (the Android library gzips its batches) are decompressed before
 * they are parsed. The route's body limit applies to the decompressed body, so a small zip bomb is answered 413 as
 * soon as its output passes the limit, without inflating the rest; a body that is not gzip is a 400. Other
 * encodings are a 415. Identity (or no header) passes through untouched.
 */
export function gunzipRequestBodies(app: FastifyInstance, defaultLimit: number): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const encoding = (request.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (encoding === '' || encoding === 'identity') return payload;
    if (encoding !== 'gzip') {
      throw new VigilError('unsupported_media_type', `Content-Encoding ${JSON.stringify(encoding)} is not supported; send gzip or identity`);
    }
    return gunzipped(payload, request.routeOptions.bodyLimit ?? defaultLimit);
  });
}

/** The decompressed body; `receivedEncodedLength` tells Fastify how many bytes came over the wire (Content-Length). */
function gunzipped(payload: Readable, limit: number): Readable {
  let encoded = 0;
  let decoded = 0;
  const gunzip = createGunzip();
  const out = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      decoded += chunk.length;
      if (decoded > limit) {
        callback(new VigilError('payload_too_large', `The decompressed body exceeds ${limit} bytes`));
        return;
      }
      callback(null, chunk);
    },
  }) as Transform & { receivedEncodedLength?: number };
  payload.on('data', (chunk: Buffer) => {
    encoded += chunk.length;
    out.receivedEncodedLength = encoded;
  });
  gunzip.on('error', (error) => out.destroy(new VigilError('validation_failed', `The body is not valid gzip: ${error.message}`)));
  // Stop inflating once the answer is decided (a bomb's remaining output is never produced).
  out.on('close', () => {
    payload.unpipe(gunzip);
    gunzip.destroy();
  });
  payload.pipe(gunzip).pipe(out);
  return out;
}
