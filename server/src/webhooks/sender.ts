import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { BlockedAddressError, guardedLookup, isPublicAddress, literalAddress } from './address-guard.js';
import { parseRetryAfter } from './backoff.js';
import { causeWhere } from '../errors.js';

/** What one HTTP attempt came to; `status` null when no answer came. */
export interface SendResult {
  status: number | null;
  durationMs: number;
  retryAfterMs: number | null;
  error: string | null;
}

export interface SenderOptions {
  /** VIGIL_WEBHOOK_ALLOW_PRIVATE: send to private, loopback and link-local addresses too. */
  allowPrivate: boolean;
  /** Connect, headers and body each, and the whole request. */
  timeoutMs: number;
}

/** Bytes of an error answer kept in the delivery log. */
const KEPT_BODY = 512;

/**
 * Sends one signed message (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`, signed with
 * the `standardwebhooks` library). undici's agent connects to the address the guarded lookup checked, so the
 * server-side request forgery check holds after DNS resolution, at every attempt. Redirects are not followed: a
 * 3xx is a failed attempt (following one would send the payload somewhere that was never checked).
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(options.allowPrivate), timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  async send(url: string, secret: string, messageId: string, body: string, now: Date = new Date()): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      // An IP literal is connected to without a lookup, so it is checked here.
      const literal = literalAddress(new URL(url).hostname);
      if (literal && !this.options.allowPrivate && !isPublicAddress(literal)) throw new BlockedAddressError(literal, literal);
      const response = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Vigil-Webhooks/1',
          'webhook-id': messageId,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': new Webhook(secret).sign(messageId, now, body),
        },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const kept = await firstBytes(response.body);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        status: response.statusCode,
        durationMs: elapsed(),
        retryAfterMs: parseRetryAfter(response.headers['retry-after']),
        error: ok ? null : kept || null,
      };
    } catch (error) {
      return { status: null, durationMs: elapsed(), retryAfterMs: null, error: describe(error) };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

async function firstBytes(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the stream: a receiver answering a huge body costs only what is kept.
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= KEPT_BODY) break;
  }
  return Buffer.concat(chunks).subarray(0, KEPT_BODY).toString('utf8');
}

/** A failure without an answer, in words for the delivery log (never a stack). */
function describe(error: unknown): string {
  const blocked = causeWhere(error, (e) => e instanceof BlockedAddressError || (e as { code?: string }).code === 'EWEBHOOKBLOCKED');
  if (blocked) return `blocked: ${blocked.message}`;
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return [e.code ?? e.cause?.code, e.message ?? String(error)].filter(Boolean).join(': ').slice(0, KEPT_BODY);
}
