// BM25 as a pure function over one owner's statistics: the formula FTS5's bm25() uses, fed with the
// owner's own document count, average length and document frequencies.
import type { FieldCounts, OwnerStats } from './index.js';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * Lucene's idf, log(1 + (N - df + 0.5) / (df + 0.5)): always positive and falling smoothly with df. FTS5's
 * log((N - df + 0.5) / (df + 0.5)) is zero or less for a term in half an owner's documents, which on a small
 * owner (a new user, a short session) leaves every common word of a query worth nothing.
 */
export const idf = (docs: number, df: number): number => Math.log(1 + (docs - df + 0.5) / (df + 0.5));

export interface ScoreInput {
  owner: Pick<OwnerStats, 'docs' | 'tokens'>;
  /** Per term: its document frequency, its documents' field counts and its weight (default 1). */
  terms: ReadonlyArray<{ df: number; postings: ReadonlyMap<number, FieldCounts>; weight?: number }>;
  /** Tokens of each candidate document. */
  lengths: ReadonlyMap<number, number>;
  /** Weight of each field: body, cues, context, chars. */
  weights: FieldCounts;
}

/** Score of every candidate document (those in `lengths`) that holds at least one term. */
export function bm25Scores(input: ScoreInput): Map<number, number> {
  const { owner, weights, lengths } = input;
  const avgLen = owner.docs > 0 ? owner.tokens / owner.docs : 1;
  const scores = new Map<number, number>();
  for (const term of input.terms) {
    const w = idf(owner.docs, term.df) * (term.weight ?? 1);
    for (const [docId, counts] of term.postings) {
      const len = lengths.get(docId);
      if (len === undefined) continue;
      const f =
        weights[0] * counts[0] + weights[1] * counts[1] + weights[2] * counts[2] + weights[3] * counts[3];
      if (f <= 0) continue;
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * len) / (avgLen > 0 ? avgLen : 1));
      scores.set(docId, (scores.get(docId) ?? 0) + (w * f * (BM25_K1 + 1)) / (f + norm));
    }
  }
  return scores;
}
