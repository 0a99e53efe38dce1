import { describe, expect, it } from 'vitest';
import { createLru } from './query.js';
import { retryDelayMs } from '../observe/commit.js';
import { EMBED_WORKER_DEFAULTS } from './worker.js';

describe('createLru', () => {
  it('forgets the least recently used entry beyond its size', () => {
    const lru = createLru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c'), lru.size]).toEqual([1, 3, 2]);
  });
});

describe('embedding worker backoff', () => {
  it('starts at the base, doubles, and stops at the cap', () => {
    const { backoffBaseMs: retryBaseMs, backoffCapMs: retryCapMs } = EMBED_WORKER_DEFAULTS;
    expect([1, 2, 3, 7, 50].map((n) => retryDelayMs(n, { retryBaseMs, retryCapMs }))).toEqual([
      10_000, 20_000, 40_000, 600_000, 600_000,
    ]);
  });
});
