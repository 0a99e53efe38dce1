// Where a procedure stands, from its evidence: observed (seen once) → candidate (restated later, or followed
// with success) → validated (evidence from two separate sessions); active and deprecated only by a person
// (skill-status.ts); a skill the user taught (every source the user's) stays a draft until the user enables
// it. Confidence rises with each session whose outcome was a success and falls with each failure.
import type { Queryable } from '../storage/driver.js';
import type { KnowledgeContext } from './facts.js';
import { coarseStatus, isRevoked, type Lifecycle } from './lifecycle.js';
import { writeState } from './memory-store.js';
import { assessRisk, type Risk, type RiskReason } from './risk.js';
import {
  bodyOf,
  evidenceOf,
  getProcedure,
  procedureSources,
  type EvidenceRow,
  type Outcome,
  type ProcedureSource,
} from './skill-store.js';

/** Evidence from this many separate sessions validates a procedure. */
export const VALIDATION_SESSIONS = 2;
const AUTOMATIC: readonly string[] = ['observed', 'candidate', 'validated'];

export interface SessionVerdict {
  session: string;
  outcome: Outcome;
}

/** Each session's outcome: that of its latest evidence (a task that failed in the end failed). */
export function verdicts(evidence: readonly EvidenceRow[]): SessionVerdict[] {
  const last = new Map<string, EvidenceRow>();
  for (const e of [...evidence].sort((a, b) => a.at - b.at || a.event_id.localeCompare(b.event_id))) {
    last.set(e.session_id ?? `event:${e.event_id}`, e);
  }
  return [...last].map(([session, e]) => ({ session, outcome: e.outcome }));
}

/** Laplace's rule over the sessions' verdicts: 0.5 with none, towards 1 with successes, 0 with failures. */
export function confidenceOf(v: readonly SessionVerdict[]): number {
  const successes = v.filter((x) => x.outcome === 'success').length;
  return Math.round(((successes + 1) / (v.length + 2)) * 1000) / 1000;
}

/** The separate sessions that vouch for it: where it was learnt, and where following it succeeded. */
export function evidenceSessions(
  sources: readonly ProcedureSource[],
  v: readonly SessionVerdict[],
): string[] {
  const sessions = new Set(sources.flatMap((s) => (s.session_id === null ? [] : [s.session_id])));
  for (const x of v) if (x.outcome === 'success' && !x.session.startsWith('event:')) sessions.add(x.session);
  return [...sessions];
}

export interface StageInput {
  lifecycle: string | null;
  status: string;
  /** Its newest source event when it was first published: a later source means it was seen again. */
  at: number;
  sources: readonly ProcedureSource[];
  verdicts: readonly SessionVerdict[];
}

/** The stage its evidence gives; never back down the automatic stages, never into a person's. */
export function procedureStage(p: StageInput): Lifecycle {
  const current = (p.lifecycle ?? p.status) as Lifecycle;
  if (isRevoked(p) || (p.lifecycle !== null && !AUTOMATIC.includes(p.lifecycle))) return current;
  // invariant: a skill the user taught stays a draft until the user enables it (test:
  // src/knowledge/skills.test.ts "invariant: a skill the user taught is a draft…").
  if (p.lifecycle === null && p.sources.length > 0 && p.sources.every((s) => s.role === 'user'))
    return 'draft';
  const seenAgain = p.sources.some((s) => s.at > p.at) || p.verdicts.some((v) => v.outcome === 'success');
  const stage: Lifecycle =
    evidenceSessions(p.sources, p.verdicts).length >= VALIDATION_SESSIONS
      ? 'validated'
      : seenAgain
        ? 'candidate'
        : 'observed';
  const rank = (l: string) => AUTOMATIC.indexOf(l);
  return p.lifecycle !== null && rank(p.lifecycle) > rank(stage) ? current : stage;
}

export interface ProcedureState {
  lifecycle: Lifecycle;
  risk: Risk;
  reasons: RiskReason[];
  confidence: number;
  sessions: string[];
  sources: ProcedureSource[];
  evidence: EvidenceRow[];
}

/** Everything its evidence says of a stored procedure (read only). */
export async function procedureState(
  db: Queryable,
  owner: string,
  id: string,
): Promise<ProcedureState | undefined> {
  const p = await getProcedure(db, owner, id);
  if (!p) return undefined;
  const sources = await procedureSources(db, owner, [id]);
  const evidence = await evidenceOf(db, owner, [id]);
  const v = verdicts(evidence);
  const body = bodyOf(p);
  const stored = p.risk === 'low' || p.risk === 'medium' || p.risk === 'high' ? p.risk : body.risk;
  const { risk, reasons } = assessRisk({ text: p.text, ...body, risk: stored });
  return {
    lifecycle: procedureStage({ ...p, sources, verdicts: v }),
    risk,
    reasons,
    confidence: confidenceOf(v),
    sessions: evidenceSessions(sources, v),
    sources,
    evidence,
  };
}

/** Writes a procedure's stage, risk and confidence after its sources or evidence changed. */
export async function settleProcedure(
  tx: Queryable,
  owner: string,
  id: string,
  ctx: KnowledgeContext,
): Promise<void> {
  const p = await getProcedure(tx, owner, id);
  const state = await procedureState(tx, owner, id);
  if (!p || !state || isRevoked(p)) return;
  const status = coarseStatus(state.lifecycle);
  if (
    p.lifecycle === state.lifecycle &&
    p.status === status &&
    p.risk === state.risk &&
    p.confidence === state.confidence
  )
    return;
  await writeState(tx, owner, id, {
    lifecycle: state.lifecycle,
    status,
    risk: state.risk,
    confidence: state.confidence,
    updated_at: ctx.now,
  });
}
