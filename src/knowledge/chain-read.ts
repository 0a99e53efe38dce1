// memory.chain.read: an object with its aliases, body, sources and relations, and a bounded expansion
// through its relations (depth 1: neighbours, 2: theirs), breadth first by (depth, id), paged by a cursor.
import { MemoryError } from '../errors.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Queryable } from '../storage/driver.js';
import type { ChainReadParams, ChainReadResult } from './chain-schema.js';
import { iso, summariesOf } from './object-view.js';
import { getObject, getObjects, objectSources, type ObjectRow } from './objects.js';
import { relationSources, relationsTouching, type RelationRow } from './relations.js';

/** Objects an expansion reaches at most, and relations read per step: a hub costs no more than this. */
const MAX_EXPANSION = 5_000;
const ROOT_RELATIONS = 200;
const HEAD_CHARS = 280;
const CHUNK = 500;

interface Reached {
  id: string;
  depth: number;
}

async function touching(db: Queryable, owner: string, ids: readonly string[]): Promise<RelationRow[]> {
  const out: RelationRow[] = [];
  for (let i = 0; i < ids.length && out.length < MAX_EXPANSION; i += CHUNK) {
    out.push(...(await relationsTouching(db, owner, ids.slice(i, i + CHUNK), MAX_EXPANSION)));
  }
  return out;
}

/** Every object within `depth` relations of the root (either direction), in (depth, id) order. */
async function expand(db: Queryable, owner: string, root: string, depth: number): Promise<Reached[]> {
  const seen = new Set([root]);
  const order: Reached[] = [];
  let frontier = [root];
  for (let d = 1; d <= depth && frontier.length > 0 && order.length < MAX_EXPANSION; d++) {
    const inFrontier = new Set(frontier);
    const next = new Set<string>();
    for (const r of await touching(db, owner, frontier)) {
      if (inFrontier.has(r.from_id) && !seen.has(r.to_id)) next.add(r.to_id);
      if (inFrontier.has(r.to_id) && !seen.has(r.from_id)) next.add(r.from_id);
    }
    frontier = [...next].sort().slice(0, MAX_EXPANSION - order.length);
    for (const id of frontier) {
      seen.add(id);
      order.push({ id, depth: d });
    }
  }
  return order;
}

const after = (r: Reached, cursor: Reached): boolean =>
  r.depth > cursor.depth || (r.depth === cursor.depth && r.id > cursor.id);

function parseCursor(cursor: string): Reached {
  const at = cursor.indexOf(':');
  return { depth: Number(cursor.slice(0, at)), id: cursor.slice(at + 1) };
}

const attrsOf = (o: ObjectRow): Record<string, unknown> | null =>
  o.attrs === null ? null : (JSON.parse(o.attrs) as Record<string, unknown>);

export async function readChain(db: Queryable, p: ChainReadParams): Promise<ChainReadResult> {
  const root = await getObject(db, p.owner, p.id);
  if (!root) throw new MemoryError('NOT_FOUND', `no object ${p.id} for this owner`, { id: p.id });
  const reached = await expand(db, p.owner, root.object_id, p.depth);
  const cursor = p.cursor === undefined ? undefined : parseCursor(p.cursor);
  const rest = cursor ? reached.filter((r) => after(r, cursor)) : reached;
  const page = rest.slice(0, p.limit);
  const last = page.at(-1);
  const inSet = new Set([root.object_id, ...reached.map((r) => r.id)]);
  const onPage = new Set(page.map((r) => r.id));

  // The root's own relations on the first page; then those linking a page object into the expansion.
  const relations = new Map<string, RelationRow>();
  if (!cursor)
    for (const r of await relationsTouching(db, p.owner, [root.object_id], ROOT_RELATIONS))
      relations.set(r.relation_id, r);
  for (const r of await touching(db, p.owner, [...onPage])) {
    const linked =
      (onPage.has(r.from_id) && inSet.has(r.to_id)) || (onPage.has(r.to_id) && inSet.has(r.from_id));
    if (linked) relations.set(r.relation_id, r);
  }
  const rels = [...relations.values()];
  const ends = [...new Set(rels.flatMap((r) => [r.from_id, r.to_id]))];
  const rows = new Map(
    (await getObjects(db, p.owner, [...new Set([...page.map((r) => r.id), ...ends])])).map((o) => [
      o.object_id,
      o,
    ]),
  );
  rows.set(root.object_id, root);
  const relSources = await relationSources(
    db,
    p.owner,
    rels.map((r) => r.relation_id),
  );
  const rootSources = (await objectSources(db, p.owner, [root.object_id])).get(root.object_id) ?? [];
  const eventIds = [...new Set([...rootSources.map((s) => s.event_id), ...[...relSources.values()].flat()])];
  const events = await getEventsByIds(db, p.owner, eventIds);

  const pageRows = page.flatMap((r) => {
    const o = rows.get(r.id);
    return o ? [{ o, depth: r.depth }] : [];
  });
  const [rootSummary] = await summariesOf(db, p.owner, [root]);
  const summaries = await summariesOf(
    db,
    p.owner,
    pageRows.map((r) => r.o),
  );
  if (!rootSummary) throw new Error('summary of the root missing');
  return {
    object: {
      ...rootSummary,
      body: root.body,
      attrs: attrsOf(root),
      created_at: iso(root.created_at),
      sources: rootSources,
    },
    objects: pageRows.flatMap((r, i) => {
      const s = summaries[i];
      return s ? [{ ...s, depth: r.depth, head: r.o.body.slice(0, HEAD_CHARS) }] : [];
    }),
    relations: rels.map((r) => ({
      id: r.relation_id,
      type: r.type,
      from: r.from_id,
      to: r.to_id,
      from_name: rows.get(r.from_id)?.name ?? '',
      to_name: rows.get(r.to_id)?.name ?? '',
      created_at: iso(r.created_at),
      sources: relSources.get(r.relation_id) ?? [],
    })),
    facts: [],
    sources: events.map((e) => ({
      event_id: e.event_id,
      kind: e.kind,
      role: e.role,
      at: iso(e.at),
      head: e.text.slice(0, HEAD_CHARS),
      length: e.text.length,
    })),
    next_cursor: last && rest.length > page.length ? `${last.depth}:${last.id}` : null,
  };
}
