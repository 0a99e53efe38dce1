// Objects: an owner's stable entities (a person, a project, a credential's whereabouts, …) with a name, a
// body and a status. The knowledge layer is the only writer of the object tables.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, nstr, row, str } from '../storage/rows.js';

export const OBJECT_TYPES = [
  'person',
  'project',
  'task',
  'todo',
  'schedule',
  'asset',
  'domain',
  'knowledge',
  'credential_ref',
] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];
export const OBJECT_STATUSES = ['candidate', 'active', 'archived'] as const;
export type ObjectStatus = (typeof OBJECT_STATUSES)[number];

export const MAX_BODY = 16_000;
export const MAX_NAME = 200;
export const MAX_ALIASES = 32;

export const ObjectRowSchema = row({
  object_id: str,
  owner: str,
  type: z.enum(OBJECT_TYPES),
  name: str,
  norm_name: str,
  body: str,
  status: z.enum(OBJECT_STATUSES),
  revision: int,
  attrs: nstr,
  created_at: int,
  updated_at: int,
});
export type ObjectRow = z.output<typeof ObjectRowSchema>;

const COLUMNS =
  'object_id, owner, type, name, norm_name, body, status, revision, attrs, created_at, updated_at';

export const newObjectId = (): string => `obj_${randomBytes(9).toString('base64url')}`;

/**
 * invariant: a revoked object reaches no reader (find, browse, read, todos, alias lookups, recall); only a
 * restatement of its name still merges into it, and it stays revoked (test: src/knowledge/revoke-object.test.ts).
 */
const LIVE = 'revoked_at IS NULL';

/** `IN (?, ?, …)` for a non-empty list. */
export const inList = (values: readonly SqlValue[]): string => `(${values.map(() => '?').join(', ')})`;

export async function getObjects(db: Queryable, owner: string, ids: readonly string[]): Promise<ObjectRow[]> {
  if (ids.length === 0) return [];
  return db.all(
    ObjectRowSchema,
    `SELECT ${COLUMNS} FROM objects WHERE owner = ? AND ${LIVE} AND object_id IN ${inList(ids)} ORDER BY object_id`,
    [owner, ...ids],
  );
}

export async function getObject(db: Queryable, owner: string, id: string): Promise<ObjectRow | undefined> {
  return (await getObjects(db, owner, [id]))[0];
}

/** The object of this type whose normalised name is `norm`, revoked or not (the name stays taken). */
export async function objectByName(
  db: Queryable,
  owner: string,
  type: ObjectType,
  norm: string,
): Promise<ObjectRow | undefined> {
  return db.one(
    ObjectRowSchema,
    `SELECT ${COLUMNS} FROM objects WHERE owner = ? AND type = ? AND norm_name = ?`,
    [owner, type, norm],
  );
}

/** Objects of any type whose normalised name is one of `norms`, latest change first. */
export async function objectsNamed(
  db: Queryable,
  owner: string,
  norms: readonly string[],
): Promise<ObjectRow[]> {
  if (norms.length === 0) return [];
  return db.all(
    ObjectRowSchema,
    `SELECT ${COLUMNS} FROM objects WHERE owner = ? AND ${LIVE} AND norm_name IN ${inList(norms)}
      ORDER BY updated_at DESC, object_id`,
    [owner, ...norms],
  );
}

/** Every object of one type, oldest first. */
export async function objectsOfType(db: Queryable, owner: string, type: ObjectType): Promise<ObjectRow[]> {
  return db.all(
    ObjectRowSchema,
    `SELECT ${COLUMNS} FROM objects WHERE owner = ? AND ${LIVE} AND type = ? ORDER BY created_at, object_id`,
    [owner, type],
  );
}

export async function insertObject(tx: Queryable, o: ObjectRow): Promise<void> {
  await tx.run(`INSERT INTO objects (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    o.object_id,
    o.owner,
    o.type,
    o.name,
    o.norm_name,
    o.body,
    o.status,
    o.revision,
    o.attrs,
    o.created_at,
    o.updated_at,
  ]);
}

/** Writes an object's changeable columns (its id, owner, type and creation never change). */
export async function updateObject(tx: Queryable, o: ObjectRow): Promise<void> {
  await tx.run(
    `UPDATE objects SET name = ?, norm_name = ?, body = ?, status = ?, revision = ?, attrs = ?, updated_at = ?
      WHERE owner = ? AND object_id = ?`,
    [o.name, o.norm_name, o.body, o.status, o.revision, o.attrs, o.updated_at, o.owner, o.object_id],
  );
}

export interface PageOptions {
  after?: string | undefined;
  limit: number;
  types?: readonly ObjectType[] | undefined;
}

/** Every object by stable id, archived included (revoked never): `limit` after `after`. */
export async function pageObjects(db: Queryable, owner: string, page: PageOptions): Promise<ObjectRow[]> {
  const where = ['owner = ?', LIVE];
  const params: SqlValue[] = [owner];
  if (page.after !== undefined) {
    where.push('object_id > ?');
    params.push(page.after);
  }
  if (page.types && page.types.length > 0) {
    where.push(`type IN ${inList(page.types)}`);
    params.push(...page.types);
  }
  return db.all(
    ObjectRowSchema,
    `SELECT ${COLUMNS} FROM objects WHERE ${where.join(' AND ')} ORDER BY object_id LIMIT ?`,
    [...params, page.limit],
  );
}

const SourceRow = row({ object_id: str, event_id: str, quote: nstr });
export interface ObjectSource {
  event_id: string;
  quote: string | null;
}

/** Cites events; a source cited before keeps its first quote. Answers how many were new. */
export async function addObjectSources(
  tx: Queryable,
  owner: string,
  id: string,
  sources: readonly ObjectSource[],
): Promise<number> {
  let added = 0;
  for (const s of sources) {
    const { changes } = await tx.run(
      `INSERT INTO object_sources (owner, object_id, event_id, quote) VALUES (?, ?, ?, ?)
       ON CONFLICT (owner, object_id, event_id) DO NOTHING`,
      [owner, id, s.event_id, s.quote],
    );
    added += changes;
  }
  return added;
}

export async function objectSources(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<Map<string, ObjectSource[]>> {
  const out = new Map<string, ObjectSource[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db.all(
    SourceRow,
    `SELECT s.object_id, s.event_id, s.quote FROM object_sources s
       JOIN events e ON e.owner = s.owner AND e.event_id = s.event_id
      WHERE s.owner = ? AND s.object_id IN ${inList(ids)} ORDER BY e.seq`,
    [owner, ...ids],
  );
  for (const r of rows) out.get(r.object_id)?.push({ event_id: r.event_id, quote: r.quote });
  return out;
}
