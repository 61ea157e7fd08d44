import { LRUCache } from 'lru-cache';
import { sql, type Sql } from '../db/statement.js';
import { records } from '../db/compose.js';
import { causeWhere } from '../errors.js';
import type { DatabaseHandle } from '../db/handle.js';
import { sameFacts } from './same-facts.js';

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
 * Except where the comparison is proven needless: on a serial database (PGlite: one connection, so one transaction
 * at a time) every transaction that writes takes the next transaction id, so a group commit whose id directly
 * follows the last one's ran with nothing written between them. Its write then compares only its own id with the
 * one expected (`notNextXid`), which spares PostgreSQL the comparison's subqueries (their set-up alone, in every
 * write, was about a sixth of PGlite's CPU per event). Entries are stamped with the epoch they were set in; the
 * epoch moves on whenever a commit's id does not follow the last one's (something else wrote, or a write failed),
 * and entries set before it are compared again when next used. See `serve` and `committed`.
 *
 * Bounded: least recently used entries go first. Capacity 0 turns the cache off (every batch reads).
 */
export class FactCache {
  /**
   * lru-cache keeps the order of use in arrays of indexes, so a hit moves nothing in its Map. The LRU this replaced,
   * a Map re-inserting each key it served, left a deleted slot behind on every hit, and every few thousand events V8
   * rebuilt the whole table: a stall of the event loop of 7–60 ms at 40,000–100,000 entries (measured, against
   * under 1 µs a hit). Undefined at capacity 0: nothing is kept.
   */
  private readonly entries: LRUCache<string, Stamped> | undefined;
  /**
   * Group commits since start by where their facts came from: `stale`, cached, found changed, read again;
   * `unproven`, cached, but something else wrote after they were proven current, so compared fact by fact after all.
   */
  readonly commits = { cached: 0, read: 0, stale: 0, unproven: 0 };
  /** Group commits written with their cached facts proven current, so not compared with the rows (serial only). */
  private proven = 0;
  /** Whether the last group commit's id followed the one before: while something else writes, proofs are not tried. */
  private chained = false;
  /** Entries stamped with this epoch were current after `lastCommit` (serial databases only). */
  private epoch = 0;
  /** The transaction id of the last group commit this cache saw written; undefined: none, or not known. */
  private lastCommit: bigint | undefined;
  /** The stamp `set` gives: UNTRUSTED, except while a group commit whose facts are current remembers them. */
  private stamp = UNTRUSTED;
  /** While a batch takes its facts (`serve`): whether any entry it took was not stamped with the current epoch. */
  private servedUntrusted = false;
  /** Group commits under way (`enter`): while another may write before it, a batch proves nothing. */
  private active = 0;
  /** How many times the cache was emptied (`clear`): see `generation`. */
  private clears = 0;

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

  /**
   * A value the same as the one held (sameFacts) keeps the held objects, with the new stamp: at a steady load nine in
   * ten of a commit's entries are set to what they already were, and each new copy, living as long as the entry, was
   * promoted to the old generation (about 2 kB per event), and a full collection came every few seconds to free the
   * copies it replaced. Each such collection held the event loop 5-15 ms and a core for its marking (tens of ms), a
   * burst of late answers on two cores.
   */
  set(key: string, value: unknown): void {
    if (value === undefined) return this.drop(key);
    const stored = value === null ? NO_ROW : value;
    // get, like set, makes the entry the most recently used.
    const held = this.entries?.get(key);
    if (held !== undefined && sameFacts(held.value, stored)) held.epoch = this.stamp;
    else this.entries?.set(key, { value: stored, epoch: this.stamp });
  }

  drop(key: string): void {
    this.entries?.delete(key);
  }

  /**
   * Empties the cache: after an identity erasure, or once a lost change channel listens again. A group commit that
   * took or read its facts before the clear remembers none of them (`committed`), or its view from before an erasure
   * would come back into the emptied cache, where a renamed identity passes every later check (they compare each
   * device's identities by count and times, not by name).
   */
  clear(): void {
    this.entries?.clear();
    this.clears++;
  }

  /** Moves on at each `clear`: a group commit notes it before it takes or reads its facts, and gives it to `committed`. */
  get generation(): number {
    return this.clears;
  }

  /**
   * Runs `take`, which takes a batch's facts from the cache, and says after which group commit they are proven
   * current: the last one's transaction id, when every entry taken was stamped after it and the database is
   * serial and that commit's own id followed the one before (otherwise something else is writing, and a proof would
   * likely fail). The batch's write then needs no comparison if its own transaction id comes next (`notNextXid`).
   */
  serve<T>(take: () => T): { taken: T; provenAfter: bigint | undefined } {
    this.servedUntrusted = false;
    const taken = take();
    const proven = this.serial && this.chained && this.active <= 1 && !this.servedUntrusted;
    return { taken, provenAfter: proven ? this.lastCommit : undefined };
  }

