import { isIP } from 'node:net';
import { VigilError } from '../errors.js';
import type { EventInput } from './schema.js';
import { limits } from './limits.js';
import type { NormalizedEvent, RequestContext } from '../pipeline/event.js';
import type { Warning } from '../pipeline/insights.js';

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) is the same client as 1.2.3.4. */
export function normalizeIp(ip: string): string | null {
  const trimmed = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  const candidate = mapped ? mapped[1]! : trimmed;
  return isIP(candidate) ? candidate.toLowerCase() : null;
}

export function normalizeEvent(input: EventInput, ctx: RequestContext, now: Date = new Date()): NormalizedEvent {
  const properties = (input.properties ?? {}) as Record<string, unknown> & NonNullable<EventInput['properties']>;
  const warnings: Warning[] = [];

  const headerKey = ctx.idempotencyKey;
  if (headerKey !== undefined && properties.event_id !== undefined && headerKey !== properties.event_id) {
    throw new VigilError('validation_failed', 'Idempotency-Key header and properties.event_id differ', {
      errors: [{ path: 'properties.event_id', message: 'must equal the Idempotency-Key header when both are given' }],
    });
  }
  if (headerKey !== undefined && (headerKey.length === 0 || headerKey.length > limits.idMax)) {
    throw new VigilError('validation_failed', `Idempotency-Key must be 1 to ${limits.idMax} characters`, {
      errors: [{ path: 'Idempotency-Key', message: `must be 1 to ${limits.idMax} characters` }],
    });
  }

  let occurredAt = now;
  if (properties.timestamp !== undefined) {
    occurredAt = new Date(properties.timestamp);
    // The sender's clock error, as analytics pipelines correct it: the request left at sent_at by the same clock
    // that stamped the event, and arrived now by ours.
    const sentAt = input.sent_at ?? ctx.sentAt;
    if (sentAt !== undefined) occurredAt = new Date(occurredAt.getTime() + (now.getTime() - Date.parse(sentAt)));
    const path = 'properties.timestamp';
    if (occurredAt.getTime() > now.getTime() + limits.futureSkewMs) {
      throw new VigilError('validation_failed', 'timestamp is more than 5 minutes in the future', {
        errors: [{ path, message: 'must not be more than 5 minutes in the future' }],
      });
    }
    if (occurredAt.getTime() < limits.earliestTimestamp) {
      throw new VigilError('validation_failed', 'timestamp is before 2000-01-01', {
        errors: [{ path, message: 'must not be before 2000-01-01T00:00:00Z' }],
      });
    }
  }

  let ip = normalizeIp(ctx.ip);
  const claimed = properties.ip_address ?? properties.ip;
  if (claimed !== undefined) {
    if (ctx.keyKind === 'client') {
      warnings.push({ code: 'ip_address_ignored', message: 'ip_address is only honoured from write keys; the connecting address was used' });
    } else {
      const parsed = normalizeIp(claimed);
      if (parsed) ip = parsed;
      else {
        ip = null;
        warnings.push({ code: 'invalid_ip_address', message: `ip_address ${JSON.stringify(claimed)} is not an IPv4 or IPv6 address; it was ignored` });
      }
    }
  }

  return {
    name: input.event,
    identity: input.identity ?? null,
    properties,
    deviceId: properties.device_id ?? null,
    sessionId: properties.session_id ?? null,
    ip,
    userAgent: properties.user_agent ?? ctx.userAgent ?? null,
    // A backend forwards its end user's language here, as it does the user agent: the connection's is the backend's.
    acceptLanguage: properties.accept_language ?? ctx.acceptLanguage ?? null,
    email: properties.email ?? null,
    phone: properties.phone ?? null,
    model: properties.device_model ?? null,
    osVersion: properties.os_version ?? null,
    idempotencyKey: headerKey ?? properties.event_id ?? null,
    occurredAt,
    receivedAt: now,
    warnings,
    forwarding: claimed === undefined || ctx.keyKind === 'client' ? (ctx.forwarding ?? null) : null,
    deviceSignature: { signature: ctx.deviceSignature ?? null, clientKey: ctx.keyKind === 'client' },
  };
}
