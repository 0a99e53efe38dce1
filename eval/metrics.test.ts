import { describe, expect, it } from 'vitest';
import { mean, ndcgAtK, percentile, rankSessions, recallAllAtK, recallAnyAtK, recallAtK } from './metrics.js';

describe('recall@k (share of the evidence in the top k)', () => {
  const ranked = ['a', 'x', 'b', 'y', 'c'];
  it('counts each evidence id once', () => {
    expect(recallAtK(ranked, ['a', 'b', 'c', 'd'], 1)).toBe(0.25);
    expect(recallAtK(ranked, ['a', 'b', 'c', 'd'], 3)).toBe(0.5);
    expect(recallAtK(ranked, ['a', 'b', 'c', 'd'], 25)).toBe(0.75);
    expect(recallAtK(ranked, ['b', 'b'], 3)).toBe(1);
  });
  it('is 0 without evidence or results', () => {
    expect(recallAtK(ranked, [], 5)).toBe(0);
    expect(recallAtK([], ['a'], 5)).toBe(0);
  });
});

describe('recall_all@k and recall_any@k', () => {
  const ranked = ['s1', 's2', 's3'];
  it('needs every evidence id for recall_all, one for recall_any', () => {
    expect(recallAllAtK(ranked, ['s1', 's3'], 2)).toBe(0);
    expect(recallAllAtK(ranked, ['s1', 's3'], 3)).toBe(1);
    expect(recallAnyAtK(ranked, ['s1', 's3'], 1)).toBe(1);
    expect(recallAnyAtK(ranked, ['s9'], 3)).toBe(0);
  });
});

describe('NDCG@k, binary relevance', () => {
  it('matches hand-computed values', () => {
    // DCG = 1/log2(2) + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) = 1.6309…
    expect(ndcgAtK(['a', 'x', 'b', 'y'], ['a', 'b'], 5)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 10);
    expect(ndcgAtK(['a', 'x', 'b', 'y'], ['a', 'b'], 5)).toBeCloseTo(0.919721, 6);
    expect(ndcgAtK(['x', 'a'], ['a'], 5)).toBeCloseTo(0.63093, 6);
    expect(ndcgAtK(['a', 'x', 'b'], ['a', 'b'], 1)).toBe(1);
    expect(ndcgAtK(['x', 'y'], ['a'], 2)).toBe(0);
  });
  it('caps the ideal ranking at k', () => {
    // 3 relevant, k = 2: IDCG = 1 + 1/log2(3); the ranking finds both top slots.
    expect(ndcgAtK(['a', 'b', 'c'], ['a', 'b', 'c'], 2)).toBe(1);
  });
});

describe('rankSessions', () => {
  it('ranks a session by its best-ranked turn', () => {
    const sessionOf = new Map([
      ['t1', 'B'],
      ['t2', 'A'],
      ['t3', 'B'],
      ['t4', 'C'],
      ['t5', 'A'],
    ]);
    expect(rankSessions(['t3', 't5', 't1', 't2', 't4'], sessionOf)).toEqual(['B', 'A', 'C']);
    expect(rankSessions(['t4', 'unknown', 't2'], sessionOf)).toEqual(['C', 'A']);
  });
  it('turns session rank into session recall_all', () => {
    const sessionOf = new Map([
      ['a1', 'A'],
      ['a2', 'A'],
      ['b1', 'B'],
      ['c1', 'C'],
    ]);
    const sessions = rankSessions(['a1', 'a2', 'b1', 'c1'], sessionOf);
    expect(recallAllAtK(sessions, ['A', 'B'], 2)).toBe(1);
    expect(recallAllAtK(['a1', 'a2', 'b1'], ['a1', 'b1'], 2)).toBe(0);
  });
});

describe('percentile and mean', () => {
  it('uses the nearest rank', () => {
    const values = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 95)).toBe(10);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([42], 95)).toBe(42);
    expect(percentile([], 50)).toBeNaN();
    expect(mean([1, 2, 3])).toBe(2);
  });
});
