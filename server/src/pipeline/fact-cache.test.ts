import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../db/handle.js';
import { dropOnChange, FactCache, factKey, isStaleFacts, parseSnapshot, STALE_FACTS, staleFactsXid, type Snapshot } from './fact-cache.js';

describe('FactCache', () => {
  it('keeps at most its capacity, dropping the least recently used first', () => {
    const cache = new FactCache(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recently used
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('keeps null as a fact ("no such row"), apart from a missing entry', () => {
    const cache = new FactCache(4);
    cache.set('gone', null);
    expect(cache.get('gone')).toBeNull();
    cache.drop('gone');
    expect(cache.get('gone')).toBeUndefined();
  });

  it('keeps no entry for undefined: it reads as missing', () => {
    const cache = new FactCache(4);
    cache.set('a', 1);
    cache.set('a', undefined);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps the held objects when set to the same facts again, as the most recently used, and takes different facts', () => {
    const cache = new FactCache(2);
    const held = { first: 5, n: 1, links: ['dev_1'] };
    cache.set('a', held);
    cache.set('b', 2);
    cache.set('a', { first: 5, n: 1, links: ['dev_1'] });
    expect(cache.get('a')).toBe(held);
    cache.set('c', 3); // b is the least recently used now
    expect(cache.get('b')).toBeUndefined();
    const changed = { first: 5, n: 2, links: ['dev_1', 'dev_2'] };
    cache.set('a', changed);
    expect(cache.get('a')).toBe(changed);
    cache.set('gone', null);
    cache.set('gone', null);
    expect(cache.get('gone')).toBeNull();
  });

  it('lets a group commit begun before a clear remember nothing: its facts may be from before an erasure', () => {
    const cache = new FactCache(8);
    cache.set('identities dev_1', [['alice@example.com', 1]]);
    const before = cache.generation;
    const taken = cache.get('identities dev_1');
    cache.clear(); // an erasure was announced while the commit was under way
    cache.committed({ xid: undefined, written: undefined, read: null, proved: false, generation: before }, () => cache.set('identities dev_1', taken));
    expect(cache.get('identities dev_1')).toBeUndefined();

    const after = cache.generation;
    cache.committed({ xid: undefined, written: undefined, read: null, proved: false, generation: after }, () =>
      cache.set('identities dev_1', [['pseudonym', 1]]),
    );
    expect(cache.get('identities dev_1')).toEqual([['pseudonym', 1]]);
  });

  it('keeps nothing at capacity 0', () => {
    const cache = new FactCache(0);
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
  });
});

/** What a statement saw: `xmax` the next id, with `inProgress` under way, on the server run `server`. */
const saw = (xmax: bigint, inProgress: bigint[] = [], server = 'run 1'): Snapshot => ({ xmin: inProgress[0] ?? xmax, xmax, inProgress, server });

describe('FactCache proving its facts current by transaction ids', () => {
  /**
   * A commit as transaction `xid` that remembers `key`, its write having seen `written` (by default nothing under
   * way and `xid` next), after a read that saw `read` as the next id, if it read.
   */
  const commit = (
    cache: FactCache,
    xid: bigint | undefined,
    key: string,
    read?: bigint | 'unknown',
    proved = false,
    written = xid === undefined ? undefined : saw(xid),
  ) =>
    cache.committed({ xid, written, read: read === undefined ? null : read === 'unknown' ? undefined : saw(read), proved, generation: cache.generation }, () =>
      cache.set(key, xid === undefined ? 0 : Number(xid)),
    );
  const serve = (cache: FactCache, key: string) => cache.serve(() => cache.get(key)).provenAfter?.xid;

  it('proves what commits made once one follows another, and nothing set otherwise', () => {
    const cache = new FactCache(8, true);
    cache.set('old', 1); // not by a commit
    commit(cache, 10n, 'a');
    expect(serve(cache, 'a')).toBeUndefined(); // nothing to say yet that commits follow each other
    commit(cache, 11n, 'b');
    expect(serve(cache, 'a')).toBe(11n);
    expect(serve(cache, 'b')).toBe(11n);
    expect(serve(cache, 'old')).toBeUndefined();
  });

  it('compares again what was cached before something else wrote, and tries no proof until commits follow again', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    commit(cache, 12n, 'b');
    expect(serve(cache, 'a')).toBe(12n);
    // Transaction 13 was someone else's. 14 did not follow, so it compared what it took: 'c', which it set, is
    // current, but proofs wait for a commit that follows; 'a' and 'b', set before 13, are compared when next used.
    commit(cache, 14n, 'c');
    expect(serve(cache, 'c')).toBeUndefined();
    commit(cache, 15n, 'a');
    expect(serve(cache, 'a')).toBe(15n);
    expect(serve(cache, 'c')).toBe(15n);
    expect(serve(cache, 'b')).toBeUndefined();
  });

  it('stamps an entry set to the same facts again as new: trusted by a current commit, untrusted otherwise', () => {
    const cache = new FactCache(8, true);
    const same = (key: string) => () => cache.set(key, { n: 1 });
    cache.set('a', { n: 1 }); // not by a commit
    cache.committed({ xid: 10n, written: saw(10n), read: null, proved: false, generation: cache.generation }, same('b'));
    cache.committed({ xid: 11n, written: saw(11n), read: null, proved: false, generation: cache.generation }, same('a'));
    expect(serve(cache, 'a')).toBe(11n);
    cache.set('a', { n: 1 }); // not by a commit again
    expect(serve(cache, 'a')).toBeUndefined();
    expect(serve(cache, 'b')).toBe(11n);
  });

  it('trusts what a commit read only when nothing was written between the read and the commit', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a', 11n);
    expect(serve(cache, 'a')).toBe(11n);
    commit(cache, 12n, 'b', 11n); // read before 11 was written: what 11 changed may be missing from it
    expect(serve(cache, 'b')).toBeUndefined();
    expect(serve(cache, 'a')).toBe(12n);
    commit(cache, 13n, 'c', 'unknown'); // the read could not say
    expect(serve(cache, 'c')).toBeUndefined();
  });

  it('forgets the chain after a commit of unknown id', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    commit(cache, undefined, 'b');
    expect(serve(cache, 'a')).toBeUndefined();
    commit(cache, 12n, 'c');
    commit(cache, 13n, 'd');
    expect(serve(cache, 'a')).toBeUndefined();
    expect(serve(cache, 'b')).toBeUndefined();
    expect(serve(cache, 'c')).toBe(13n);
  });

  it("goes on proving through this process's write of no fact (key usage) that directly follows the last commit", () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    const leave = cache.enter();
    cache.apart(12n);
    leave();
    expect(serve(cache, 'a')).toBe(12n);
    commit(cache, 13n, 'b');
    expect(serve(cache, 'a')).toBe(13n);
  });

  it("takes a gap before such a write for somebody else's, as any gap", () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    cache.apart(13n); // 12 was somebody else's
    expect(serve(cache, 'a')).toBe(11n); // a batch expecting 12 fails its proof, and is written comparing
    commit(cache, 14n, 'b');
    expect(serve(cache, 'a')).toBeUndefined();
  });

  it('keeps no such write that comes after a later commit, nor any before the first commit or on a cache not proving', () => {
    const late = new FactCache(8, true);
    commit(late, 10n, 'a');
    commit(late, 11n, 'a');
    commit(late, 13n, 'a'); // 12, the flush's, came before but was told after
    late.apart(12n);
    commit(late, 14n, 'a');
    expect(serve(late, 'a')).toBe(14n);
    const fresh = new FactCache(8, true);
    fresh.apart(1n);
    commit(fresh, 2n, 'a');
    expect(serve(fresh, 'a')).toBeUndefined();
    const parallel = new FactCache(8);
    commit(parallel, 10n, 'a');
    parallel.apart(11n);
    commit(parallel, 12n, 'a');
    expect(serve(parallel, 'a')).toBeUndefined();
  });

  it('proves nothing to a batch while another is under way, whose write may come first', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    const leaveFirst = cache.enter();
    expect(serve(cache, 'a')).toBe(11n);
    const leaveSecond = cache.enter();
    expect(serve(cache, 'a')).toBeUndefined();
    leaveFirst();
    expect(serve(cache, 'a')).toBe(11n);
    leaveSecond();
  });

  it('trusts nothing a commit saw while another transaction was under way, and ends the chain there', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    commit(cache, 12n, 'b', undefined, false, saw(12n, [9n])); // 9 may have committed after 12 looked
    expect(serve(cache, 'a')).toBeUndefined();
    commit(cache, 13n, 'c');
    expect(serve(cache, 'c')).toBe(13n);
    expect(serve(cache, 'b')).toBeUndefined();
    expect(serve(cache, 'a')).toBeUndefined();
  });

  it("goes on proving what two overlapping commits of this process's left alone, and compares what they remembered", () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'x');
    const leaveFirst = cache.enter(); // takes id 12, and is slow to flush
    const leaveSecond = cache.enter(); // takes id 13, and returns first
    commit(cache, 13n, 'b', undefined, false, saw(13n, [12n]));
    leaveSecond();
    expect(serve(cache, 'x')).toBeUndefined(); // 12 is not accounted for yet
    commit(cache, 12n, 'c'); // written before 13 was, so what it saw may miss what 13 wrote
    leaveFirst();
    expect(serve(cache, 'x')).toBe(13n);
    expect(serve(cache, 'a')).toBe(13n);
    expect(serve(cache, 'b')).toBeUndefined(); // 13 did not see what 12 wrote
    expect(serve(cache, 'c')).toBeUndefined();
    commit(cache, 14n, 'b');
    expect(serve(cache, 'b')).toBe(14n);
  });

  it('compares again what was cached before, once the commits in flight have returned without accounting for an id', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    const leaveFirst = cache.enter();
    const leaveSecond = cache.enter();
    commit(cache, 13n, 'b', undefined, false, saw(13n, [12n])); // 12 under way: the first's, or somebody else's
    leaveSecond();
    commit(cache, 14n, 'c'); // the first took 14: 12 was somebody else's
    leaveFirst();
    expect(serve(cache, 'a')).toBeUndefined();
    expect(serve(cache, 'c')).toBeUndefined(); // the chain starts again at 14
    commit(cache, 15n, 'd');
    expect(serve(cache, 'c')).toBe(15n);
    expect(serve(cache, 'a')).toBeUndefined();
  });

  it('trusts nothing a commit saw when a later commit of its own returned before it, though one of unknown id came between', () => {
    const cache = new FactCache(8, true);
    commit(cache, 99n, 'x');
    commit(cache, 100n, 'k');
    const leaveSlow = cache.enter(); // takes 101 and is slow to return, having seen 'k' as it was
    const leaveMover = cache.enter();
    const leaveRetries = cache.enter();
    commit(cache, 102n, 'k', undefined, false, saw(102n, [101n])); // changes 'k'
    leaveMover();
    commit(cache, undefined, 'r'); // retries only: nothing written, no id
    leaveRetries();
    commit(cache, 101n, 'k', undefined, false, saw(101n)); // its 'k' is older than 102's
    leaveSlow();
    commit(cache, 103n, 'd');
    expect(serve(cache, 'k')).toBeUndefined();
  });

  it('accounts for an id told fact-free after a commit found it under way', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    const leaveCommit = cache.enter();
    const leaveFlush = cache.enter();
    commit(cache, 13n, 'b', undefined, false, saw(13n, [12n])); // 12, the key-usage flush's, told late
    leaveCommit();
    cache.apart(12n);
    leaveFlush();
    commit(cache, 14n, 'c');
    expect(serve(cache, 'a')).toBe(14n);
    expect(serve(cache, 'b')).toBeUndefined();
  });

  it("asks whose an id nobody accounts for is, and goes on proving across one the database names as changing no fact (autovacuum's)", async () => {
    const asked: bigint[][] = [];
    const cache = new FactCache(8, true, async (ids) => {
      asked.push([...ids]);
      return ids.filter((x) => x === 12n);
    });
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    commit(cache, 13n, 'b', undefined, false, saw(13n, [12n]));
    expect(serve(cache, 'a')).toBeUndefined(); // not while the question is open
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toEqual([[12n]]);
    commit(cache, 14n, 'c', undefined, false, saw(14n, [12n])); // 12 still under way
    expect(serve(cache, 'a')).toBe(14n);
    expect(serve(cache, 'c')).toBe(14n);
    expect(serve(cache, 'b')).toBeUndefined(); // 13 saw 12 under way before it was named
  });

  it("takes an id the database does not name, or cannot be asked about, for somebody else's", async () => {
    for (const identify of [async () => [], async () => Promise.reject(new Error('connection lost'))]) {
      const cache = new FactCache(8, true, identify);
      commit(cache, 10n, 'a');
      commit(cache, 11n, 'a');
      commit(cache, 13n, 'b', undefined, false, saw(13n, [12n]));
      await new Promise((resolve) => setTimeout(resolve, 0));
      commit(cache, 14n, 'c');
      expect(serve(cache, 'c')).toBe(14n);
      expect(serve(cache, 'a')).toBeUndefined();
    }
  });

  it('asks less often while its questions name nothing (another process writing), and at every such commit again once one names an id', async () => {
    let asked = 0;
    let naming = false;
    const cache = new FactCache(8, true, async (ids) => {
      asked++;
      return naming ? [...ids] : [];
    });
    commit(cache, 10n, 'a');
    let xid = 10n;
    const commitBesideAnother = async () => {
      xid += 2n;
      commit(cache, xid, 'b', undefined, false, saw(xid, [xid - 1n])); // somebody's id under way
      await new Promise((resolve) => setTimeout(resolve, 0));
    };
    for (let i = 0; i < 20; i++) await commitBesideAnother();
    expect(asked).toBe(5); // the 1st, 3rd, 6th, 11th and 20th
    naming = true;
    for (let i = 0; i < 16; i++) await commitBesideAnother(); // the wait the 20th's answer began
    expect(asked).toBe(5);
    for (let i = 0; i < 3; i++) await commitBesideAnother();
    expect(asked).toBe(8);
  });

  it('trusts nothing a commit saw when an id was taken between its snapshot and its own', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    commit(cache, 13n, 'b', undefined, false, saw(12n)); // 12, unseen, may have committed before 13
    expect(serve(cache, 'a')).toBeUndefined();
    commit(cache, 14n, 'c');
    expect(serve(cache, 'c')).toBe(14n);
    expect(serve(cache, 'b')).toBeUndefined();
  });

  it("proves across this process's fact-free transactions, told before they commit, between commits or under way", () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    cache.apart(12n);
    cache.apart(13n);
    expect(serve(cache, 'a')).toBe(13n); // the next write must be 14
    commit(cache, 14n, 'b', undefined, false, saw(14n, [13n])); // 13 still under way when 14 looked
    expect(serve(cache, 'a')).toBe(14n);
    expect(serve(cache, 'b')).toBe(14n);
    commit(cache, 15n, 'c', 15n); // read with 15 next, written as 15: nothing between
    expect(serve(cache, 'c')).toBe(15n);
  });

  it('goes on proving across a write that was undone, told of after it failed', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    cache.apart(12n); // a write undone by vigil_facts_hold, which named its id
    commit(cache, 13n, 'b');
    expect(serve(cache, 'a')).toBe(13n);
  });

  it('ends the chain when emptied', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    cache.clear();
    commit(cache, 12n, 'b');
    expect(serve(cache, 'b')).toBeUndefined();
    commit(cache, 13n, 'b');
    expect(serve(cache, 'b')).toBe(13n);
  });

  it('lets no commit begun before a clear carry the chain on: what it changed is not in the cache', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    const before = cache.generation;
    cache.clear();
    commit(cache, 20n, 'd'); // begun after the clear: reads d afresh
    commit(cache, 21n, 'd');
    expect(serve(cache, 'd')).toBe(21n);
    // Begun before the clear, written after: it may have changed d, and remembers nothing.
    cache.committed({ xid: 22n, written: saw(22n), read: null, proved: false, generation: before }, () => cache.set('d', 'changed'));
    expect(serve(cache, 'd')).toBeUndefined();
    expect(cache.get('d')).toBe(21);
  });

  it('forgets the fact-free ids it was told when the server may have restarted, and when a new run shows', () => {
    const lost = new FactCache(8, true);
    commit(lost, 10n, 'a');
    commit(lost, 11n, 'a');
    lost.apart(12n); // told before it committed; the server crashed, and 12 went to somebody else
    lost.lost();
    commit(lost, 13n, 'b', undefined, false, saw(13n, [12n])); // 12 under way: it may change b once 13 has looked
    commit(lost, 14n, 'c');
    expect(serve(lost, 'c')).toBe(14n);
    expect(serve(lost, 'b')).toBeUndefined();
    const moved = new FactCache(8, true);
    commit(moved, 10n, 'a');
    commit(moved, 11n, 'a');
    moved.apart(12n);
    commit(moved, 13n, 'b', undefined, false, saw(13n, [12n], 'run 2'));
    commit(moved, 14n, 'c', undefined, false, saw(14n, [], 'run 2'));
    expect(serve(moved, 'c')).toBe(14n);
    expect(serve(moved, 'b')).toBeUndefined();
  });

  it('tries proofs less often while they keep failing, and as before once one passes', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    const tries = (n: number) => Array.from({ length: n }, () => serve(cache, 'a') !== undefined);
    cache.proofFailed();
    expect(tries(2)).toEqual([false, true]);
    cache.proofFailed();
    expect(tries(3)).toEqual([false, false, true]);
    cache.proofFailed();
    expect(tries(5)).toEqual([false, false, false, false, true]);
    commit(cache, 12n, 'a', undefined, true); // written with a proof that passed
    cache.proofFailed();
    expect(tries(2)).toEqual([false, true]);
  });

  it('keeps the server run it last saw across a commit that reported none', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    cache.apart(12n);
    cache.committed({ xid: 13n, written: undefined, read: null, proved: false, generation: cache.generation }, () => {}); // stored nothing
    commit(cache, 14n, 'b', undefined, false, saw(14n, [12n], 'run 2')); // 12 may be anybody's on run 2
    commit(cache, 15n, 'c', undefined, false, saw(15n, [], 'run 2'));
    expect(serve(cache, 'c')).toBe(15n);
    expect(serve(cache, 'b')).toBeUndefined();
  });

  it('ends the chain when the database server runs anew: ids of lost commits may be handed out again', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    expect(cache.serve(() => cache.get('a')).provenAfter).toEqual({ xid: 11n, server: 'run 1' });
    commit(cache, 12n, 'b', undefined, false, saw(12n, [], 'run 2'));
    expect(serve(cache, 'a')).toBeUndefined();
    commit(cache, 13n, 'c', undefined, false, saw(13n, [], 'run 2'));
    expect(cache.serve(() => cache.get('b')).provenAfter).toEqual({ xid: 13n, server: 'run 2' });
    expect(serve(cache, 'a')).toBeUndefined();
    // What a read saw on the old run is not current on the new one.
    cache.committed({ xid: 14n, written: saw(14n, [], 'run 3'), read: saw(14n, [], 'run 2'), proved: false, generation: cache.generation }, () =>
      cache.set('d', 14),
    );
    commit(cache, 15n, 'e', undefined, false, saw(15n, [], 'run 3'));
    expect(serve(cache, 'e')).toBe(15n);
    expect(serve(cache, 'd')).toBeUndefined();
  });

  it("forgets its own commits' ids when the server runs anew: another writer may be handed one of them", () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'x');
    commit(cache, 11n, 'x');
    commit(cache, 12n, 'x');
    // A promoted replica that had only up to 10: this process's next commit gets 11 again and reads 'a' there.
    commit(cache, 11n, 'a', undefined, false, saw(11n, [], 'run 2'));
    // Somebody else takes 12, changes 'a' and commits; then this process's next commit.
    commit(cache, 13n, 'c', undefined, false, saw(13n, [], 'run 2'));
    expect(serve(cache, 'a')).toBeUndefined();
  });

  it('counts the commits written with a proof', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a', undefined, true);
    commit(cache, 12n, 'a');
    expect(cache.unchecked).toBe(1);
  });

  it('proves nothing on a cache not proving', () => {
    const cache = new FactCache(8);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    expect(serve(cache, 'a')).toBeUndefined();
    expect(cache.get('a')).toBe(11);
  });
});

