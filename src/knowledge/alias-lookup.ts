// Which of an owner's objects a query names, by any of their names: the hook of recall's alias channel
// (events that use any of the object's names) and graph channel (what the object's sources and relations
// link to), and chain.find's mention tier. "老李什么时候回来" names 李卫东 through its alias 老李.
import type { Queryable } from '../storage/driver.js';
import { row, str } from '../storage/rows.js';
import { aliasesOf, objectsWithAlias } from './aliases.js';
import { getObjects, inList, MAX_NAME, objectsNamed, type ObjectRow, type ObjectType } from './objects.js';

/** Query spans looked up at most: units (Han characters, words) per span, and units read of a query. */
const MAX_SPAN_UNITS = 12;
const MAX_QUERY_UNITS = 256;
/** A single character (我, 爸, a letter) names too much to count as a mention. */
const MIN_MENTION_CHARS = 2;
const LOOKUP_CHUNK = 500;

export interface NamedObject {
  object: ObjectRow;
  aliases: string[];
  /** The name or alias the query holds, as stored. */
  matched: string;
  via: 'name' | 'alias';
}

export interface LookupOptions {
  types?: readonly ObjectType[] | undefined;
  /** Archived objects (a rejected project) are left out unless asked for. */
  includeArchived?: boolean | undefined;
}

/** Every name an object goes by: its name, then its aliases. */
export const namesOf = (o: { name: string; aliases: readonly string[] }): string[] => [o.name, ...o.aliases];

/**
 * The normal forms (names.ts) of every span of the query a name could fill: Han characters one by one, a
 * word of other letters or digits only whole (so `tony` is no mention in `antony`).
 */
export function mentionCandidates(query: string | readonly string[]): string[] {
  const text = typeof query === 'string' ? query : query.join(' ');
  const units = (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/\p{Script=Han}|[^\p{Script=Han}\p{P}\p{S}\s]+/gu) ?? []
  ).slice(0, MAX_QUERY_UNITS);
  const out = new Set<string>();
  for (let i = 0; i < units.length; i++) {
    let span = '';
    for (let j = i; j < Math.min(units.length, i + MAX_SPAN_UNITS); j++) {
      span += units[j];
      if (span.length > MAX_NAME) break;
      if ([...span].length >= MIN_MENTION_CHARS) out.add(span);
    }
  }
  return [...out];
}

async function chunked<T>(values: readonly string[], fn: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += LOOKUP_CHUNK)
    out.push(...(await fn(values.slice(i, i + LOOKUP_CHUNK))));
  return out;
}

/**
 * The objects whose normalised name or alias occurs in the query, each once with its longest match; longer
 * matches first, a name before an alias of the same length.
 */
export async function objectsForQuery(
  db: Queryable,
  owner: string,
  query: string | readonly string[],
  options: LookupOptions = {},
): Promise<NamedObject[]> {
  const candidates = mentionCandidates(query);
  if (candidates.length === 0) return [];
  const byName = await chunked(candidates, (c) => objectsNamed(db, owner, c));
  const byAlias = await chunked(candidates, (c) => objectsWithAlias(db, owner, c));
  const best = new Map<string, { norm: string; via: 'name' | 'alias'; alias?: string }>();
  const offer = (id: string, norm: string, via: 'name' | 'alias', alias?: string) => {
    const seen = best.get(id);
    const longer =
      !seen || norm.length > seen.norm.length || (norm.length === seen.norm.length && via === 'name');
    if (longer) best.set(id, { norm, via, ...(alias === undefined ? {} : { alias }) });
  };
  for (const r of byName) offer(r.object_id, r.norm_name, 'name');
  for (const r of byAlias) offer(r.object_id, r.norm_alias, 'alias', r.alias);
  const rows = (await getObjects(db, owner, [...best.keys()])).filter(
    (o) =>
      (options.includeArchived || o.status !== 'archived') &&
      (!options.types || options.types.length === 0 || options.types.includes(o.type)),
  );
  const aliases = await aliasesOf(
    db,
    owner,
    rows.map((o) => o.object_id),
  );
  const out = rows.map((o): NamedObject & { norm: string } => {
    const m = best.get(o.object_id) ?? { norm: o.norm_name, via: 'name' as const };
    return {
      object: o,
      aliases: aliases.get(o.object_id) ?? [],
      matched: m.via === 'alias' && m.alias !== undefined ? m.alias : o.name,
      via: m.via,
      norm: m.norm,
    };
  });
  out.sort(
    (a, b) =>
      b.norm.length - a.norm.length ||
      (a.via === b.via ? 0 : a.via === 'name' ? -1 : 1) ||
      a.object.object_id.localeCompare(b.object.object_id),
  );
  return out.map(({ norm: _norm, ...named }) => named);
}

const SourceRow = row({ event_id: str, object_id: str });
const RelatedRow = row({ event_id: str, relation_id: str, from_id: str, to_id: str });

export interface LinkedEvent {
  event_id: string;
  /** The matched object the event is linked to. */
  object_id: string;
  /** `object`: the object cites the event; otherwise the relation (one hop) that does. */
  via: 'object' | { relation_id: string; other_id: string };
}

/**
 * The events linked to these objects: those they cite, and those their relations cite (one hop), for the
 * graph channel. Memories that cite the same events are one join away (memory_sources).
 */
export async function linkedEvents(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<LinkedEvent[]> {
  if (ids.length === 0) return [];
  const own = await db.all(
    SourceRow,
    `SELECT event_id, object_id FROM object_sources WHERE owner = ? AND object_id IN ${inList(ids)}`,
    [owner, ...ids],
  );
  const related = await db.all(
    RelatedRow,
    `SELECT s.event_id, r.relation_id, r.from_id, r.to_id FROM object_relations r
       JOIN relation_sources s ON s.owner = r.owner AND s.relation_id = r.relation_id
      WHERE r.owner = ? AND (r.from_id IN ${inList(ids)} OR r.to_id IN ${inList(ids)})`,
    [owner, ...ids, ...ids],
  );
  const wanted = new Set(ids);
  return [
    ...own.map((r): LinkedEvent => ({ event_id: r.event_id, object_id: r.object_id, via: 'object' })),
    ...related.flatMap((r): LinkedEvent[] =>
      [r.from_id, r.to_id]
        .filter((id) => wanted.has(id))
        .map((id) => ({
          event_id: r.event_id,
          object_id: id,
          via: { relation_id: r.relation_id, other_id: id === r.from_id ? r.to_id : r.from_id },
        })),
    ),
  ];
}
