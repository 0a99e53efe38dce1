import { describe, expect, it } from 'vitest';
import { fuseRankings } from './rrf.js';

describe('fuseRankings', () => {
  it('sums weighted reciprocal ranks and records each channel rank', () => {
    const fused = fuseRankings(
      [
        { channel: 'bm25', weight: 1, keys: ['a', 'b', 'c'] },
        { channel: 'id', weight: 1, keys: ['c'] },
        { channel: 'recency', weight: 0.2, keys: ['b', 'a'] },
      ],
      60,
    );
    expect(fused.map((f) => f.key)).toEqual(['c', 'a', 'b']);
    expect(fused[0]?.ranks).toEqual({ bm25: 3, id: 1 });
    expect(fused[0]?.score).toBeCloseTo(1 / 63 + 1 / 61, 10);
    expect(fused[1]?.ranks).toEqual({ bm25: 1, recency: 2 });
  });

  it('counts a key once per channel even if a channel repeats it', () => {
    const fused = fuseRankings([{ channel: 'bm25', weight: 1, keys: ['a', 'a'] }]);
    expect(fused).toHaveLength(1);
    expect(fused[0]?.score).toBeCloseTo(1 / 61, 10);
  });
});