describe('parseSnapshot', () => {
  it("reads what SNAPSHOT gives: the snapshot's ids and the server's start", () => {
    expect(parseSnapshot('100:104:100,102 1764547200.123456')).toEqual({ xmin: 100n, xmax: 104n, inProgress: [100n, 102n], server: '1764547200.123456' });
    expect(parseSnapshot('104:104: 1764547200')).toEqual({ xmin: 104n, xmax: 104n, inProgress: [], server: '1764547200' });
  });
  it('is undefined for anything else', () => {
    expect(parseSnapshot(undefined)).toBeUndefined();
    expect(parseSnapshot('104:104:')).toBeUndefined();
    expect(parseSnapshot(104)).toBeUndefined();
  });
});

describe('isStaleFacts', () => {
  const stale = Object.assign(new Error('cached facts changed'), { code: STALE_FACTS });
  it('finds vigil_facts_hold raising, directly and through a driver wrapper', () => {
    expect(isStaleFacts(stale)).toBe(true);
    expect(isStaleFacts(new DrizzleQueryError('INSERT …', [], stale))).toBe(true);
  });
  it('reads the transaction id the undone write had taken, where it had taken one', () => {
    expect(staleFactsXid(new DrizzleQueryError('INSERT …', [], Object.assign(stale, { detail: '4711' })))).toBe(4711n);
    expect(staleFactsXid(Object.assign(new Error('cached facts are stale'), { code: STALE_FACTS, detail: '' }))).toBeUndefined();
    expect(staleFactsXid(Object.assign(new Error('duplicate key'), { code: '23505', detail: '4711' }))).toBeUndefined();
  });
  it('is false for any other failure', () => {
    expect(isStaleFacts(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isStaleFacts(new DrizzleQueryError('INSERT …', [], new Error('boom')))).toBe(false);
    expect(isStaleFacts('VGS01')).toBe(false);
  });
});

describe('dropOnChange', () => {
  it('listens once the change channel can be made when it could not at start, and empties the cache then', async () => {
    let attempts = 0;
    let notify: ((payload: string) => void) | undefined;
    const database = {
      async listen(_channel: string, onMessage: (payload: string) => void) {
        if (++attempts === 1) throw new Error('the database refused the connection');
        notify = onMessage;
        return async () => {};
      },
    } as unknown as DatabaseHandle;
    const warnings: string[] = [];
    const cache = new FactCache(10);
    const stop = await dropOnChange(database, cache, { warn: (_obj, msg) => void warnings.push(msg) });
    expect(warnings).toEqual(['fact cache: change channel lost; reconnecting']);
    // An erasure announced while it could not listen is missed: what the cache holds then goes once it listens.
    cache.set(factKey.registration('dev-1'), { user: 'ana' });
    await vi.waitFor(() => expect(notify).toBeDefined(), { timeout: 2000 });
    expect(cache.size).toBe(0);
    cache.set(factKey.registration('dev-2'), { user: 'bo' });
    notify!('registration dev-2');
    expect(cache.size).toBe(0);
    await stop();
  });
});
