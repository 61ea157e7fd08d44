import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { FactCache, isStaleFacts, STALE_FACTS } from './fact-cache.js';

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
    cache.committed({ xid: undefined, nextXidAtRead: null, proved: false, generation: before }, () => cache.set('identities dev_1', taken));
    expect(cache.get('identities dev_1')).toBeUndefined();

    const after = cache.generation;
    cache.committed({ xid: undefined, nextXidAtRead: null, proved: false, generation: after }, () => cache.set('identities dev_1', [['pseudonym', 1]]));
    expect(cache.get('identities dev_1')).toEqual([['pseudonym', 1]]);
  });

  it('keeps nothing at capacity 0', () => {
    const cache = new FactCache(0);
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('FactCache on a serial database', () => {
  /** A commit as transaction `xid` that remembers `key`, after a read that saw `read` as the next id, if it read. */
  const commit = (cache: FactCache, xid: bigint | undefined, key: string, read?: bigint | 'unknown', proved = false) =>
    cache.committed({ xid, nextXidAtRead: read === undefined ? null : read === 'unknown' ? undefined : read, proved, generation: cache.generation }, () =>
      cache.set(key, xid === undefined ? 0 : Number(xid)),
    );
  const serve = (cache: FactCache, key: string) => cache.serve(() => cache.get(key)).provenAfter;

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
    cache.committed({ xid: 10n, nextXidAtRead: null, proved: false, generation: cache.generation }, same('b'));
    cache.committed({ xid: 11n, nextXidAtRead: null, proved: false, generation: cache.generation }, same('a'));
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

  it('keeps no such write that comes after a later commit, nor any before the first commit or on a database that is not serial', () => {
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

  it('counts the commits written with a proof', () => {
    const cache = new FactCache(8, true);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a', undefined, true);
    commit(cache, 12n, 'a');
    expect(cache.unchecked).toBe(1);
  });

  it('proves nothing on a database that is not serial', () => {
    const cache = new FactCache(8);
    commit(cache, 10n, 'a');
    commit(cache, 11n, 'a');
    expect(serve(cache, 'a')).toBeUndefined();
    expect(cache.get('a')).toBe(11);
  });
});

describe('isStaleFacts', () => {
  const stale = Object.assign(new Error('cached facts changed'), { code: STALE_FACTS });
  it('finds vigil_facts_hold raising, directly and through a driver wrapper', () => {
    expect(isStaleFacts(stale)).toBe(true);
    expect(isStaleFacts(new DrizzleQueryError('INSERT …', [], stale))).toBe(true);
  });
  it('is false for any other failure', () => {
    expect(isStaleFacts(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isStaleFacts(new DrizzleQueryError('INSERT …', [], new Error('boom')))).toBe(false);
    expect(isStaleFacts('VGS01')).toBe(false);
  });
});
