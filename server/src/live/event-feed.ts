import { sql } from 'drizzle-orm';
import type { DatabaseHandle, Queryable } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { VigilError } from '../errors.js';
import type { IngestObserver } from '../ingest/ingestor.js';
import type { StoredOutcome } from '../ingest/store.js';
import type { QuietWrites } from '../pipeline/fact-cache.js';
import type { EventFilter } from '../reporting/event-filter.js';
import type { EventSummary } from '../reporting/events.js';
import { matchNewEvents } from './new-events.js';
import { LiveSubscription } from './subscription.js';

/** NOTIFY channel carrying the ids of newly stored events, comma-separated, between Vigil processes. */
export const EVENT_ADDED_CHANNEL = 'vigil_event_added';
// NOTIFY payloads must stay under 8,000 bytes.
const PAYLOAD_MAX = 7_500;
/** Ids read per statement while delivering. */
const READ_BATCH = 500;
/**
 * How far before the moment a lost channel was noticed the catch-up reads: a connection can be dead a while before
 * the driver says so, and another process's clock (it sets `received_at`) may run a little behind this one's.
 */
const CATCH_UP_MARGIN_MS = 30_000;
/** Ids delivered lately, remembered so that neither a catch-up's margin nor a late announcement delivers one twice. */
const RECENT_IDS = 20_000;

export interface EventFeedOptions {
  database: DatabaseHandle;
  maxSubscriptions: number;
  maxPerAccount: number;
  maxQueue: number;
  /**
   * How long stored events wait to be announced together (VIGIL_LIVE_ANNOUNCE_MS). At a steady rate most events are
   * commits of their own, and one NOTIFY per commit was a transaction and a WAL flush per event.
   */
  announceEveryMs: number;
  /**
   * Told of each announcement's transaction before it commits: a NOTIFY takes a transaction id, and one the fact
   * cache did not know of would end its proofs (FactCache.apart).
   */
  quiet?: QuietWrites;
}

export interface FeedLog {
  warn(object: unknown, message: string): void;
  info(message: string): void;
}

interface Entry {
  account: string;
  filter: EventFilter;
  key: string;
  subscription: LiveSubscription<EventSummary>;
}

/**
 * The live feed behind `eventAdded`. Every event stored (in any process) is announced by id after its commit: on
 * PostgreSQL with NOTIFY on EVENT_ADDED_CHANNEL, which every process LISTENs to (its own included); on PGlite, the
 * one process, directly. A process with subscribers reads the announced events once per batch, with each distinct
 * filter as one boolean column (see matchNewEvents), and hands each subscriber what its filter matches.
 */
export class EventFeed implements Pick<IngestObserver, 'stored'> {
  private readonly entries = new Set<Entry>();
  private readonly perAccount = new Map<string, number>();
  private toAnnounce: string[] = [];
  private announcing: NodeJS.Timeout | undefined;
  private announced: Promise<void> = Promise.resolve();
  private incoming: string[] = [];
  private delivering = false;
  private unlisten: (() => Promise<void>) | undefined;
  private log: FeedLog = { warn: () => {}, info: () => {} };
  /** When the channel was lost (this process's clock), until the catch-up after it is restored has run. */
  private lostAt: number | undefined;
  private readonly recent = new Set<string>();

  constructor(private readonly options: EventFeedOptions) {}

  /**
   * LISTENs for other processes' events (PostgreSQL); a lost channel is re-made by the database handle, and what
   * was stored while it was away is then read by its received time and delivered (see catchUp).
   */
  async start(log: FeedLog): Promise<void> {
    this.log = log;
    if (this.options.database.driver !== 'postgres') return;
    this.unlisten = await this.options.database.listen(
      EVENT_ADDED_CHANNEL,
      (payload) => this.arrived(payload.split(',').filter(Boolean)),
      (error) => {
        this.lostAt ??= Date.now();
        this.log.warn({ err: error }, 'live feed channel lost; events stored meanwhile are delivered once it is back');
      },
      () => {
        this.log.info('live feed channel restored');
        void this.catchUp();
      },
    );
  }

