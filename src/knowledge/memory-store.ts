// The knowledge layer's reads and writes of memories: their lifecycle columns and added sources. Content
// columns are written once, by observation's publish (the update triggers refuse any change to them).
import type { z } from 'zod';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, nint, nstr, num, row, str } from '../storage/rows.js';

export const StateRow = row({
  memory_id: str,
  owner: str,
  kind: str,
  status: str,
  lifecycle: nstr,
  text: str,
  subject: nstr,
  predicate: nstr,
  object: nstr,
  at: int,
  valid_from: nint,
  valid_to: nint,
  norm_subject: nstr,
  norm_predicate: nstr,
  norm_object: nstr,
  origin: nstr,
  conflict_id: nstr,
  revoked_reason: nstr,
  updated_at: nint,
  track: nstr,
  project_id: nstr,
  summary: nstr,
  risk: nstr,
  confidence: num.nullable(),
  approved_by: nstr,
  approved_event: nstr,
  archived_at: nint,
});
export type StateRow = z.output<typeof StateRow>;

const STATE_COLUMNS = Object.keys(StateRow.shape).join(', ');

export const getState = (db: Queryable, owner: string, id: string): Promise<StateRow | undefined> =>
  db.one(StateRow, `SELECT ${STATE_COLUMNS} FROM memories WHERE owner = ? AND memory_id = ?`, [owner, id]);

/** Every version of a fact key, revoked ones included. */
export const factVersions = (
  db: Queryable,
  owner: string,
  normSubject: string,
  normPredicate: string,
): Promise<StateRow[]> =>
  db.all(
    StateRow,
    `SELECT ${STATE_COLUMNS} FROM memories
      WHERE owner = ? AND kind = 'fact' AND norm_subject = ? AND norm_predicate = ?
      ORDER BY valid_from, memory_id`,
    [owner, normSubject, normPredicate],
  );

/** Memories of one kind with this normal text that are not revoked, newest last. */
export const sameText = (db: Queryable, owner: string, kind: string, normText: string): Promise<StateRow[]> =>
  db.all(
    StateRow,
    `SELECT ${STATE_COLUMNS} FROM memories
      WHERE owner = ? AND norm_text = ? AND kind = ? AND status != 'revoked'
      ORDER BY valid_from, memory_id`,
    [owner, normText, kind],
  );

export const conflictMembers = (db: Queryable, owner: string, conflictId: string): Promise<StateRow[]> =>
  db.all(
    StateRow,
    `SELECT ${STATE_COLUMNS} FROM memories WHERE owner = ? AND conflict_id = ? ORDER BY valid_from, memory_id`,
    [owner, conflictId],
  );

const SourceRow = row({ memory_id: str, event_id: str, role: str, at: int });
export type SourceRow = z.output<typeof SourceRow>;

/** The source events of memories, in citation order, with the role and time of each. */
export async function sourcesOf(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<Map<string, SourceRow[]>> {
  const out = new Map<string, SourceRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db.all(
    SourceRow,
    `SELECT s.memory_id, s.event_id, e.role, e.at FROM memory_sources s
       JOIN events e ON e.owner = s.owner AND e.event_id = s.event_id
      WHERE s.owner = ? AND s.memory_id IN (${ids.map(() => '?').join(', ')})
      ORDER BY s.memory_id, s.position`,
    [owner, ...ids],
  );
  for (const r of rows) out.get(r.memory_id)?.push(r);
  return out;
}

const NextRow = row({ next: int });

/** Cites more events from an existing memory (sources are only ever added). */
export async function addSources(
  tx: Queryable,
  owner: string,
  memoryId: string,
  eventIds: readonly string[],
): Promise<void> {
  const found = await tx.one(
    NextRow,
    'SELECT coalesce(max(position), -1) + 1 AS next FROM memory_sources WHERE owner = ? AND memory_id = ?',
    [owner, memoryId],
  );
  let position = found?.next ?? 0;
  for (const eventId of eventIds) {
    const added = await tx.run(
      `INSERT INTO memory_sources (memory_id, owner, event_id, position) VALUES (?, ?, ?, ?)
       ON CONFLICT (memory_id, event_id) DO NOTHING`,
      [memoryId, owner, eventId, position],
    );
    position += added.changes;
  }
}

/** The lifecycle columns a knowledge step may write. */
export interface StatePatch {
  status?: string;
  lifecycle?: string | null;
  valid_from?: number | null;
  valid_to?: number | null;
  norm_subject?: string | null;
  norm_predicate?: string | null;
  norm_object?: string | null;
  norm_text?: string | null;
  origin?: string | null;
  conflict_id?: string | null;
  revoked_reason?: string | null;
  track?: string | null;
  project_id?: string | null;
  summary?: string | null;
  risk?: string | null;
  confidence?: number | null;
  approved_by?: string | null;
  approved_event?: string | null;
  archived_at?: number | null;
  updated_at: number;
}

export async function writeState(tx: Queryable, owner: string, id: string, patch: StatePatch): Promise<void> {
  const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
  await tx.run(
    `UPDATE memories SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE owner = ? AND memory_id = ?`,
    [...entries.map(([, v]) => v as SqlValue), owner, id],
  );
}

const ResolutionRow = row({ conflict_id: str, keep_id: str });

/** The version a person kept in each of these conflict sets. */
export async function resolutionsOf(
  db: Queryable,
  owner: string,
  conflictIds: readonly string[],
): Promise<Map<string, string>> {
  if (conflictIds.length === 0) return new Map();
  const rows = await db.all(
    ResolutionRow,
    `SELECT conflict_id, keep_id FROM fact_resolutions
      WHERE owner = ? AND conflict_id IN (${conflictIds.map(() => '?').join(', ')})`,
    [owner, ...conflictIds],
  );
  return new Map(rows.map((r) => [r.conflict_id, r.keep_id]));
}

export async function saveResolution(
  tx: Queryable,
  owner: string,
  conflictId: string,
  keepId: string,
  now: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO fact_resolutions (owner, conflict_id, keep_id, resolved_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (owner, conflict_id) DO UPDATE SET keep_id = excluded.keep_id, resolved_at = excluded.resolved_at`,
    [owner, conflictId, keepId, now],
  );
}
