import { preparedRows, sql } from '../db/statement.js';
import type { DatabaseHandle, Queryable } from '../db/handle.js';
import { newId } from '../ids.js';
import { retryDelayMs, type BackoffPolicy } from './backoff.js';
import { WEBHOOKS_CHANNEL } from './outbox.js';
import type { SendResult, WebhookSender } from './sender.js';

export interface DeliveryOptions {
  database: DatabaseHandle;
  sender: WebhookSender;
  /** Attempts before a message is dead-lettered (VIGIL_WEBHOOK_MAX_ATTEMPTS). */
  maxAttempts: number;
  backoff: BackoffPolicy;
  /** Messages this process sends at once (VIGIL_WEBHOOK_WORKERS); 0: it delivers none (`start` does nothing). */
  concurrency: number;
  /** How often due messages are looked for without a notification (retries fall due without one). */
  pollMs: number;
  /** A claimed message is due again after this: a process killed mid-delivery leaves it to another. */
  leaseMs: number;
  log: { warn(obj: object, msg: string): void };
}

interface Claimed {
  id: string;
  subscription_id: string;
  body: string;
  attempts: number;
  status: string;
  url: string | null;
  secret: string | null;
  enabled: boolean | null;
}

const MESSAGE_FIELDS = sql`m.id, m.subscription_id, m.payload::text AS body, m.attempts, m.status, s.url, s.secret, s.enabled`;

/**
 * Delivers the outbox, at least once. Any process may: due messages are claimed in one statement (`FOR UPDATE SKIP
 * LOCKED`, so processes never claim the same row) that moves them a lease ahead and counts the attempt; the answer
 * is recorded with the attempt's log row in one transaction. A process killed between the claim and the record
 * leaves the message due again when the lease lapses; killed before the claim (or before the commit of the change),
 * it leaves the row exactly as the commit wrote it, for whichever process polls next.
 */
export class WebhookDelivery {
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly options: DeliveryOptions) {}

  async start(): Promise<void> {
    if (this.options.concurrency === 0) return;
    try {
      this.unlisten = await this.options.database.listen(
        WEBHOOKS_CHANNEL,
        (payload) => payload === 'message' && this.kick(),
        (error) => this.options.log.warn({ err: error }, 'webhooks: message channel lost; polling only'),
      );
    } catch (error) {
      this.options.log.warn({ err: error }, 'webhooks: cannot listen for new messages; polling only');
    }
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Looks for due messages now (again after the current round, when one is running). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => undefined)
      .catch((error) => this.options.log.warn({ err: error }, 'webhooks: delivery round failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Delivers due messages until none is left; returns how many attempts were made. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.claim(this.options.concurrency);
      if (claimed.length === 0) return total;
      await Promise.all(claimed.map((m) => this.deliver(m)));
      total += claimed.length;
      if (this.stopped) return total;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.unlisten?.();
    await this.running;
  }

  private claim(limit: number): Promise<Claimed[]> {
    return preparedRows<Claimed>(
      this.options.database.db,
      sql`WITH due AS (
          SELECT id FROM webhook_messages WHERE status = 'pending' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED),
        claimed AS (
          UPDATE webhook_messages m SET attempts = m.attempts + 1, next_attempt_at = now() + ${this.options.leaseMs} * interval '1 millisecond'
          FROM due WHERE m.id = due.id RETURNING m.*)
        SELECT ${MESSAGE_FIELDS} FROM claimed m LEFT JOIN webhook_subscriptions s ON s.id = m.subscription_id`,
    );
  }

  private async deliver(message: Claimed): Promise<void> {
    if (!message.enabled || message.url === null || message.secret === null) {
      // Its subscription was disabled or deleted after the message was written: nothing is sent.
      await preparedRows(this.options.database.db, sql`UPDATE webhook_messages SET status = 'cancelled', attempts = attempts - 1 WHERE id = ${message.id}`);
      return;
    }
    const result = await this.options.sender.send(message.url, message.secret, message.id, message.body);
    await this.record(message, result, 'auto');
  }

  /**
   * Sends a message again now, whatever its state (an operator's redelivery from GraphQL, the CLI or the console),
   * with the same `webhook-id`, so a receiver that had it already can tell. Success marks it delivered; a failure
   * leaves a pending message on its schedule and a dead one dead. Null when there is no such message.
   */
  async redeliver(messageId: string): Promise<SendResult | null> {
    const [message] = await preparedRows<Claimed>(
      this.options.database.db,
      sql`SELECT ${MESSAGE_FIELDS} FROM webhook_messages m LEFT JOIN webhook_subscriptions s ON s.id = m.subscription_id WHERE m.id = ${messageId}`,
    );
    if (!message) return null;
    if (message.url === null || message.secret === null) {
      return { status: null, durationMs: 0, retryAfterMs: null, error: 'its subscription was deleted' };
    }
    const result = await this.options.sender.send(message.url, message.secret, message.id, message.body);
    await this.record({ ...message, attempts: message.attempts + 1 }, result, 'manual');
    return result;
  }

  private async record(message: Claimed, result: SendResult, trigger: 'auto' | 'manual'): Promise<void> {
    const { status } = result;
    const ok = status !== null && status >= 200 && status < 300;
    const gone = status === 410;
    const db = this.options.database.db;
    await db.transaction(async (tx) => {
      await preparedRows(
        tx,
        sql`INSERT INTO webhook_attempts (id, message_id, subscription_id, attempt, status, duration_ms, error, trigger)
          VALUES (${newId('wha')}, ${message.id}, ${message.subscription_id}, ${message.attempts}, ${status}, ${result.durationMs}, ${result.error}, ${trigger})`,
      );
      await this.settle(tx, message, result, ok, gone, trigger);
      if (gone) {
        // 410 Gone: the receiver says the endpoint is no more. Nothing further is sent to it until re-enabled.
        await preparedRows(
          tx,
          sql`UPDATE webhook_subscriptions SET enabled = false, disabled_reason = 'gone', updated_at = now() WHERE id = ${message.subscription_id}`,
        );
      }
    });
  }

  private async settle(tx: Queryable, message: Claimed, result: SendResult, ok: boolean, gone: boolean, trigger: 'auto' | 'manual'): Promise<void> {
    const id = message.id;
    const status = result.status;
    if (ok) {
      await preparedRows(
        tx,
        sql`UPDATE webhook_messages SET status = 'delivered', delivered_at = now(), last_status = ${status}, attempts = ${message.attempts} WHERE id = ${id}`,
      );
    } else if (gone) {
      await preparedRows(tx, sql`UPDATE webhook_messages SET status = 'cancelled', last_status = ${status}, attempts = ${message.attempts} WHERE id = ${id}`);
    } else if (trigger === 'manual') {
      await preparedRows(tx, sql`UPDATE webhook_messages SET last_status = ${status}, attempts = ${message.attempts} WHERE id = ${id}`);
    } else if (message.attempts >= this.options.maxAttempts) {
      await preparedRows(tx, sql`UPDATE webhook_messages SET status = 'dead', last_status = ${status} WHERE id = ${id}`);
    } else {
      const delay = retryDelayMs(message.attempts, this.options.backoff, result.retryAfterMs);
      await preparedRows(
        tx,
        sql`UPDATE webhook_messages SET last_status = ${status}, next_attempt_at = now() + ${delay} * interval '1 millisecond' WHERE id = ${id}`,
      );
    }
  }
}
