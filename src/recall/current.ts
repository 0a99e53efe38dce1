// What is current: for a question about the present state (现在, 目前, 最新, currently, now, latest, still), the
// newest statement on a subject outranks the older ones it supersedes. Built from the hits themselves: two
// hits are on one subject when the newer holds most of what the older matched of the query.
// (With the knowledge layer, current facts and their supersession can feed the same ranking.)

export const CURRENT_ZH = /现在|目前|如今|当前|眼下|现今|最新|现行|还在|仍然|依然/;
export const CURRENT_EN =
  /\b(?:currently|current|now|nowadays|these days|at the moment|right now|latest|still|any ?more)\b/;

/** Whether a query (NFKC, lower case) asks about the present state. */
export const asksForCurrent = (text: string): boolean => CURRENT_ZH.test(text) || CURRENT_EN.test(text);

export interface Statement<K> {
  key: K;
  at: number;
  /** The query terms the statement holds, with their weights (idf). */
  terms: ReadonlyMap<string, number>;
}

export interface CurrentOptions {
  /** Share of an older statement's matched weight a newer one must hold to be on the same subject. */
  overlap: number;
  /** A newer statement supersedes only when it came this much later (a reply confirms, it does not replace). */
  gapMs: number;
}

export const CURRENT: CurrentOptions = { overlap: 0.8, gapMs: 12 * 3_600_000 };

/**
 * The statements in their new order for a question about the present: those no later statement on their
 * subject supersedes, newest first, then the superseded ones, newest first. Returns the superseded keys too.
 */
export function orderByCurrency<K>(
  statements: readonly Statement<K>[],
  options: CurrentOptions = CURRENT,
): { current: K[]; superseded: Set<K> } {
  const weight = (terms: ReadonlyMap<string, number>) => [...terms.values()].reduce((a, b) => a + b, 0);
  const superseded = new Set<K>();
  for (const older of statements) {
    const total = weight(older.terms);
    if (total <= 0) continue;
    for (const newer of statements) {
      if (newer.at < older.at + options.gapMs) continue;
      let shared = 0;
      for (const [term, w] of older.terms) if (newer.terms.has(term)) shared += w;
      if (shared / total >= options.overlap) {
        superseded.add(older.key);
        break;
      }
    }
  }
  const byTime = [...statements].sort((a, b) => b.at - a.at);
  return {
    current: [
      ...byTime.filter((s) => !superseded.has(s.key)),
      ...byTime.filter((s) => superseded.has(s.key)),
    ].map((s) => s.key),
    superseded,
  };
}
