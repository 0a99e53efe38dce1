// The tracks as views over memories (ARCHITECTURE.md §2): an entry written to a track carries it; other
// memories belong to the track their kind gives them: user = preferences and profile facts, memory = other
// facts, daily = episodes, project = facts about a project (its entries, facts whose subject names it);
// key holds approved entries only.
import type { z } from 'zod';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import { reportedStatus } from './lifecycle.js';
import { inList } from './objects.js';
import type { Track } from './tracks-schema.js';

export const EntryRow = row({
  memory_id: str,
  kind: str,
  status: str,
  lifecycle: nstr,
  text: str,
  fact_kind: nstr,
  subject: nstr,
  predicate: nstr,
  object: nstr,
  at: int,
  valid_from: nint,
  valid_to: nint,
  track: nstr,
  project_id: nstr,
  summary: nstr,
  approved_by: nstr,
  approved_event: nstr,
  archived_at: nint,
});
export type EntryRow = z.output<typeof EntryRow>;
export const ENTRY_COLUMNS = Object.keys(EntryRow.shape)
  .map((c) => `m.${c}`)
  .join(', ');

/** Which project an entry view is about: its object id and the normal forms of its name and aliases. */
export interface ProjectScope {
  id: string;
  norms: readonly string[];
}

/** The SQL condition (over `memories m`) of a track's view. */
export function trackCondition(track: Track, project?: ProjectScope): { sql: string; params: SqlValue[] } {
  switch (track) {
    case 'memory':
      return {
        sql: `(m.track = 'memory' OR (m.track IS NULL AND m.kind = 'fact' AND (m.fact_kind IS NULL OR m.fact_kind != 'profile')))`,
        params: [],
      };
    case 'user':
      return {
        sql: `(m.track = 'user' OR (m.track IS NULL AND (m.kind = 'preference' OR (m.kind = 'fact' AND m.fact_kind = 'profile'))))`,
        params: [],
      };
    case 'daily':
      return { sql: `(m.track = 'daily' OR (m.track IS NULL AND m.kind = 'episode'))`, params: [] };
    case 'key':
      return { sql: `m.track = 'key'`, params: [] };
    case 'project':
      if (!project) return { sql: `m.track = 'project'`, params: [] };
      return {
        sql: `((m.track = 'project' AND m.project_id = ?) OR (m.track IS NULL AND m.kind = 'fact' AND m.norm_subject IN ${inList(project.norms)}))`,
        params: [project.id, ...project.norms],
      };
  }
}

/** The track a memory belongs to, as trackCondition decides it (null: none, e.g. a procedure). */
export function trackOf(m: Pick<EntryRow, 'track' | 'kind' | 'fact_kind'>): Track | null {
  if (m.track !== null) return m.track as Track;
  if (m.kind === 'episode') return 'daily';
  if (m.kind === 'preference' || (m.kind === 'fact' && m.fact_kind === 'profile')) return 'user';
  return m.kind === 'fact' ? 'memory' : null;
}

export const entryStatus = (m: Pick<EntryRow, 'status' | 'lifecycle' | 'archived_at'>) =>
  m.archived_at !== null ? ('archived' as const) : reportedStatus(m);

/** Live: in its track now (not archived, superseded, retired or revoked). */
export const LIVE = `m.status NOT IN ('revoked', 'deprecated')`;
export const NOT_REVOKED = `m.status != 'revoked'`;

export interface ViewPage {
  includeArchived: boolean;
  limit: number;
  /** Entries older than (at, id). */
  before?: { at: number; id: string } | undefined;
}

/** A page of a track's entries, newest first. */
export function trackEntries(
  db: Queryable,
  owner: string,
  track: Track,
  project: ProjectScope | undefined,
  page: ViewPage,
): Promise<EntryRow[]> {
  const view = trackCondition(track, project);
  const where = ['m.owner = ?', view.sql, page.includeArchived ? NOT_REVOKED : LIVE];
  const params: SqlValue[] = [owner, ...view.params];
  if (page.before) {
    where.push('(m.at < ? OR (m.at = ? AND m.memory_id < ?))');
    params.push(page.before.at, page.before.at, page.before.id);
  }
  return db.all(
    EntryRow,
    `SELECT ${ENTRY_COLUMNS} FROM memories m WHERE ${where.join(' AND ')}
      ORDER BY m.at DESC, m.memory_id DESC LIMIT ?`,
    [...params, page.limit],
  );
}

/** A live entry of the track with this normal text: what a write restating it would duplicate. */
export function liveDuplicate(
  db: Queryable,
  owner: string,
  track: Track,
  project: ProjectScope | undefined,
  normText: string,
): Promise<EntryRow | undefined> {
  const view = trackCondition(track, project);
  return db.one(
    EntryRow,
    `SELECT ${ENTRY_COLUMNS} FROM memories m
      WHERE m.owner = ? AND ${view.sql} AND ${LIVE} AND m.norm_text = ?
      ORDER BY m.at, m.memory_id LIMIT 1`,
    [owner, ...view.params, normText],
  );
}

export const getEntry = (db: Queryable, owner: string, id: string): Promise<EntryRow | undefined> =>
  db.one(EntryRow, `SELECT ${ENTRY_COLUMNS} FROM memories m WHERE m.owner = ? AND m.memory_id = ?`, [
    owner,
    id,
  ]);
