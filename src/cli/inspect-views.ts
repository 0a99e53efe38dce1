// The read-only views of `mnemo inspect`: one SELECT each, newest first, an owner's or every owner's.
import type { z } from 'zod';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { int, nstr, row, str } from '../storage/rows.js';

export const INSPECT_VIEWS = ['objects', 'events', 'nodes', 'jobs'] as const;
export type InspectView = (typeof INSPECT_VIEWS)[number];

const iso = (t: number | null): string => (t === null ? '' : new Date(t).toISOString().slice(0, 19) + 'Z');

const ObjectRow = row({
  object_id: str,
  owner: str,
  type: str,
  name: str,
  status: str,
  revision: int,
  updated_at: int,
});
const EventRow = row({ seq: int, owner: str, event_id: str, kind: str, role: str, at: int, text: str });
const NodeRow = row({
  node_id: str,
  owner: str,
  level: int,
  first_seq: int,
  last_seq: int,
  events: int,
  tokens: int,
  parent_id: nstr,
  text: str,
});
const JobRow = row({
  job_id: str,
  owner: str,
  kind: str,
  trigger: str,
  state: str,
  steps: int,
  failures: int,
  created_at: int,
  notice: nstr,
});

interface View<S extends z.ZodType> {
  schema: S;
  sql: (where: string) => string;
  header: string[];
  cells: (r: z.output<S>) => string[];
  json: (r: z.output<S>) => Record<string, unknown>;
}

const view = <S extends z.ZodType>(v: View<S>) => v;

const VIEWS = {
  objects: view({
    schema: ObjectRow,
    sql: (w) =>
      `SELECT object_id, owner, type, name, status, revision, updated_at FROM objects ${w}
        ORDER BY updated_at DESC, object_id LIMIT ?`,
    header: ['ID', 'OWNER', 'TYPE', 'STATUS', 'REV', 'UPDATED', 'NAME'],
    cells: (r) => [r.object_id, r.owner, r.type, r.status, String(r.revision), iso(r.updated_at), r.name],
    json: (r) => ({ ...r, updated_at: new Date(r.updated_at).toISOString() }),
  }),
  events: view({
    schema: EventRow,
    sql: (w) =>
      `SELECT seq, owner, event_id, kind, role, at, text FROM events ${w} ORDER BY seq DESC LIMIT ?`,
    header: ['SEQ', 'OWNER', 'ID', 'ROLE', 'AT', 'TEXT'],
    cells: (r) => [String(r.seq), r.owner, r.event_id, r.role, iso(r.at), r.text],
    json: (r) => ({ ...r, at: new Date(r.at).toISOString() }),
  }),
  nodes: view({
    schema: NodeRow,
    sql: (w) =>
      `SELECT node_id, owner, level, first_seq, last_seq, events, tokens, parent_id, text FROM memory_nodes ${w}
        ORDER BY created_at DESC, node_id LIMIT ?`,
    header: ['ID', 'OWNER', 'LEVEL', 'SEQS', 'EVENTS', 'TOKENS', 'ACTIVE', 'TEXT'],
    cells: (r) => [
      r.node_id,
      r.owner,
      `L${r.level}`,
      `${r.first_seq}-${r.last_seq}`,
      String(r.events),
      String(r.tokens),
      r.parent_id === null ? 'yes' : 'no',
      r.text,
    ],
    json: (r) => ({ ...r, active: r.parent_id === null }),
  }),
  jobs: view({
    schema: JobRow,
    sql: (w) =>
      `SELECT job_id, owner, kind, trigger, state, steps, failures, created_at, notice FROM organize_jobs ${w}
        ORDER BY seq DESC LIMIT ?`,
    header: ['ID', 'OWNER', 'KIND', 'TRIGGER', 'STATE', 'STEPS', 'FAILS', 'CREATED', 'NOTICE'],
    cells: (r) => [
      r.job_id,
      r.owner,
      r.kind,
      r.trigger,
      r.state,
      String(r.steps),
      String(r.failures),
      iso(r.created_at),
      r.notice ?? '',
    ],
    json: (r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }),
  }),
} as const;

export interface ViewRows {
  header: string[];
  cells: string[][];
  json: Array<Record<string, unknown>>;
}

export async function readView(
  db: Queryable,
  name: InspectView,
  options: { owner?: string | undefined; limit: number },
): Promise<ViewRows> {
  const v = VIEWS[name] as View<z.ZodType>;
  const params: SqlValue[] = options.owner === undefined ? [] : [options.owner];
  const rows = await db.all(v.schema, v.sql(options.owner === undefined ? '' : 'WHERE owner = ?'), [
    ...params,
    options.limit,
  ]);
  return { header: v.header, cells: rows.map((r) => v.cells(r)), json: rows.map((r) => v.json(r)) };
}
