import { LRUCache } from 'lru-cache';
import { sql, type Sql } from '../db/statement.js';
import { records } from '../db/compose.js';
import { causeWhere } from '../errors.js';
import type { DatabaseHandle } from '../db/handle.js';

/** A cached "no such row": lru-cache keeps no null or undefined values. */
const NO_ROW = Symbol('no such row');

/**
 * The facts group commits read about devices, handprints, registrations and contacts, kept per process so that
 * most batches need no read statement. An entry is exactly what the batch read would have returned for its key
 * (or what the batch's own write made of it), so a stage evaluates cached and read facts alike.
 *
 * Never trusted on its own: every entry a batch used is compared with the stored row inside the batch's write
 * statement (`staleWhen`), and a difference undoes the whole statement and sends the batch through a fresh
 * read. Dropping entries (notifications, a lost channel) only saves that failed write; it is never what keeps an
 * answer correct, so another process's change is reflected by the first batch after it, notified or not.
 *
 * Bounded: least recently used entries go first. Capacity 0 turns the cache off (every batch reads).
 *
 * On a serial database (PGlite: one connection, so one transaction at a time) the check can be proven needless, and
 * then the write only compares its own transaction id with the one expected (`writtenSince`): every transaction
 * that writes takes the next id, so a group commit whose id follows the last one's directly ran with nothing
 * written between them. Entries are stamped with the epoch they
 * were set in; the epoch moves on whenever a commit's id does not follow the last one's (something else wrote, or
 * a commit failed), so entries set before it are checked again when next used. See `serve` and `committed`.
 */
export class FactCache {
  /**
   * lru-cache keeps the order of use in arrays of indexes, so a hit moves nothing in its Map. The LRU this replaced,
   * a Map re-inserting each key it served, left a deleted slot behind on every hit, and every few thousand events V8
   * rebuilt the whole table: a stall of the event loop of 7–60 ms at 40,000–100,000 entries (measured, against
   * under 1 µs a hit). Undefined at capacity 0: nothing is kept.
   */
  private readonly entries: LRUCache<string, Stamped> | undefined;
  /** Group commits since start by where their facts came from (`stale`: cached, found changed, read again). */
  readonly commits = { cached: 0, read: 0, stale: 0 };
  /** Group commits since start that used cached facts with no check, proven current (serial databases only). */
  unchecked = 0;
  /** Entries stamped with this epoch were current after `lastCommit` (serial databases only). */
  private epoch = 0;
  /** The transaction id of the last group commit this cache saw written; undefined: none, or not known. */
  private lastCommit: bigint | undefined;
  /** The stamp `set` gives: UNTRUSTED except while a commit that proved its facts current remembers them. */
  private stamp = UNTRUSTED;
  /** While a batch takes its facts (`serve`): whether any entry it took was not stamped with the current epoch. */
  private servedUntrusted = false;
  /** Group commits under way (`enter`): while another may write before it, a batch proves nothing. */
  private active = 0;

  /** `serial`: the database runs one transaction at a time (PGlite), so checks can be proven needless. */
  constructor(
    readonly capacity: number,
    readonly serial = false,
  ) {
    this.entries = capacity > 0 ? new LRUCache({ max: capacity }) : undefined;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  /** The entry, or undefined when absent. `null` is a cached fact: "no such row". */
  get<T>(key: string): T | undefined {
    const entry = this.entries?.get(key);
    if (entry === undefined) return undefined;
    if (entry.epoch !== this.epoch) this.servedUntrusted = true;
    return (entry.value === NO_ROW ? null : entry.value) as T | undefined;
  }

  set(key: string, value: unknown): void {
    if (value === undefined) this.drop(key);
    else this.entries?.set(key, { value: value === null ? NO_ROW : value, epoch: this.stamp });
  }

  drop(key: string): void {
    this.entries?.delete(key);
  }

  clear(): void {
    this.entries?.clear();
  }

  /**
   * Runs `take`, which takes a batch's facts from the cache, and says after which group commit they are proven
   * current: the last one's transaction id, when every entry taken was stamped after it and the database is
   * serial. The batch's write then needs no check if its own transaction id comes next (see `writtenSince`).
   */
  serve<T>(take: () => T): { taken: T; after: bigint | undefined } {
    this.servedUntrusted = false;
    const taken = take();
    const after = this.serial && this.active <= 1 && !this.servedUntrusted ? this.lastCommit : undefined;
    return { taken, after };
  }

  /**
   * A group commit begins; call the function returned when it has ended, written or not. A batch that takes facts
   * while another is under way gets nothing proven (`serve`): the other's write may come before its own.
   */
  enter(): () => void {
    this.active++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.active--;
    };
  }

