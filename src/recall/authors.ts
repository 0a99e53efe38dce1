// Named authors: a log that writes its speakers' names into their turns ("Nate: I've had them…") makes a
// name a term of every turn its speaker writes. A question naming such a speaker ("What did Nate…") is about
// that speaker's own words, more than about the turns that only address them ("Hey Nate!").
import type { Bm25Hit } from '../search/search.js';
import type { FieldCounts } from '../search/index.js';
import { tokenize } from '../text/tokenize.js';

export interface AuthorOptions {
  /** Candidates holding the name needed to judge whose it is. */
  minHits: number;
  /** Share of them one author must have written. */
  share: number;
}

export const AUTHORS: AuthorOptions = { minHits: 20, share: 0.65 };

/** Index terms of the words the query capitalizes after its first (names: Caroline, Nate, Kevin). */
export function capitalizedTerms(query: string): Set<string> {
  const words = query.split(/\s+/).slice(1);
  return new Set(tokenize(words.filter((w) => /^[("'“]?\p{Lu}\p{Ll}/u.test(w)).join(' ')));
}

/**
 * The roles of the authors the query names: for each capitalized query term, the role that wrote at least
 * `share` of the candidates holding it (at least `minHits` of them).
 */
export function namedAuthorRoles(
  query: string,
  hits: readonly Bm25Hit[],
  termDocs: ReadonlyMap<string, ReadonlyMap<number, FieldCounts>>,
  options: AuthorOptions = AUTHORS,
): string[] {
  const names = capitalizedTerms(query);
  if (names.size === 0) return [];
  const roleOf = new Map(hits.map((h) => [h.docId, h.role]));
  const roles = new Set<string>();
  for (const [term, docs] of termDocs) {
    if (!names.has(term)) continue;
    const counts = new Map<string, number>();
    let n = 0;
    for (const id of docs.keys()) {
      const role = roleOf.get(id);
      if (role === undefined || role === null) continue;
      n++;
      counts.set(role, (counts.get(role) ?? 0) + 1);
    }
    if (n < options.minHits) continue;
    for (const [role, c] of counts) if (c >= options.share * n) roles.add(role);
  }
  return [...roles];
}
