// Score adjustments over BM25 hits, as pure functions: an author-role prior and session votes.
import type { Bm25Hit } from '../search/search.js';

/** Multiplies the score of hits written by `role`; returns the hits in their new order. */
export function boostRole(hits: readonly Bm25Hit[], role: string, factor: number): Bm25Hit[] {
  if (factor === 1) return [...hits];
  return hits
    .map((h) => (h.role === role ? { ...h, score: h.score * factor } : h))
    .sort((a, b) => b.score - a.score);
}

/**
 * A session's vote: the sum of its best `top` hit scores. A session that keeps coming back to the
 * query's words is likelier to hold the answer than one stray match.
 */
export function sessionVotes(hits: readonly Bm25Hit[], top: number): Map<string, number> {
  const scores = new Map<string, number[]>();
  for (const h of hits) {
    if (h.sessionId === null) continue;
    const list = scores.get(h.sessionId) ?? [];
    if (list.length < top) list.push(h.score);
    scores.set(h.sessionId, list);
  }
  return new Map([...scores].map(([s, list]) => [s, list.reduce((a, b) => a + b, 0)]));
}

/** Each hit's score plus `weight` times the rest of its session's vote; hits re-ordered by it. */
export function addSessionVotes(hits: readonly Bm25Hit[], weight: number, top: number): Bm25Hit[] {
  if (weight === 0) return [...hits];
  const votes = sessionVotes(hits, top);
  return hits
    .map((h) => {
      const vote = h.sessionId === null ? 0 : (votes.get(h.sessionId) ?? 0);
      return { ...h, score: h.score + weight * Math.max(0, vote - h.score) };
    })
    .sort((a, b) => b.score - a.score);
}
