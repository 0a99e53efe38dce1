// memory.skill.list and memory.skill.get: procedures with their stage, risk, confidence and evidence; one in
// full comes back as a checklist to compare with the situation, never as instructions.
import type { z } from 'zod';
import { MemoryError } from '../errors.js';
import type { Queryable } from '../storage/driver.js';
import { CHECKLIST_NOTE, checklistOf } from './checklist.js';
import { procedureState, type ProcedureState } from './skill-state.js';
import { bodyOf, getProcedure, ownerProcedures, type ProcedureRow } from './skill-store.js';
import type { SkillGetResultSchema, SkillListParams, SkillSummarySchema } from './skills-schema.js';

type Summary = z.input<typeof SkillSummarySchema>;
const iso = (t: number) => new Date(t).toISOString();

const summaryOf = (p: ProcedureRow, s: ProcedureState): Summary => ({
  id: p.memory_id,
  text: p.text,
  status: s.lifecycle as Summary['status'],
  risk: s.risk,
  confidence: s.confidence,
  sessions: s.sessions.length,
  at: iso(p.at),
  approved_by: p.approved_by,
});

export async function listSkills(db: Queryable, p: SkillListParams): Promise<{ items: Summary[] }> {
  const items: Summary[] = [];
  // Revoked procedures are left out unless asked for.
  const rows = await ownerProcedures(db, p.owner, { revoked: p.status === 'revoked' });
  for (const row of rows) {
    const state = await procedureState(db, p.owner, row.memory_id);
    if (!state || (p.status !== undefined && state.lifecycle !== p.status)) continue;
    items.push(summaryOf(row, state));
    if (items.length >= p.limit) break;
  }
  return { items };
}

/**
 * invariant: a procedure comes back as a checklist with a note saying it is data, not instructions (test:
 * src/knowledge/skills.test.ts "invariant: comes back as a checklist…").
 */
export async function getSkill(
  db: Queryable,
  owner: string,
  id: string,
): Promise<z.input<typeof SkillGetResultSchema>> {
  const p = await getProcedure(db, owner, id);
  const state = p ? await procedureState(db, owner, id) : undefined;
  if (!p || !state) throw new MemoryError('NOT_FOUND', `no procedure ${id}`, { id });
  const body = bodyOf(p);
  return {
    ...summaryOf(p, state),
    note: CHECKLIST_NOTE,
    checklist: checklistOf(body.steps),
    preconditions: checklistOf(body.preconditions),
    checks: checklistOf(body.checks),
    risk_reasons: state.reasons,
    approved_event: p.approved_event,
    sources: state.sources.map((s) => ({
      event_id: s.event_id,
      role: s.role,
      session_id: s.session_id,
      at: iso(s.at),
    })),
    evidence: state.evidence.map((e) => ({
      event_id: e.event_id,
      session_id: e.session_id,
      outcome: e.outcome,
      via: e.via,
      at: iso(e.at),
    })),
  };
}
