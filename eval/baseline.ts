// The baseline: plain Okapi BM25 (k1 1.2, b 0.75) from MiniSearch over the same units as mnemo.
import MiniSearch from 'minisearch';
import type { EvalUnit } from './types.js';

export const BASELINE_NAME = 'BM25 (MiniSearch)';

export type Tokenizer = (text: string) => string[];

export interface Baseline {
  add(units: readonly EvalUnit[]): void;
  search(query: string, limit: number): string[];
}

/** Chinese split into single characters; other letters and digits stay whole words. */
export const charTokenize: Tokenizer = (text) =>
  text.match(/\p{Script=Han}|[^\p{Script=Han}\p{Z}\p{P}\p{S}\p{C}]+/gu) ?? [];

// d: 0 turns MiniSearch's BM25+ into plain BM25.
const BM25 = { k: 1.2, b: 0.75, d: 0 };

/** A fresh index; `tokenize` replaces MiniSearch's default tokenizer when given. */
export function createBaseline(options: { tokenize?: Tokenizer } = {}): Baseline {
  const index = new MiniSearch<{ id: string; text: string }>({
    fields: ['text'],
    ...(options.tokenize ? { tokenize: options.tokenize } : {}),
    searchOptions: { bm25: BM25 },
  });
  return {
    add(units) {
      index.addAll(units.map((u) => ({ id: u.id, text: u.text })));
    },
    search(query, limit) {
      // MiniSearch multiplies a document's score by its count of matched query terms;
      // dividing it out leaves the BM25 sum.
      return index
        .search(query)
        .map((r) => ({ id: r.id as string, score: r.score / Math.max(1, r.queryTerms.length) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, limit)
        .map((r) => r.id);
    },
  };
}
