// Reciprocal rank fusion as a pure function.

export interface RankedList<K> {
  channel: string;
  weight: number;
  keys: readonly K[];
}

export interface Fused<K> {
  key: K;
  score: number;
  ranks: Record<string, number>;
}

export function fuseRankings<K>(lists: readonly RankedList<K>[], k = 60): Fused<K>[] {
  const out = new Map<K, Fused<K>>();
  for (const list of lists) {
    list.keys.forEach((key, index) => {
      const entry = out.get(key) ?? { key, score: 0, ranks: {} };
      if (entry.ranks[list.channel] !== undefined) return;
      entry.ranks[list.channel] = index + 1;
      entry.score += list.weight / (k + index + 1);
      out.set(key, entry);
    });
  }
  return [...out.values()].sort((a, b) => b.score - a.score);
}
