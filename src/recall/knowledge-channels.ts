// The knowledge layer's channels. `alias`: the query names an object by any of its names ("老李" is 李卫东),
// so it is searched again with the object's other names, and the hits that use one of them rank. `graph`:
// what the named objects link to, one hop (their sources, their relations' sources, memories about them).
import { linkedEvents, namesOf, objectsForQuery, type NamedObject } from '../knowledge/alias-lookup.js';
import { OBJECT_DOC_KIND } from '../knowledge/object-index.js';
import { indexOf, type Bm25Hit, type DocFilters, type DocHit, type TermSelection } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { tokenize } from '../text/tokenize.js';
import { docsByRef, mayNameObject, memoriesAbout } from './knowledge-docs.js';
import type { Via } from './schema.js';

/** Objects a query names, at most (longest matches first). */
export const MAX_NAMED = 4;
/** Documents holding a name, read at most per name (a name on every page says little). */
const MAX_NAME_POSTINGS = 2_000;

/** Object statuses that never surface; archived ones only when asked for. */
const HIDDEN_OBJECTS: ReadonlySet<string> = new Set(['revoked', 'archived']);

export interface KnowledgeHits {
  named: NamedObject[];
  /** The expanded query's hits that use a name of a named object, best first; the objects themselves first. */
  alias: DocHit[];
  /** One hop from the named objects, best first. */
  graph: DocHit[];
  /** The object each alias or graph hit came through. */
  via: Map<number, Via>;
}

const EMPTY: KnowledgeHits = { named: [], alias: [], graph: [], via: new Map() };

/** The index terms a name is found by: its words and bigrams (single Han characters say too little). */
export function nameTerms(name: string): string[] {
  const tokens = tokenize(name);
  const long = tokens.filter((t) => [...t].length > 1 || !/\p{Script=Han}/u.test(t));
  return [...new Set(long.length > 0 ? long : tokens)];
}

export interface KnowledgeSearch {
  /** BM25 of the query's own terms plus these extra ones. */
  expanded(extra: readonly string[]): Promise<Bm25Hit[]>;
  selection: TermSelection;
}

export async function knowledgeChannels(
  db: Queryable,
  query: string,
  filters: DocFilters,
  candidates: number,
  search: KnowledgeSearch,
  options: { includeArchived?: boolean | undefined } = {},
): Promise<KnowledgeHits> {
  const owner = search.selection.owner;
  if (!owner || !(await mayNameObject(db, filters.owner, query))) return EMPTY;
  const named = (
    await objectsForQuery(db, filters.owner, query, { includeArchived: options.includeArchived })
  )
    .filter(
      (n) =>
        !HIDDEN_OBJECTS.has(n.object.status) || (options.includeArchived && n.object.status === 'archived'),
    )
    .slice(0, MAX_NAMED);
  if (named.length === 0) return EMPTY;

  // Which documents use which object's names: every term of a name present (postings of rare terms).
  const byName = named.flatMap((n) =>
    namesOf({ name: n.object.name, aliases: n.aliases }).map((name) => ({ n, name, terms: nameTerms(name) })),
  );
  const postings = await indexOf(db).postings(db, owner, [...new Set(byName.flatMap((b) => b.terms))]);
  const via = new Map<number, Via>();
  for (const { n, terms } of byName) {
    const lists = terms.map((t) => postings.get(t));
    if (lists.some((l) => !l || l.size > MAX_NAME_POSTINGS)) continue;
    const [first, ...rest] = lists as Map<number, unknown>[];
    for (const id of first?.keys() ?? [])
      if (rest.every((l) => l.has(id)) && !via.has(id))
        via.set(id, { object_id: n.object.object_id, name: n.object.name });
  }
  const extra = byName.flatMap((b) => b.terms);
  const hits = (await search.expanded(extra)).filter((h) => via.has(h.docId) && h.kind !== OBJECT_DOC_KIND);
  const ids = named.map((n) => n.object.object_id);
  const wantObjects = !filters.kinds || filters.kinds.includes(OBJECT_DOC_KIND);
  const objectDocs = wantObjects ? await docsByRef(db, { ...filters, kinds: [OBJECT_DOC_KIND] }, ids) : [];
  for (const d of objectDocs) {
    const n = named.find((x) => x.object.object_id === d.ref);
    if (n) via.set(d.docId, { object_id: n.object.object_id, name: n.object.name });
  }
  const alias = [...objectDocs, ...hits].slice(0, candidates);

  // One hop: what the objects cite, what their relations cite, memories whose subject is the object.
  const linked = (await linkedEvents(db, filters.owner, ids)).map((l) => ({
    ref: l.event_id,
    object_id: l.object_id,
  }));
  const about = await memoriesAbout(db, filters.owner, named);
  const refOf = new Map<string, string>();
  for (const l of [...linked, ...about]) if (!refOf.has(l.ref)) refOf.set(l.ref, l.object_id);
  const linkedDocs = await docsByRef(db, filters, [...refOf.keys()]);
  const score = new Map(hits.map((h) => [h.docId, h.score]));
  // The expanded query orders the linked documents it matches; the rest follow, newest first.
  const graph = linkedDocs
    .sort((a, b) => (score.get(b.docId) ?? -1) - (score.get(a.docId) ?? -1) || b.at - a.at)
    .slice(0, candidates);
  for (const d of graph) {
    if (via.has(d.docId)) continue;
    const n = named.find((x) => x.object.object_id === refOf.get(d.ref));
    if (n) via.set(d.docId, { object_id: n.object.object_id, name: n.object.name });
  }
  return { named, alias, graph, via };
}
