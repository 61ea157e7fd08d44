import { LRUCache } from 'lru-cache';
import { sql, type Sql } from '../db/statement.js';
import { records } from '../db/compose.js';
import { causeWhere } from '../errors.js';
import type { DatabaseHandle } from '../db/handle.js';
import { listenOrRetry } from '../db/listen.js';
import { sameFacts } from './same-facts.js';

/**
 * Writes of this process that change nothing the pipeline caches (FactCache is one): wrapped in `enter()` … its
 * release, each reported with its transaction id (`apart`), before it commits where it can be.
 */
export interface QuietWrites {
  enter(): () => void;
  apart(xid: bigint | undefined): void;
  /** Such a write failed, perhaps with its server: an id it told may go to another writer (FactCache.lost). */
  lost(): void;
}

/**
 * Which of `ids` belong to transactions under way that change no fact the cache holds, though they are not this
 * process's (autovacuum's: its ANALYZE takes an id to write statistics). An id that ended, or could not be asked
 * about, is not among them.
 */
export type IdentifyIds = (ids: readonly bigint[]) => Promise<readonly bigint[]>;

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
 * Except where the comparison is proven needless. Every transaction that writes anything takes a transaction id, the
 * next one, so a group commit whose id directly follows the last one's ran with nothing written between them (or
 * only this process's transactions that change no fact, `apart`). Its write then compares only its own id with the
 * one expected (`notNextXid`), which spares the database the comparison's subqueries (about a third of PostgreSQL's
 * CPU per event at full speed; their set-up alone, in every write, was about a sixth of PGlite's). That needs the
 * last commit to have seen everything written before its own id: its statement's snapshot showed no other
 * transaction under way, and no id was taken between that snapshot and its own (`committed`'s `written`). PGlite runs
 * one transaction at a time, so there that always holds; on PostgreSQL it holds while this process is the only one
 * writing. Entries are stamped with the epoch they were set in; the epoch moves on whenever something else may have
 * written since the last commit (a transaction not this process's, or a write that failed), and entries set before
 * it are compared again when next used. This process's own commits that overlap only leave what they remembered to be
 * compared. See `serve` and `committed`.
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
  /** Group commits written with their cached facts proven current, so not compared with the rows. */
  private proven = 0;
  /** Whether the last group commit followed the one before: while something else writes, proofs are not tried. */
  private chained = false;
  /** Entries stamped with this epoch were current after `lastCommit`. */
  private epoch = 0;
  /** The transaction id of the last group commit this cache saw written; undefined: none, or not known. */
  private lastCommit: bigint | undefined;
  /** The database server's start as the last group commit saw it (Snapshot.server). */
  private server: string | undefined;
  /** The stamp `set` gives: UNTRUSTED, except while a group commit whose facts are current remembers them. */
  private stamp = UNTRUSTED;
  /** While a batch takes its facts (`serve`): whether any entry it took was not stamped with the current epoch. */
  private servedUntrusted = false;
  /** Group commits under way (`enter`): while another may write before it, a batch proves nothing. */
  private active = 0;
  /** How many times the cache was emptied (`clear`): see `generation`. */
  private clears = 0;
  /** Ids of this process's transactions that change no cached fact (`apart`), until no later commit can meet them. */
  private readonly factFree = new Set<bigint>();
  /** Ids of this process's group commits that were written (`committed`), the newest MAX_OWN_COMMITS. */
  private readonly ownCommits = new Set<bigint>();
  /**
   * The newest of them: a commit with an older id did not see what that one wrote. Apart from `lastCommit`, which a
   * commit of unknown id forgets while older commits may still be in flight.
   */
  private newestOwn: bigint | undefined;
  /**
   * Ids a group commit did not see written, or that came between the last commit and its own, which are neither
   * fact-free nor a written group commit of this process's. A group commit still in flight may have taken them, and
   * accounts for its id when it returns; what is left once none is in flight was somebody else's (`committed`).
   */
  private readonly unaccounted = new Set<bigint>();
  /** Moves on at each `lost`: an answer to a question asked before it may be about another run of the server. */
  private losses = 0;
  /** Questions about ids (`lookUp`), skipped while their answers name none. */
  private readonly lookups = new Backoff();
  /** Proofs (`serve`), skipped while they fail (`proofFailed`). */
  private readonly proofs = new Backoff();

  /**
   * `proving`: group commits report their transaction ids and snapshots (`committed`), so that checks can be proven
   * needless; false: every cached fact is compared with its row. `identify`: asked about ids nobody accounts for
   * before they are taken for somebody else's writes; without it they are at once.
   */
  constructor(
    readonly capacity: number,
    readonly proving = false,
    private readonly identify?: IdentifyIds,
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
    this.lost();
  }

  /**
   * The database may have restarted (a lost connection, a lost change channel): a server that recovers from a crash
   * hands out again the ids of transactions it has no record of, a fact-free one told before it committed among them,
   * and its start time stays the same. The next commit starts a chain of its own, and no id told so far is trusted.
   */
  lost(): void {
    this.losses++;
    this.lastCommit = undefined;
    this.chained = false;
    this.factFree.clear();
    this.ownCommits.clear();
    this.newestOwn = undefined;
    this.unaccounted.clear();
  }

  /** Moves on at each `clear`: a group commit notes it before it takes or reads its facts, and gives it to `committed`. */
  get generation(): number {
    return this.clears;
  }

  /**
   * Runs `take`, which takes a batch's facts from the cache, and says after which transaction they are proven
   * current: the last group commit's id (or the last of this process's fact-free transactions right after it), when
   * every entry taken was stamped after it and that commit followed the one before (otherwise something else is
   * writing, and a proof would likely fail). The batch's write then needs no comparison if its own transaction id
   * comes next (`notNextXid`).
   */
  serve<T>(take: () => T): { taken: T; provenAfter: Proof | undefined } {
    this.servedUntrusted = false;
    const taken = take();
    let proven = this.proving && this.chained && this.active <= 1 && !this.servedUntrusted;
    if (proven && this.proofs.skip()) proven = false;
    if (!proven || this.lastCommit === undefined || this.server === undefined) return { taken, provenAfter: undefined };
    let xid = this.lastCommit;
    while (this.factFree.has(xid + 1n)) xid++;
    return { taken, provenAfter: { xid, server: this.server } };
  }

  /**
   * A batch's proof failed: something wrote between, or the database cannot be proven to keep what it commits
   * (`notNextXid`). While proofs keep failing, each failure makes the next ones wait twice as many batches (up to
   * 1,024), so that a database where none can pass costs a failed write now and then, not one per batch; a proof
   * that passes ends the wait.
   */
  proofFailed(): void {
    this.proofs.failed();
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
   * Asks `identify` about the ids nobody accounts for; false without it. Until it answers no proof is tried (it counts
   * as a commit in flight), and what it does not name was somebody else's. While answers name nothing (another Vigil
   * process writing: its commits are what the ids are, and no chain can hold anyway), each such answer makes the next
   * commits ask nothing for twice as many (up to 1,024), so that they cost a question now and then, not one each; an
   * answer that names an id ends the wait.
   */
  private lookUp(): boolean {
    const identify = this.identify;
    if (!identify) return false;
    if (this.lookups.skip()) return false;
    const ids = [...this.unaccounted];
    const losses = this.losses;
    const leave = this.enter();
    const named = Promise.resolve()
      .then(() => identify(ids))
      .catch(() => [] as bigint[]);
    void named.then((free) => {
      leave();
      if (this.losses !== losses) return;
      for (const x of free) this.apart(x);
      if (free.length > 0) this.lookups.passed();
      else this.lookups.failed();
      if (ids.some((x) => this.unaccounted.has(x))) this.foreignWrites();
    });
    return true;
  }

  /** Somebody else wrote, or may have: every entry set before is compared again when next used. */
  private foreignWrites(): void {
    this.epoch++;
    this.unaccounted.clear();
    this.chained = false;
  }

  /**
   * This process's transaction `xid` (undefined: not known) changes none of the facts the cache holds (key usage, a
   * notification): a commit whose id follows the last one's with only such ids between still follows it (otherwise
   * it would be taken for somebody else's write, start a new epoch, and every entry would be compared with its row
   * again before it is trusted: on PGlite about 750 group commits after each key-usage flush, measured), and such a
   * transaction under way when a commit looked does not make what it saw doubtful. Told before the transaction
   * commits where it can be, so that no commit is judged while its id is unknown; told late, it changes nothing.
   */
  apart(xid: bigint | undefined): void {
    // Even one older than the last commit: it may still be under way when the next one looks.
    if (!this.proving || xid === undefined) return;
    this.factFree.add(xid);
    this.unaccounted.delete(xid);
    // Ids are told about in the order they are taken, give or take: the oldest go first if many pile up.
    if (this.factFree.size > MAX_FACT_FREE) this.factFree.delete(this.factFree.values().next().value!);
  }

  /**
   * A group commit was written as transaction `xid` (undefined: not known), and `remember` puts what it read and
   * wrote in the cache.
   *
   * What it saw is current if its write statement's snapshot (`written`) saw everything committed before its own id
   * was taken: no other transaction under way, and no id taken between the snapshot and its own (but this process's
   * fact-free ones, `apart`), and no later group commit of this process's was written before it. What it read is
   * current if its read's snapshot (`read`; null: it read nothing) passes the same test against its id. Snapshots
   * undefined: not known. What is not current is stamped untrusted, and compared with its row when next used.
   *
   * Entries set before stay current if every id it did not see, and every id between the last commit and its own, is
   * accounted for: fact-free, or one of this process's group commits, which change only what they remember (and what
   * one of them remembered after missing another's writes is untrusted, as above). A group commit still in flight
   * cannot say its id until its statement returns, so ids nobody accounts for wait until none is in flight
   * (`unaccounted`), and are then asked about (`identify`); what is left was somebody else's, or an id that could not
   * be told at all, and a new epoch starts: every entry set before is compared again when next used. Not for this
   * process's own commits that overlap (a slow flush lets a second one start): at 1,000 events/s each entry is used
   * every few seconds, so a new epoch costs seconds of comparisons before proofs pass again.
   *
   * `proved`: it was written with a proof. `generation`: the cache's `generation` when the commit began; after a
   * `clear` since then, it remembers nothing, and carries no chain on.
   */
  committed(
    commit: { xid: bigint | undefined; written: Snapshot | undefined; read: Snapshot | undefined | null; proved: boolean; generation: number },
    remember: () => void,
  ): void {
    const { xid, written, read, proved } = commit;
    // Ids told on another run of the server may belong to anybody on this one.
    if (written !== undefined && this.server !== undefined && written.server !== this.server) this.lost();
    const after = this.newestOwn !== undefined && xid !== undefined && xid < this.newestOwn;
    const clean = this.proving && xid !== undefined && !after && this.sawAllBefore(written, xid);
    // A commit begun before a clear remembers nothing, so what it changed is not in the cache: it cannot carry the
    // chain on for entries set by commits begun after the clear.
    const unknown =
      this.proving && xid !== undefined && written !== undefined && commit.generation === this.clears && written.server === this.server
        ? this.unknownTo(written, xid)
        : undefined;
    for (const x of unknown ?? []) this.unaccounted.add(x);
    if (xid !== undefined) this.unaccounted.delete(xid);
    const accountable = unknown !== undefined && this.unaccounted.size <= MAX_FACT_FREE;
    // Only this commit is in flight: no other is left to account for an id, but the database may still name it.
    const follows = accountable && (this.unaccounted.size === 0 || this.active > 1 || this.lookUp());
    if (!follows) this.foreignWrites();
    const current = clean && (read === null || (read?.server === written!.server && this.sawAllBefore(read, xid!)));
    this.stamp = current ? this.epoch : UNTRUSTED;
    try {
      if (commit.generation === this.clears) remember();
    } finally {
      this.stamp = UNTRUSTED;
    }
    if (this.proving && xid !== undefined) {
      this.ownCommits.add(xid);
      if (this.ownCommits.size > MAX_OWN_COMMITS) this.ownCommits.delete(this.ownCommits.values().next().value!);
      if (!after) this.newestOwn = xid;
    }
    this.lastCommit = this.proving && xid !== undefined ? (after && this.lastCommit !== undefined ? this.lastCommit : xid) : undefined;
    if (written) this.server = written.server;
    // Fact-free transactions that had ended before this commit looked are seldom met again; not while another commit
    // is in flight, whose snapshot may be older (an id dropped too early only costs a new epoch).
    if (written && this.active <= 1) for (const x of this.factFree) if (x < written.xmin) this.factFree.delete(x);
    this.chained = follows && this.unaccounted.size === 0;
    if (proved) {
      this.proven++;
      this.proofs.passed();
    }
  }

  /**
   * The ids commit `xid` must account for, neither fact-free nor a written group commit of this process's: those
   * under way when its snapshot was taken, and every one from the last commit's or the snapshot's end, whichever is
   * first, up to its own. Undefined where no chain goes on: no last commit, its id taken before its snapshot, or too
   * many ids between.
   */
  private unknownTo(written: Snapshot, xid: bigint): bigint[] | undefined {
    if (this.lastCommit === undefined || written.xmax > xid) return undefined;
    const from = this.lastCommit + 1n < written.xmax ? this.lastCommit + 1n : written.xmax;
    if (xid - from > BigInt(MAX_FACT_FREE)) return undefined;
    const ids = [...written.inProgress];
    for (let x = from; x < xid; x++) ids.push(x);
    return ids.filter((x) => !this.factFree.has(x) && !this.ownCommits.has(x));
  }

  /** Whether `snapshot` saw every transaction that committed before `xid` was taken (fact-free ones aside). */
  private sawAllBefore(snapshot: Snapshot | undefined, xid: bigint): boolean {
    if (snapshot === undefined || snapshot.xmax > xid) return false;
    return snapshot.inProgress.every((x) => this.factFree.has(x)) && this.onlyFactFree(snapshot.xmax, xid);
  }

  /** Whether every id from `from` up to `to` (excluded) is one of this process's fact-free transactions. */
  private onlyFactFree(from: bigint, to: bigint): boolean {
    if (to - from > BigInt(MAX_FACT_FREE)) return false;
    for (let x = from; x < to; x++) if (!this.factFree.has(x)) return false;
    return true;
  }
}

/**
 * What a statement saw (`SNAPSHOT`): of its snapshot, `xmin`, below which every transaction had ended, `xmax`, one past
 * the newest that had ended (every id from it up was under way or not yet taken), and `inProgress`, the ids below
 * `xmax` of transactions under way, whose writes it does not see; and `server`, when the database server started. A
 * server started anew (a promoted replica, a restore) may have lost the last commits and hand their ids out again,
 * so ids compare only within one server's run.
 */
export interface Snapshot {
  xmin: bigint;
  xmax: bigint;
  inProgress: bigint[];
  server: string;
}

/** The database server's start, as `SNAPSHOT` and `notNextXid` give it. */
const SERVER_START = sql`extract(epoch from pg_postmaster_start_time())::text`;

/** What the statement that contains it saw, as text for `parseSnapshot`. */
export const SNAPSHOT = sql`pg_current_snapshot()::text || ' ' || ${SERVER_START}`;

/** Reads what `SNAPSHOT` gave; undefined for anything else. */
export function parseSnapshot(text: unknown): Snapshot | undefined {
  if (typeof text !== 'string') return undefined;
  const [ids, server] = text.split(' ');
  const [xmin, xmax, xip] = ids?.split(':') ?? [];
  if (server === undefined || xmin === undefined || xmax === undefined || xip === undefined) return undefined;
  return { xmin: BigInt(xmin), xmax: BigInt(xmax), inProgress: xip === '' ? [] : xip.split(',').map(BigInt), server };
}

/** At most this many fact-free ids are kept, or may lie between two commits that follow each other. */
const MAX_FACT_FREE = 64;

/** This process's written group commits kept to account for ids (`committed`): far more than are ever in flight at once. */
const MAX_OWN_COMMITS = 256;

/**
 * Tries skipped while they keep failing: each failure makes the next ones wait twice as many (up to 1,024), so that
 * where none can pass they cost a try now and then, not one each; a try that passes ends the wait.
 */
class Backoff {
  private waiting = 0;
  private length = 0;

  /** Whether to skip this try, which counts toward the wait. */
  skip(): boolean {
    if (this.waiting === 0) return false;
    this.waiting--;
    return true;
  }

  failed(): void {
    this.length = Math.min(Math.max(1, this.length * 2), 1024);
    this.waiting = this.length;
  }

  passed(): void {
    this.length = 0;
  }
}

/** An entry and the epoch it was set in. */
interface Stamped {
  value: NonNullable<unknown>;
  epoch: number;
}

/** The stamp of an entry never proven current: no epoch has this number. */
const UNTRUSTED = -1;

/** After which transaction, on which run of the database server, a batch's cached facts are proven current. */
export interface Proof {
  xid: bigint;
  server: string;
}

/**
 * The proof a batch's write carries instead of comparing its cached facts with their rows, when they were proven
 * current after transaction `provenAfter.xid` (FactCache.serve): true, so that `vigil_facts_hold` undoes the write,
 * unless the write's own transaction id is the next one on the same run of the server. In place of the comparison,
 * not in a CASE beside it: the comparison's subqueries are set up in every write that contains them, run or not, at
 * about half their cost.
 */
export function notNextXid(provenAfter: Proof): Sql {
  // Without synchronous commits a crash loses commits that returned, and their ids are handed out again.
  return sql`(pg_current_xact_id() <> ${String(provenAfter.xid + 1n)}::xid8 OR ${SERVER_START} <> ${provenAfter.server}
    OR current_setting('synchronous_commit') = 'off')`;
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
  // A channel that cannot be made at start is one that went down: the write's checks still catch stale entries,
  // and the cache is emptied once it listens, for the erasures it missed.
  return listenOrRetry(
    database.listen.bind(database),
    FACTS_CHANNEL,
    onMessage,
    (error) => {
      cache.lost();
      log.warn({ err: error }, 'fact cache: change channel lost; reconnecting');
    },
    () => cache.clear(),
  );
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

/** The error `vigil_facts_hold` raised, found through a driver's wrapper (drizzle's `cause`); undefined for any other. */
function staleFactsError(error: unknown): (Error & { detail?: unknown }) | undefined {
  return causeWhere(error, (e) => (e as { code?: unknown }).code === STALE_FACTS);
}

export function isStaleFacts(error: unknown): boolean {
  return staleFactsError(error) !== undefined;
}

/**
 * The transaction id the write undone by `vigil_facts_hold` had taken, which it names in its detail (migration 0023);
 * undefined where it had taken none, or the error is another.
 */
export function staleFactsXid(error: unknown): bigint | undefined {
  const raised = staleFactsError(error);
  return typeof raised?.detail === 'string' && /^\d+$/.test(raised.detail) ? BigInt(raised.detail) : undefined;
}