  /** Group commits since start written with a proof instead of the comparison (`notNextXid`). */
  get unchecked(): number {
    return this.proven;
  }

  /**
   * A group commit begins; call the function returned when it has ended, written or not. A batch that takes facts
   * while another is under way gets nothing proven (`serve`): the other's write may come before its own.
   */
  enter(): () => void {
    this.active++;
    return () => {
      this.active--;
    };
  }

  /**
   * This process wrote transaction `xid` (undefined: not known), and it changed none of the facts the cache holds
   * (key usage). If it directly follows the last group commit, the chain of transaction ids goes on through it, so
   * the next commit may still prove its facts (`committed` would otherwise take it for somebody else's write, start
   * a new epoch, and every entry would be compared with its row again before it is trusted: on PGlite about 750
   * group commits after each key-usage flush, measured). Whatever else happened, nothing changes: a later commit
   * finds the gap itself. Call it inside `enter()`, so that no batch tries a proof while the write may come first.
   */
  apart(xid: bigint | undefined): void {
    if (this.serial && xid !== undefined && this.lastCommit !== undefined && xid === this.lastCommit + 1n) this.lastCommit = xid;
  }

  /**
   * A group commit was written as transaction `xid` (undefined: not known), and `remember` puts what it read and
   * wrote in the cache. A commit whose id does not follow the last one's starts a new epoch: something else wrote
   * between them, and every entry set before may have changed. Its own entries are current all the same: what it
   * took from the cache was compared with the rows as they were when it ran (only a commit that follows is written
   * with a proof instead), and so is what it made of them. What it read is current if nothing was written between
   * its read and its write: `nextXidAtRead`, the id the next transaction would take as the read saw it, is then its
   * own (null: it read nothing). `proved`: it was written with a proof. `generation`: the cache's `generation` when the
   * commit began; after a `clear` since then, it remembers nothing.
   */
  committed(commit: { xid: bigint | undefined; nextXidAtRead: bigint | undefined | null; proved: boolean; generation: number }, remember: () => void): void {
    const { xid, nextXidAtRead, proved } = commit;
    const follows = this.serial && xid !== undefined && this.lastCommit !== undefined && xid === this.lastCommit + 1n;
    if (!follows) this.epoch++;
    const current = this.serial && xid !== undefined && (nextXidAtRead === null || nextXidAtRead === xid);
    this.stamp = current ? this.epoch : UNTRUSTED;
    try {
      if (commit.generation === this.clears) remember();
    } finally {
      this.stamp = UNTRUSTED;
    }
    this.lastCommit = this.serial ? xid : undefined;
    this.chained = follows;
    if (proved) this.proven++;
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
 * The proof a batch's write carries instead of comparing its cached facts with their rows, when they were proven
 * current after transaction `provenAfter` (FactCache.serve): true, so that `vigil_facts_hold` undoes the write,
 * unless the write's own transaction id is the next one. In place of the comparison, not in a CASE beside it: the
 * comparison's subqueries are set up in every write that contains them, run or not, at about half their cost.
 */
export function notNextXid(provenAfter: bigint): Sql {
  return sql`pg_current_xact_id() <> ${String(provenAfter + 1n)}::xid8`;
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
 * would have found it stale a failed write, and empties the cache after an identity erasure. A lost channel loses
 * the first saving only; erasures announced while it was down were missed, so the cache is emptied once it listens
 * again.
 */
export async function dropOnChange(database: DatabaseHandle, cache: FactCache, log: { warn(obj: object, msg: string): void }): Promise<() => Promise<void>> {
  const onMessage = (payload: string) => {
    // An identity erasure (identity/erase.ts): cached identities and contacts may hold what was erased.
    if (payload === ERASED_NOTICE) return cache.clear();
    const at = payload.indexOf(' ');
    if (payload.slice(0, at) === 'registration') cache.drop(factKey.registration(payload.slice(at + 1)));
  };
  try {
    return await database.listen(
      FACTS_CHANNEL,
      onMessage,
      (error) => log.warn({ err: error }, 'fact cache: change channel lost; reconnecting'),
      () => cache.clear(),
    );
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
  /**
   * Builds a boolean SQL expression, true when any stored row differs from what the cache served; absent: nothing
   * served. Built only for a write that compares: a write with a proof (`notNextXid`) sends none, and building it
   * serialises every fact served.
   */
  stale?: () => Sql;
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
