// Retrieval metrics as pure functions over ranked ids, with the datasets' official definitions.

const topK = (ranked: readonly string[], k: number): Set<string> => new Set(ranked.slice(0, k));

/** Share of the evidence found in the top k (LoCoMo evidence recall). */
export function recallAtK(ranked: readonly string[], evidence: readonly string[], k: number): number {
  const relevant = new Set(evidence);
  if (relevant.size === 0) return 0;
  const top = topK(ranked, k);
  let found = 0;
  for (const id of relevant) if (top.has(id)) found += 1;
  return found / relevant.size;
}

/** 1 if every evidence id is in the top k (LongMemEval recall_all). */
export function recallAllAtK(ranked: readonly string[], evidence: readonly string[], k: number): number {
  if (evidence.length === 0) return 0;
  const top = topK(ranked, k);
  return evidence.every((id) => top.has(id)) ? 1 : 0;
}

/** 1 if any evidence id is in the top k (LongMemEval recall_any). */
export function recallAnyAtK(ranked: readonly string[], evidence: readonly string[], k: number): number {
  const top = topK(ranked, k);
  return evidence.some((id) => top.has(id)) ? 1 : 0;
}

const gain = (position: number): number => 1 / Math.log2(position + 2);

/** Binary-relevance NDCG@k: DCG of the ranking over the DCG of the ideal one. */
export function ndcgAtK(ranked: readonly string[], evidence: readonly string[], k: number): number {
  const relevant = new Set(evidence);
  if (relevant.size === 0) return 0;
  let dcg = 0;
  const seen = new Set<string>();
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id) && !seen.has(id)) dcg += gain(i);
    seen.add(id);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(relevant.size, k); i++) ideal += gain(i);
  return dcg / ideal;
}

/** Sessions in the order of their best-ranked unit; units of no known session are left out. */
export function rankSessions(ranked: readonly string[], sessionOf: ReadonlyMap<string, string>): string[] {
  const sessions: string[] = [];
  const seen = new Set<string>();
  for (const id of ranked) {
    const session = sessionOf.get(id);
    if (session === undefined || seen.has(session)) continue;
    seen.add(session);
    sessions.push(session);
  }
  return sessions;
}

/** Nearest-rank percentile (p in 0..100) of the values; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}