  /**
   * A group commit was written as transaction `xid` (undefined: not known), and `remember` puts what it read and
   * wrote in the cache. A commit whose id does not follow the last one's starts a new epoch: something else wrote
   * between them, and every entry set before may have changed. Its own entries are current all the same: what it
   * took from the cache was checked against the rows as they were when it ran (only a commit that follows is
   * written without that check), and so is what it made of them; what it read is, if nothing was written between its read and
   * its write (`readBefore`: the id the next transaction would take, as the read saw it; null: it read nothing).
   */
  committed(xid: bigint | undefined, readBefore: bigint | undefined | null, remember: () => void): void {
    const follows = this.serial && xid !== undefined && this.lastCommit !== undefined && xid === this.lastCommit + 1n;
    if (!follows) this.epoch++;
    this.stamp = this.serial && xid !== undefined && (readBefore === null || readBefore === xid) ? this.epoch : UNTRUSTED;
    try {
      remember();
    } finally {
      this.stamp = UNTRUSTED;
    }
    this.lastCommit = this.serial ? xid : undefined;
  }
}

/** An entry and the epoch it was set in. */
interface Stamped {
  value: NonNullable<unknown>;
  epoch: number;
}

/** The stamp of an entry never proven current: no epoch has this number. */
const UNTRUSTED = -1;

/**
 * The check of a batch whose cached facts were all proven current after transaction `after` (FactCache.serve): true,
 * so that `vigil_facts_hold` undoes the write and the batch is read afresh as a stale one is, unless the batch's own
 * transaction id is the next one, when nothing can have been written since. It stands for the comparison of every
 * fact with its row, not beside it: that comparison's subqueries cost PostgreSQL their set-up in every write even
 * when a CASE skipped them, about a sixth of PGlite's CPU per event.
 */
export function writtenSince(after: bigint): Sql {
  return sql`pg_current_xact_id() <> ${String(after + 1n)}::xid8`;
}

/**
 * Longest list one entry keeps (a device's identities, an e-mail's devices): a shared kiosk's thousands of users
 * would make one entry weigh as much as thousands; such facts are read each time instead.
 */
export const MAX_CACHED_LIST = 64;

/** The channel on which registration changes are announced (migration 0007's trigger): `registration <device id>`. */
export const FACTS_CHANNEL = 'vigil_facts';

/** Announced on FACTS_CHANNEL after an identity erasure: every process empties its cache. */
export const ERASED_NOTICE = 'erased';

/**
 * Drops a registration from the cache as soon as any process announces its change, which spares the batch that
 * would have found it stale a failed write. A lost channel loses nothing but that saving.
 */
export async function dropOnChange(database: DatabaseHandle, cache: FactCache, log: { warn(obj: object, msg: string): void }): Promise<() => Promise<void>> {
  const onMessage = (payload: string) => {
    // An identity erasure (identity/erase.ts): cached identities and contacts may hold what was erased.
    if (payload === ERASED_NOTICE) return cache.clear();
    const at = payload.indexOf(' ');
    if (payload.slice(0, at) === 'registration') cache.drop(factKey.registration(payload.slice(at + 1)));
  };
  try {
    return await database.listen(FACTS_CHANNEL, onMessage, (error) => log.warn({ err: error }, 'fact cache: change channel lost; reconnecting'));
  } catch (error) {
    log.warn({ err: error }, 'fact cache: cannot listen for registry changes; stale entries are caught by the write');
    return async () => {};
  }
}

/** Cache keys, one namespace per kind of fact. */
export const factKey = {
  device: (id: string) => `device ${id}`,
  handprint: (id: string) => `handprint ${id}`,
  registration: (deviceId: string) => `registration ${deviceId}`,
  identities: (deviceId: string) => `identities ${deviceId}`,
  contact: (kind: string, value: string) => `contact ${kind} ${value}`,
  /** The device's bound key (SPKI, base64), or null: not bound. */
  deviceKey: (deviceId: string) => `device key ${deviceId}`,
};

/** What a batch took from the cache for one part of its read: the facts, and how to check them in the write. */
export interface CachedPart {
  /** In the shape the part's read returns. */
  facts: unknown;
  /** A boolean SQL expression, true when any stored row differs from what the cache served; absent: nothing served. */
  stale?: Sql;
}

/**
 * Cached values of `keys`, or undefined when any is missing (the part is then read). A batch either takes a whole
 * part from the cache or reads it whole, so a part's facts are never half one and half the other.
 */
export function cachedAll<T>(cache: FactCache, ids: readonly string[], keyOf: (id: string) => string): { k: string; v: T | null }[] | undefined {
  const found: { k: string; v: T | null }[] = [];
  for (const k of ids) {
    const v = cache.get<T | null>(keyOf(k));
    if (v === undefined) return undefined;
    found.push({ k, v });
  }
  return found;
}

/**
 * True when, for some `{k, v}`, the stored value (`current`, a query over `q.k` building as jsonb what the read
 * builds as json) is not `v`. jsonb compares numbers by value, so 1.5e12 and 1500000000000 are equal.
 */
export function staleWhen(entries: readonly { k: string; v: unknown }[], current: Sql): Sql {
  return sql`EXISTS (SELECT 1 FROM ${records(entries, 'k text, v jsonb', 'q')} WHERE (${current}) IS DISTINCT FROM q.v)`;
}

/** The SQLSTATE `vigil_facts_hold` raises (migration 0007). */
export const STALE_FACTS = 'VGS01';

export function isStaleFacts(error: unknown): boolean {
  // Through a driver's wrapper (drizzle's `cause`).
  return causeWhere(error, (e) => (e as { code?: unknown }).code === STALE_FACTS) !== undefined;
}
