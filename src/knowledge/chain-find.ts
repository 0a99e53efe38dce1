// memory.chain.find: objects by name, alias and cue. The whole query as a name or alias first ("老李" is
// 李卫东's alias), then objects the query mentions by any of their names, then BM25 over object documents.
import { searchBm25, selectTerms } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { tokenize } from '../text/tokenize.js';
import { objectsForQuery } from './alias-lookup.js';
import { aliasesOf, objectsWithAlias } from './aliases.js';
import type { ChainFindParams, FIND_MATCHES } from './chain-schema.js';
import { normName } from './names.js';
import { OBJECT_DOC_KIND } from './object-index.js';
import { summaryOf, type ObjectSummary } from './object-view.js';
import { getObjects, objectsNamed, type ObjectRow } from './objects.js';

type Match = (typeof FIND_MATCHES)[number];
interface Found {
  object: ObjectRow;
  match: Match;
  matched: string | null;
}

/** BM25 candidates read before the type and status filters. */
const TEXT_CANDIDATES = 200;

async function exactMatches(db: Queryable, owner: string, query: string): Promise<Found[]> {
  const norm = normName(query);
  if (norm === '') return [];
  const named = await objectsNamed(db, owner, [norm]);
  const aliased = await objectsWithAlias(db, owner, [norm]);
  const rows = new Map(
    (
      await getObjects(
        db,
        owner,
        aliased.map((a) => a.object_id),
      )
    ).map((o) => [o.object_id, o]),
  );
  const byAlias = aliased
    .flatMap((a) => {
      const object = rows.get(a.object_id);
      return object ? [{ object, match: 'alias' as const, matched: a.alias }] : [];
    })
    .sort((a, b) => b.object.updated_at - a.object.updated_at);
  return [...named.map((object) => ({ object, match: 'name' as const, matched: object.name })), ...byAlias];
}

async function textMatches(db: Queryable, owner: string, query: string): Promise<Found[]> {
  const selection = await selectTerms(db, owner, tokenize(query));
  const { hits } = await searchBm25(
    db,
    selection,
    { owner, kinds: [OBJECT_DOC_KIND] },
    { limit: TEXT_CANDIDATES },
  );
  const rows = new Map(
    (
      await getObjects(
        db,
        owner,
        hits.map((h) => h.ref),
      )
    ).map((o) => [o.object_id, o]),
  );
  return hits.flatMap((h) => {
    const object = rows.get(h.ref);
    return object ? [{ object, match: 'text' as const, matched: null }] : [];
  });
}

export async function findObjects(
  db: Queryable,
  p: ChainFindParams,
): Promise<{ items: Array<ObjectSummary & { match: Match; matched: string | null }> }> {
  const keep = (o: ObjectRow) =>
    (p.include_archived || o.status !== 'archived') &&
    (!p.types || p.types.length === 0 || p.types.includes(o.type));
  const mentions = (
    await objectsForQuery(db, p.owner, p.query, { types: p.types, includeArchived: p.include_archived })
  ).map((n): Found => ({ object: n.object, match: 'mention', matched: n.matched }));
  const found = new Map<string, Found>();
  for (const f of [
    ...(await exactMatches(db, p.owner, p.query)),
    ...mentions,
    ...(await textMatches(db, p.owner, p.query)),
  ]) {
    if (found.size >= p.limit) break;
    if (keep(f.object) && !found.has(f.object.object_id)) found.set(f.object.object_id, f);
  }
  const list = [...found.values()];
  const aliases = await aliasesOf(
    db,
    p.owner,
    list.map((f) => f.object.object_id),
  );
  return {
    items: list.map((f) => ({
      ...summaryOf(f.object, aliases.get(f.object.object_id) ?? []),
      match: f.match,
      matched: f.matched,
    })),
  };
}
