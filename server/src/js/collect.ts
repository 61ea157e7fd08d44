import type { HandprintFeatures } from '../handprint/match/features.js';
import { normalizeComponents } from '../handprint/match/normalize.js';
import { resolveHandprint, type HandprintStore } from '../handprint/match/service.js';
import type { MatchResult } from '../handprint/match/match.js';
import { signBrowserToken } from '../handprint/token/sign.js';
import type { KeyRing } from '../handprint/token/types.js';
import { fieldsValidationError, type VigilError } from '../errors.js';
import { parseCollectRequest, type CollectRequest } from './schemas.js';

export interface CollectDeps {
  store: HandprintStore;
  keys: KeyRing;
  /** Server secret for handprint ids and lookup keys. */
  salt: string;
  now(): number;
  randomBytes(length: number): Uint8Array;
  tokenTtlSeconds?: number;
}

export interface CollectInput {
  /** Parsed JSON body (the route has already enforced content type and the byte limit). */
  body: unknown;
  origin?: string | null;
  userAgent?: string | null;
}

export interface CollectResponseBody {
  handprint_id: string;
  device_id: string;
  confidence: number;
  is_new_handprint: boolean;
  browser_token: string;
  expires_at: string;
}

export type CollectOutcome =
  | {
      status: 200;
      body: CollectResponseBody;
      /** For the server to keep (e.g. device_signals with the device, the match for audit); not sent to the browser. */
      request: CollectRequest;
      features: HandprintFeatures;
      match: MatchResult;
    }
  | { status: 400; error: VigilError };

/** The body as a collection, validated once by its schema. */
export function readCollection(body: unknown): { ok: true; request: CollectRequest } | { ok: false; error: VigilError } {
  const parsed = parseCollectRequest(body);
  return parsed.ok ? { ok: true, request: parsed.value } : { ok: false, error: fieldsValidationError(parsed.errors) };
}

/** POST /js/collect without the framework: validate, normalize, match, sign. */
export async function handleCollect(input: CollectInput, deps: CollectDeps): Promise<CollectOutcome> {
  const read = readCollection(input.body);
  return read.ok ? resolveCollection(read.request, input, deps) : { status: 400, error: read.error };
}

/** A read collection matched against the stored handprints and answered with a signed token. */
export async function resolveCollection(request: CollectRequest, input: Omit<CollectInput, 'body'>, deps: CollectDeps): Promise<CollectOutcome> {
  const now = deps.now();
  const features = normalizeComponents(request.components, { userAgent: input.userAgent ?? null });
  const match = await resolveHandprint(deps.store, features, { now, salt: deps.salt, deviceId: request.device_id });
  const { token, claims } = signBrowserToken(
    { handprint_id: match.handprint_id, device_id: request.device_id, confidence: match.confidence, origin: input.origin ?? null },
    { keys: deps.keys, now, randomBytes: deps.randomBytes, ...(deps.tokenTtlSeconds ? { ttlSeconds: deps.tokenTtlSeconds } : {}) },
  );
  return {
    status: 200,
    body: {
      handprint_id: match.handprint_id,
      device_id: request.device_id,
      confidence: match.confidence,
      is_new_handprint: match.is_new,
      browser_token: token,
      expires_at: new Date(claims.exp * 1000).toISOString(),
    },
    request,
    features,
    match,
  };
}
