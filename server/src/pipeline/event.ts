import type { Warning } from './insights.js';

/** Proxy headers of the request that carried an event, when that request came from the end user's device. */
export interface ForwardingEvidence {
  /** The socket's peer address. */
  peer: string;
  via?: string;
  forwarded?: string;
  xForwardedFor?: string;
}

/** What the HTTP edge knows about the request that carried the event. */
export interface RequestContext {
  /** Connecting address, already resolved through trusted proxies. */
  ip: string;
  userAgent: string | undefined;
  acceptLanguage: string | undefined;
  /** `Idempotency-Key` header, single-event route only. */
  idempotencyKey: string | undefined;
  /** The authenticated key; idempotency is scoped to it. */
  keyId: string;
  /** Client keys sit in untrusted code, so they may not claim another IP. */
  keyKind: 'write' | 'client';
  /** Proxy headers of the request (network intelligence reads them when the request is the user's own). */
  forwarding?: ForwardingEvidence;
  /** A batch's `sent_at` (sender's clock), for the events that carry none of their own. */
  sentAt?: string;
  /** The request's device signature headers, when it carried them (README, "Device binding"). */
  deviceSignature?: DeviceSignature;
}

/**
 * A request's device signature as the HTTP edge read it, not yet verified: only the device's registered key can
 * tell, and the binding stage checks it against that key for each event naming a bound device.
 */
export interface DeviceSignature {
  /** `Vigil-Device-Key-Id`: base64url SHA-256 of the signing key's SPKI. */
  keyId: string;
  /** `Vigil-Signature-Time`, Unix seconds by the device's clock. */
  time: number;
  /** `Vigil-Device-Signature`: ECDSA P-256 SHA-256, DER. */
  signature: Buffer;
  /** The canonical signing input the device signed, rebuilt from the request. */
  signedInput: string;
}

/** An event after validation, with magic properties pulled out; this is what gets stored and evaluated. */
export interface NormalizedEvent {
  name: string;
  identity: string | null;
  properties: Record<string, unknown>;
  deviceId: string | null;
  sessionId: string | null;
  ip: string | null;
  userAgent: string | null;
  acceptLanguage: string | null;
  email: string | null;
  phone: string | null;
  model: string | null;
  osVersion: string | null;
  idempotencyKey: string | null;
  occurredAt: Date;
  receivedAt: Date;
  warnings: Warning[];
  /** The request's proxy headers, only when the event's IP is the connection's (not a claimed ip_address). */
  forwarding?: ForwardingEvidence | null;
  /** A handprint established elsewhere (a verified browser_token); it wins over the server-side one. */
  handprintId?: string | null;
  /** The request's device signature, and whether a client key sent it (only those are held to the binding). */
  deviceSignature?: { signature: DeviceSignature | null; clientKey: boolean };
}
