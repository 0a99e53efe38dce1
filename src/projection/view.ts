// What an object's files show, read from the database (already redacted): the object, its aliases and
// sources, its relations with the other ends' slugs, its current facts, and a schedule's runs.
import type { Queryable } from '../storage/driver.js';
import { int, nstr, row, str } from '../storage/rows.js';
import { getObjects, type ObjectRow } from '../knowledge/knowledge.js';
import { slugFor } from './store.js';

const AliasRow = row({ alias: str, norm_alias: str });
const SourceRow = row({ event_id: str });
const RelationRow = row({ relation_id: str, from_id: str, to_id: str, type: str });
const FactRow = row({ memory_id: str, kind: str, text: str, state: str });
const RunRow = row({ event_id: str, at: int, text: str, task_id: nstr });

const MAX_RELATIONS = 500;
const MAX_FACTS = 200;
const MAX_RUNS = 100;

export interface RelationView {
  type: string;
  /** `out`: this object → the other; `in`: the other → this object. */
  direction: 'out' | 'in';
  slug: string;
  name: string;
}

export interface ObjectView {
  object: ObjectRow;
  slug: string;
  aliases: string[];
  sources: string[];
  relations: RelationView[];
  facts: Array<{ id: string; kind: string; text: string; state: string }>;
  runs: Array<{ id: string; at: number; text: string }>;
}

const attrsOf = (o: ObjectRow): Record<string, unknown> =>
  o.attrs === null ? {} : (JSON.parse(o.attrs) as Record<string, unknown>);

async function runsOf(db: Queryable, o: ObjectRow): Promise<ObjectView['runs']> {
  const attrs = attrsOf(o);
  const task = [attrs.schedule_id, attrs.task_id].find((v): v is string => typeof v === 'string');
  const rows = await db.all(
    RunRow,
    `SELECT e.event_id, e.at, e.text, e.task_id FROM events e
      WHERE e.owner = ? AND e.kind = 'schedule_run' AND (e.task_id = ? OR EXISTS (SELECT 1 FROM object_sources s
        WHERE s.owner = e.owner AND s.object_id = ? AND s.event_id = e.event_id))
      ORDER BY e.seq DESC LIMIT ?`,
    [o.owner, task ?? null, o.object_id, MAX_RUNS],
  );
  return rows.reverse().map((r) => ({ id: r.event_id, at: r.at, text: r.text }));
}

/** The view of one object, its slug and the slugs of its relations' other ends assigned as needed. */
export async function loadView(tx: Queryable, o: ObjectRow): Promise<ObjectView> {
  const owner = o.owner;
  const aliases = await tx.all(
    AliasRow,
    'SELECT alias, norm_alias FROM object_aliases WHERE owner = ? AND object_id = ? ORDER BY norm_alias',
    [owner, o.object_id],
  );
  const sources = await tx.all(
    SourceRow,
    `SELECT s.event_id FROM object_sources s JOIN events e ON e.owner = s.owner AND e.event_id = s.event_id
      WHERE s.owner = ? AND s.object_id = ? ORDER BY e.seq`,
    [owner, o.object_id],
  );
  const rels = await tx.all(
    RelationRow,
    `SELECT relation_id, from_id, to_id, type FROM object_relations
      WHERE owner = ? AND (from_id = ? OR to_id = ?) ORDER BY type, relation_id LIMIT ?`,
    [owner, o.object_id, o.object_id, MAX_RELATIONS],
  );
  const others = new Map(
    (
      await getObjects(
        tx,
        owner,
        rels.map((r) => (r.from_id === o.object_id ? r.to_id : r.from_id)),
      )
    ).map((x) => [x.object_id, x]),
  );
  const relations: RelationView[] = [];
  for (const r of rels) {
    const direction = r.from_id === o.object_id ? 'out' : 'in';
    const other = others.get(direction === 'out' ? r.to_id : r.from_id);
    if (!other) continue;
    relations.push({ type: r.type, direction, slug: await slugFor(tx, owner, other), name: other.name });
  }
  const norms = [...new Set([o.norm_name, ...aliases.map((a) => a.norm_alias)])].filter((n) => n !== '');
  const facts = await tx.all(
    FactRow,
    `SELECT memory_id, kind, text, coalesce(lifecycle, status) AS state FROM memories
      WHERE owner = ? AND kind IN ('fact', 'preference') AND norm_subject IN (${norms.map(() => '?').join(', ')})
        AND coalesce(lifecycle, status) IN ('active', 'candidate')
      ORDER BY at, memory_id LIMIT ?`,
    [owner, ...norms, MAX_FACTS],
  );
  return {
    object: o,
    slug: await slugFor(tx, owner, o),
    aliases: aliases.map((a) => a.alias),
    sources: sources.map((s) => s.event_id),
    relations,
    facts: facts.map((f) => ({ id: f.memory_id, kind: f.kind, text: f.text, state: f.state })),
    runs: o.type === 'schedule' ? await runsOf(tx, o) : [],
  };
}

export { attrsOf };
