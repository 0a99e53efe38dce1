// The index documents of known refs (what an object links to) and the memories whose subject is an object.
import { mentionCandidates, namesOf, type NamedObject } from '../knowledge/alias-lookup.js';
import { normName } from '../knowledge/names.js';
import { MEMORY_KINDS } from '../observe/observe.js';
import { filterSql, type DocFilters, type DocHit } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { int, row, str } from '../storage/rows.js';

/** Refs read at most: an object cited by thousands of events links to everything. */
export const MAX_LINKED = 500;

const AnyRow = row({ n: int });
/** Name lookups per query at most (a 4,000-character query has many spans). */
const MAX_CANDIDATES = 2_000;

/**
 * Whether the query may name an object: one round trip over the name and alias indexes, so a query that
 * names none (most) costs recall a single lookup, not the full one.
 */
export async function mayNameObject(db: Queryable, owner: string, query: string): Promise<boolean> {
  const spans = mentionCandidates(query).slice(0, MAX_CANDIDATES);
  if (spans.length === 0) return false;
  const rows = await db.all(
    AnyRow,
    `SELECT 1 AS n FROM objects WHERE owner = ? AND norm_name IN (${marks(spans.length)})
     UNION ALL SELECT 1 AS n FROM object_aliases WHERE owner = ? AND norm_alias IN (${marks(spans.length)})
     LIMIT 1`,
    [owner, ...spans, owner, ...spans],
  );
  return rows.length > 0;
}

const DocRow = row({ docId: int, kind: str, ref: str, at: int });
const AboutRow = row({ memory_id: str, norm_subject: str });

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** The documents of these refs that pass the filters (score 0: the caller orders them). */
export async function docsByRef(
  db: Queryable,
  filters: DocFilters,
  refs: readonly string[],
): Promise<DocHit[]> {
  const wanted = [...new Set(refs)].slice(0, MAX_LINKED);
  if (wanted.length === 0) return [];
  const { where, params } = filterSql(filters);
  const rows = await db.all(
    DocRow,
    `SELECT d.doc_id AS "docId", d.kind, d.ref, d.at FROM search_docs d
      WHERE d.owner = ? AND d.ref IN (${marks(wanted.length)}) AND ${where}`,
    [filters.owner, ...wanted, ...params],
  );
  return rows.map((r) => ({ ...r, score: 0 }));
}

/** Memories whose subject is one of the objects' names, as refs with the object they are about. */
export async function memoriesAbout(
  db: Queryable,
  owner: string,
  named: readonly NamedObject[],
): Promise<{ ref: string; object_id: string }[]> {
  const objectOf = new Map<string, string>();
  for (const n of named)
    for (const name of namesOf({ name: n.object.name, aliases: n.aliases })) {
      const norm = normName(name);
      if (norm !== '' && !objectOf.has(norm)) objectOf.set(norm, n.object.object_id);
    }
  if (objectOf.size === 0) return [];
  const rows = await db.all(
    AboutRow,
    `SELECT memory_id, norm_subject FROM memories
      WHERE owner = ? AND kind IN (${marks(MEMORY_KINDS.length)}) AND norm_subject IN (${marks(objectOf.size)})
      LIMIT ${MAX_LINKED}`,
    [owner, ...MEMORY_KINDS, ...objectOf.keys()],
  );
  return rows.map((r) => ({ ref: r.memory_id, object_id: objectOf.get(r.norm_subject) ?? '' }));
}
