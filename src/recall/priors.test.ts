import { describe, expect, it } from 'vitest';
import type { Bm25Hit } from '../search/search.js';
import { addSessionVotes, boostRole, sessionVotes } from './priors.js';

const hit = (
  docId: number,
  score: number,
  sessionId: string | null,
  role: string | null = 'user',
): Bm25Hit => ({
  docId,
  kind: 'event',
  ref: `e${docId}`,
  at: docId,
  score,
  sessionId,
  role,
});

describe('boostRole', () => {
  it('multiplies the scores of one role and re-orders', () => {
    const hits = [hit(1, 10, 's', 'agent'), hit(2, 8, 's', 'user'), hit(3, 5, 's', 'agent')];
    const boosted = boostRole(hits, 'user', 1.5);
    expect(boosted.map((h) => [h.docId, h.score])).toEqual([
      [2, 12],
      [1, 10],
      [3, 5],
    ]);
    expect(hits[1]?.score).toBe(8);
  });

  it('leaves the order alone at factor 1', () => {
    const hits = [hit(1, 10, 's', 'agent'), hit(2, 8, 's')];
    expect(boostRole(hits, 'user', 1).map((h) => h.docId)).toEqual([1, 2]);
  });
});

describe('session votes', () => {
  it("sums a session's best hits, at most `top` of them", () => {
    const votes = sessionVotes(
      [hit(1, 5, 'a'), hit(2, 4, 'a'), hit(3, 3, 'a'), hit(4, 9, 'b'), hit(5, 1, null)],
      2,
    );
    expect(votes).toEqual(
      new Map([
        ['a', 9],
        ['b', 9],
      ]),
    );
  });

  it('lifts a hit whose session keeps matching above a lone stronger match', () => {
    // Doc 1 is the best single match; docs 2–4 share a session that matches again and again.
    const hits = [hit(1, 10, 'lone'), hit(2, 9, 'busy'), hit(3, 8, 'busy'), hit(4, 8, 'busy')];
    const voted = addSessionVotes(hits, 0.15, 3);
    expect(voted[0]?.docId).toBe(2);
    expect(voted[0]?.score).toBeCloseTo(9 + 0.15 * 16, 10);
    // A hit with no session gets no vote.
    expect(addSessionVotes([hit(9, 3, null)], 0.15, 3)[0]?.score).toBe(3);
  });
});
