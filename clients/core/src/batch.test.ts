import { describe, expect, it } from 'vitest';
import { batchCount, growBatch, utf8Bytes } from './batch.js';

describe('batchCount', () => {
  it('stops at the event limit', () => {
    expect(batchCount([10, 10, 10, 10], { maxEvents: 3, maxBytes: 1000 })).toBe(3);
  });

  it('stops before the byte limit, counting brackets and commas', () => {
    // [a,b] with 10-byte events: 2 + 10 + 1 + 10 = 23 bytes
    expect(batchCount([10, 10, 10], { maxEvents: 100, maxBytes: 23 })).toBe(2);
    expect(batchCount([10, 10, 10], { maxEvents: 100, maxBytes: 22 })).toBe(1);
  });

  it('counts the envelope around the events array', () => {
    // {"events":[a,b]} with 10-byte events: 13 + 10 + 1 + 10 = 34 bytes
    expect(batchCount([10, 10, 10], { maxEvents: 100, maxBytes: 34 }, 13)).toBe(2);
    expect(batchCount([10, 10, 10], { maxEvents: 100, maxBytes: 33 }, 13)).toBe(1);
  });

  it('always takes one event, even one above the byte limit, so it is tried and refused alone', () => {
    expect(batchCount([5000, 10], { maxEvents: 100, maxBytes: 100 })).toBe(1);
  });

  it('takes nothing from an empty queue', () => {
    expect(batchCount([], { maxEvents: 100, maxBytes: 100 })).toBe(0);
  });
});

describe('growBatch', () => {
  it('doubles back toward the default after a delivered batch', () => {
    expect(growBatch(3, 100)).toBe(6);
    expect(growBatch(64, 100)).toBe(100);
  });
});

describe('utf8Bytes', () => {
  it('counts UTF-8 bytes as a server reading the body does', () => {
    for (const text of ['', 'abc', 'é', '日本', '😀', 'a\ud800b']) {
      expect(utf8Bytes(text), text).toBe(new TextEncoder().encode(text).length);
    }
  });
});
