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
}
