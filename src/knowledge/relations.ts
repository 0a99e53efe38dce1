// Relations: typed, directed links between two objects of one owner (works_with, belongs_to, spouse, …),
// each citing the events that state it. One row per (from, to, type); restating it adds sources.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, row, str } from '../storage/rows.js';
import { inList } from './objects.js';

/** Relation types are an open set of snake_case words. */
export const RELATION_TYPE = /^[a-z][a-z0-9_]{0,63}$/;

export const RelationRowSchema = row({
  relation_id: str,
  from_id: str,
  to_id: str,
  type: str,
  created_at: int,
});
export type RelationRow = z.output<typeof RelationRowSchema>;

const COLUMNS = 'relation_id, from_id, to_id, type, created_at';
const IdRow = row({ relation_id: str });

export const newRelationId = (): string => `rel_${randomBytes(9).toString('base64url')}`;

/** The relation, created if it is new; then its sources (a source cited before is kept once). */
export async function upsertRelation(
  tx: Queryable,
  owner: string,
  r: { from: string; to: string; type: string; sources: readonly string[] },
  now: number,
): Promise<{ id: string; created: boolean }> {
  const fresh = newRelationId();
  const { changes } = await tx.run(
    `INSERT INTO object_relations (relation_id, owner, from_id, to_id, type, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (owner, from_id, to_id, type) DO NOTHING`,
    [fresh, owner, r.from, r.to, r.type, now],
  );
  const found = await tx.one(
    IdRow,
    'SELECT relation_id FROM object_relations WHERE owner = ? AND from_id = ? AND to_id = ? AND type = ?',
    [owner, r.from, r.to, r.type],
  );
  if (!found) throw new Error('relation missing after upsert');
  for (const eventId of r.sources) {
    await tx.run(
      `INSERT INTO relation_sources (owner, relation_id, event_id) VALUES (?, ?, ?)
       ON CONFLICT (owner, relation_id, event_id) DO NOTHING`,
      [owner, found.relation_id, eventId],
    );
  }
  return { id: found.relation_id, created: changes > 0 };
}

/** Relations with an end among `ids`, oldest first, at most `limit`. */
export async function relationsTouching(
  db: Queryable,
  owner: string,
  ids: readonly string[],
  limit: number,
): Promise<RelationRow[]> {
  if (ids.length === 0) return [];
  return db.all(
    RelationRowSchema,
    `SELECT ${COLUMNS} FROM object_relations
      WHERE owner = ? AND (from_id IN ${inList(ids)} OR to_id IN ${inList(ids)})
      ORDER BY created_at, relation_id LIMIT ?`,
    [owner, ...ids, ...ids, limit],
  );
}

const SourceRow = row({ relation_id: str, event_id: str });

/** Each relation's source events, in event order. */
export async function relationSources(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db.all(
    SourceRow,
    `SELECT s.relation_id, s.event_id FROM relation_sources s
       JOIN events e ON e.owner = s.owner AND e.event_id = s.event_id
      WHERE s.owner = ? AND s.relation_id IN ${inList(ids)} ORDER BY e.seq`,
    [owner, ...ids],
  );
  for (const r of rows) out.get(r.relation_id)?.push(r.event_id);
  return out;
}