  /**
   * The events received since shortly before the channel was lost, except those already delivered, in received
   * order. More than a subscriber may hold ends every subscription as too slow (as `arrived` does), rather than
   * reading without bound; a failed read is retried by the next restore only, and logged.
   */
  private async catchUp(): Promise<void> {
    const since = this.lostAt;
    this.lostAt = undefined;
    if (since === undefined || this.entries.size === 0) return;
    const limit = this.options.maxQueue * 10 + 1;
    try {
      const found = await rows<{ id: string }>(
        this.options.database.db,
        sql`SELECT id FROM events WHERE received_at >= ${new Date(since - CATCH_UP_MARGIN_MS).toISOString()}::timestamptz
            ORDER BY received_at, id LIMIT ${limit}`,
      );
      const missed = this.arrived(found.map((r) => r.id));
      this.log.info(`live feed caught up ${missed} events stored while its channel was away`);
    } catch (error) {
      this.log.warn({ err: error }, 'live feed could not read the events stored while its channel was away');
    }
  }

  async stop(): Promise<void> {
    for (const entry of [...this.entries]) entry.subscription.end();
    // What this process stored is announced before it goes: other processes' subscribers are waiting for it.
    await this.flush();
    await this.unlisten?.();
  }

  /** Announces now what waits to be announced, and resolves once every announcement so far is made (or failed). */
  async flush(): Promise<void> {
    if (this.announcing) this.announceNow();
    await this.announced;
  }

  /** Ingestion's observer: called once an event is committed (a replay stored nothing new). */
  stored(outcome: StoredOutcome): void {
    if (outcome.replayed) return;
    if (this.options.database.driver !== 'postgres') {
      this.arrived([outcome.insights.event_id]);
      return;
    }
    this.toAnnounce.push(outcome.insights.event_id);
    if (this.announcing) return;
    // One NOTIFY (per 7.5 kB of ids) for the commits of announceEveryMs. Not in the commits themselves: a
    // transaction that NOTIFYs holds PostgreSQL's one notify lock through its WAL flush, so ingest commits would go one
    // at a time across every process, and a full notification queue would fail ingestion.
    this.announcing = setTimeout(() => this.announceNow(), this.options.announceEveryMs);
  }

  private announceNow(): void {
    clearTimeout(this.announcing);
    this.announcing = undefined;
    const ids = this.toAnnounce;
    this.toAnnounce = [];
    this.announced = this.announced.then(() => this.announce(ids));
  }

  private async announce(ids: string[]): Promise<void> {
    const payloads: string[] = [];
    let chunk = '';
    for (const id of ids) {
      if (chunk.length + id.length + 1 > PAYLOAD_MAX) {
        payloads.push(chunk);
        chunk = '';
      }
      chunk = chunk ? `${chunk},${id}` : id;
    }
    if (chunk) payloads.push(chunk);
    if (payloads.length === 0) return;
    const notify = async (db: Queryable) => {
      for (const payload of payloads) await db.execute(sql`SELECT pg_notify(${EVENT_ADDED_CHANNEL}, ${payload})`);
    };
    const { quiet } = this.options;
    const leave = quiet?.enter();
    try {
      // One transaction (one id) for all of them. Where a fact cache proves its facts by transaction ids, it is told
      // the id before the commit.
      if (!quiet && payloads.length === 1) await notify(this.options.database.db);
      else {
        await this.options.database.db.transaction(async (tx) => {
          if (quiet) {
            const [taken] = await rows<{ xid: string }>(tx, sql`SELECT pg_current_xact_id()::text AS xid`);
            quiet.apart(taken ? BigInt(taken.xid) : undefined);
          }
          await notify(tx);
        });
      }
    } catch (error) {
      // Its id, told before the commit, is no longer known to be fact-free: the server may have lost it.
      quiet?.lost();
      // The events are stored and answered; only live subscribers miss them.
      this.log.warn({ err: error }, 'could not announce new events to the live feed');
    } finally {
      leave?.();
    }
  }

