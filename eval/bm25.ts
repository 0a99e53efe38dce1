// A plain Okapi BM25 baseline written out (k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5) / (n + 0.5))), over
// lower-cased Latin words and digits and single CJK characters: zh-agent-memory's reference baseline.
import type { Baseline } from './baseline.js';

export const CHAR_BM25_NAME = 'BM25 (CJK characters)';

const K1 = 1.2;
const B = 0.75;
const TOKEN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]|[a-z0-9]+/gu;

/** Single CJK characters and runs of ASCII letters and digits, lower-cased. */
export const cjkCharTokenize = (text: string): string[] => text.toLowerCase().match(TOKEN) ?? [];

export interface Bm25Index extends Baseline {
  /** Every document's score for the query, best first (ties: the earlier document first). */
  scores(query: string): { id: string; score: number }[];
}

export function createCharBm25(tokenize: (text: string) => string[] = cjkCharTokenize): Bm25Index {
  const ids: string[] = [];
  const lengths: number[] = [];
  const postings = new Map<string, Map<number, number>>();
  let total = 0;
  const scores = (query: string) => {
    const n = ids.length;
    const avg = n > 0 ? total / n : 1;
    const score = new Map<number, number>();
    for (const term of new Set(tokenize(query))) {
      const docs = postings.get(term);
      if (!docs) continue;
      const idf = Math.log(1 + (n - docs.size + 0.5) / (docs.size + 0.5));
      for (const [doc, f] of docs) {
        const norm = K1 * (1 - B + (B * (lengths[doc] ?? 0)) / avg);
        score.set(doc, (score.get(doc) ?? 0) + (idf * f * (K1 + 1)) / (f + norm));
      }
    }
    return [...score]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .map(([doc, s]) => ({ id: ids[doc] as string, score: s }));
  };
  return {
    add(units) {
      for (const unit of units) {
        const doc = ids.length;
        const tokens = tokenize(unit.text);
        ids.push(unit.id);
        lengths.push(tokens.length);
        total += tokens.length;
        for (const token of tokens) {
          let docs = postings.get(token);
          if (!docs) postings.set(token, (docs = new Map()));
          docs.set(doc, (docs.get(doc) ?? 0) + 1);
        }
      }
    },
    scores,
    search: (query, limit) =>
      scores(query)
        .slice(0, limit)
        .map((s) => s.id),
  };
}
