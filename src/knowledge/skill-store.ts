// Reads and writes of procedures' evidence: their source events with sessions, the outcomes that followed
// them (procedure_evidence) and the sessions in which a host follows one (procedure_follows).
import { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nint, nstr, num, row, str } from '../storage/rows.js';
import { inList } from './objects.js';

export const ProcedureRow = row({
  memory_id: str,
  owner: str,
  status: str,
  lifecycle: nstr,
  text: str,
  procedure: nstr,
  at: int,
  origin: nstr,
  risk: nstr,
  confidence: num.nullable(),
  approved_by: nstr,
  approved_event: nstr,
  created_at: int,
  updated_at: nint,
});
export type ProcedureRow = z.output<typeof ProcedureRow>;

const COLUMNS = Object.keys(ProcedureRow.shape).join(', ');

export const ProcedureBodySchema = z.object({
  preconditions: z.array(z.string()).default([]),
  steps: z.array(z.string()).default([]),
  checks: z.array(z.string()).default([]),
  risk: z.enum(['low', 'medium', 'high']).nullish(),
});
export type ProcedureBody = z.output<typeof ProcedureBodySchema>;

/** The structured parts of a procedure (empty when it has none). */
export function bodyOf(p: Pick<ProcedureRow, 'procedure'>): ProcedureBody {
  const parsed = ProcedureBodySchema.safeParse(p.procedure === null ? {} : JSON.parse(p.procedure));
  return parsed.success ? parsed.data : ProcedureBodySchema.parse({});
}

export const getProcedure = (db: Queryable, owner: string, id: string): Promise<ProcedureRow | undefined> =>
  db.one(
    ProcedureRow,
    `SELECT ${COLUMNS} FROM memories WHERE owner = ? AND memory_id = ? AND kind = 'procedure'`,
    [owner, id],
  );

/** The owner's procedures, newest first: those not revoked, or the revoked ones. */
export const ownerProcedures = (
  db: Queryable,
  owner: string,
  options: { revoked?: boolean; limit?: number } = {},
): Promise<ProcedureRow[]> =>
  db.all(
    ProcedureRow,
    `SELECT ${COLUMNS} FROM memories WHERE owner = ? AND kind = 'procedure' AND status ${options.revoked ? '=' : '!='} 'revoked'
      ORDER BY at DESC, memory_id LIMIT ?`,
    [owner, options.limit ?? 1_000],
  );

const SourceRow = row({ memory_id: str, event_id: str, role: str, session_id: nstr, at: int });
export type ProcedureSource = z.output<typeof SourceRow>;

export async function procedureSources(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<ProcedureSource[]> {
  if (ids.length === 0) return [];
  return db.all(
    SourceRow,
    `SELECT s.memory_id, s.event_id, e.role, e.session_id, e.at FROM memory_sources s
       JOIN events e ON e.owner = s.owner AND e.event_id = s.event_id
      WHERE s.owner = ? AND s.memory_id IN ${inList(ids)} ORDER BY s.memory_id, s.position`,
    [owner, ...ids],
  );
}

export const OUTCOMES = ['success', 'failure'] as const;
export type Outcome = (typeof OUTCOMES)[number];
/** How an outcome was tied to the procedure: in a session that follows it, or by its steps in the text. */
export type EvidenceVia = 'followed' | 'steps';

const EvidenceRow = row({
  memory_id: str,
  event_id: str,
  session_id: nstr,
  outcome: z.enum(OUTCOMES),
  via: z.enum(['followed', 'steps']),
  at: int,
});
export type EvidenceRow = z.output<typeof EvidenceRow>;

export async function evidenceOf(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<EvidenceRow[]> {
  if (ids.length === 0) return [];
  return db.all(
    EvidenceRow,
    `SELECT memory_id, event_id, session_id, outcome, via, at FROM procedure_evidence
      WHERE owner = ? AND memory_id IN ${inList(ids)} ORDER BY at, event_id`,
    [owner, ...ids],
  );
}

/** Records an outcome once per procedure and event; answers whether it was new. */
export async function addEvidence(
  tx: Queryable,
  owner: string,
  e: EvidenceRow,
  now: number,
): Promise<boolean> {
  const { changes } = await tx.run(
    `INSERT INTO procedure_evidence (owner, memory_id, event_id, session_id, outcome, via, at, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (owner, memory_id, event_id) DO NOTHING`,
    [owner, e.memory_id, e.event_id, e.session_id, e.outcome, e.via, e.at, now],
  );
  return changes > 0;
}

const FollowRow = row({ memory_id: str, session_id: str, at: int });
export type FollowRow = z.output<typeof FollowRow>;

export async function followsIn(
  db: Queryable,
  owner: string,
  sessions: readonly string[],
): Promise<FollowRow[]> {
  if (sessions.length === 0) return [];
  return db.all(
    FollowRow,
    `SELECT memory_id, session_id, at FROM procedure_follows WHERE owner = ? AND session_id IN ${inList(sessions)}`,
    [owner, ...sessions],
  );
}

/** A session follows the procedure from `at` on; following again keeps the first time. */
export async function addFollow(tx: Queryable, owner: string, f: FollowRow): Promise<FollowRow> {
  await tx.run(
    `INSERT INTO procedure_follows (owner, memory_id, session_id, at) VALUES (?, ?, ?, ?)
     ON CONFLICT (owner, memory_id, session_id) DO NOTHING`,
    [owner, f.memory_id, f.session_id, f.at],
  );
  const [stored] = (await followsIn(tx, owner, [f.session_id])).filter((r) => r.memory_id === f.memory_id);
  return stored ?? f;
}