  /**
   * A new subscription of `account` with `filter`; refused with `rate_limited` beyond the per-account or
   * per-process limit. `onSlow` is told when the subscriber falls more than maxQueue events behind.
   */
  subscribe(account: string, filter: EventFilter, onSlow: (message: string) => void): LiveSubscription<EventSummary> {
    const { maxSubscriptions, maxPerAccount, maxQueue } = this.options;
    const held = this.perAccount.get(account) ?? 0;
    if (held >= maxPerAccount) {
      throw new VigilError(
        'rate_limited',
        `This account already holds ${held} live subscriptions in this process; the limit is ${maxPerAccount} (VIGIL_LIVE_MAX_SUBSCRIPTIONS_PER_ACCOUNT)`,
      );
    }
    if (this.entries.size >= maxSubscriptions) {
      throw new VigilError(
        'rate_limited',
        `This server already serves ${this.entries.size} live subscriptions; the limit is ${maxSubscriptions} (VIGIL_LIVE_MAX_SUBSCRIPTIONS)`,
        {
          headers: { 'Retry-After': '30' },
        },
      );
    }
    const entry: Entry = {
      account,
      filter,
      key: JSON.stringify(filter, Object.keys(filter).sort()),
      subscription: new LiveSubscription<EventSummary>(
        maxQueue,
        () => {
          this.entries.delete(entry);
          const n = (this.perAccount.get(account) ?? 1) - 1;
          if (n > 0) this.perAccount.set(account, n);
          else this.perAccount.delete(account);
        },
        onSlow,
      ),
    };
    this.entries.add(entry);
    this.perAccount.set(account, held + 1);
    return entry.subscription;
  }

  /** Subscriptions now open (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Takes in stored events for the subscribers, less those already delivered, and says how many that left: a
   * catch-up's margin reads events delivered before the channel was lost, and an announcement may come after a
   * catch-up read already delivered its events (the NOTIFY of events stored just before the loss). Delivery is at most
   * once.
   */
  private arrived(announced: string[]): number {
    if (this.entries.size === 0) return 0;
    const ids = announced.filter((id) => !this.recent.has(id));
    if (ids.length === 0) return 0;
    for (const id of ids) this.remember(id);
    this.incoming.push(...ids);
    if (this.incoming.length > this.options.maxQueue * 10) {
      // The reads cannot keep up with ingestion: rather than grow without bound, every subscriber starts again.
      this.incoming = [];
      this.log.warn({ subscriptions: this.entries.size }, 'live feed behind ingestion; every subscription ended');
      for (const entry of [...this.entries]) entry.subscription.fallBehind('Slow feed: this server reads new events slower than they are stored');
      return ids.length;
    }
    if (!this.delivering) void this.deliver();
    return ids.length;
  }

  private remember(id: string): void {
    this.recent.add(id);
    // A Set iterates in insertion order: the first is the oldest.
    if (this.recent.size > RECENT_IDS) this.recent.delete(this.recent.values().next().value!);
  }

  private async deliver(): Promise<void> {
    this.delivering = true;
    try {
      while (this.incoming.length > 0 && this.entries.size > 0) {
        const ids = this.incoming.splice(0, READ_BATCH);
        const entries = [...this.entries];
        const keys = [...new Set(entries.map((e) => e.key))];
        const filters = keys.map((k) => entries.find((e) => e.key === k)!.filter);
        let matched: Awaited<ReturnType<typeof matchNewEvents>>;
        try {
          // The primary: a replica would not have replayed a commit the NOTIFY has just announced, and ids not
          // found now are never asked for again. It is a primary-key read of at most READ_BATCH ids.
          matched = await matchNewEvents(this.options.database.db, ids, filters);
        } catch (error) {
          this.log.warn({ err: error }, 'could not read new events for the live feed');
          continue;
        }
        for (const { event, matches } of matched) {
          for (const entry of entries) if (matches[keys.indexOf(entry.key)]) entry.subscription.push(event);
        }
      }
    } finally {
      this.delivering = false;
      if (this.incoming.length > 0 && this.entries.size > 0) void this.deliver();
      else if (this.entries.size === 0) this.incoming = [];
    }
  }
}
