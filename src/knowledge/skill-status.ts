// memory.skill.set_status and memory.skill.follow: a person activates or deprecates a procedure; activating
// one that is high risk, a draft the user taught, or not yet validated by two sessions needs a user event of
// the owner that approves it. A host says which session follows a procedure, so its results count.
import type { z } from 'zod';
import { MemoryError } from '../errors.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { approves } from './approval.js';
import { isRevoked } from './lifecycle.js';
import { writeState } from './memory-store.js';
import { procedureState, VALIDATION_SESSIONS, type ProcedureState } from './skill-state.js';
import { addFollow, getProcedure } from './skill-store.js';
import type { SkillFollowParams, SkillSetStatusParams, SkillSetStatusResultSchema } from './skills-schema.js';

/** Why activating needs the user's own approval, or null when a validated, low-risk procedure needs none. */
export function approvalNeeded(s: ProcedureState): string | null {
  if (s.risk === 'high') return `it is high risk (${s.reasons.join(', ') || 'so its proposer said'})`;
  if (s.lifecycle === 'draft') return 'the user taught it: the user enables it';
  if (s.sessions.length < VALIDATION_SESSIONS) return 'it is not validated by evidence from two sessions';
  return null;
}

const notFound = (id: string) => new MemoryError('NOT_FOUND', `no procedure ${id}`, { id });

/**
 * invariant: a high-risk, draft or unvalidated procedure becomes active only with a user event of its owner
 * that approves it (test: src/knowledge/skills.test.ts "invariant: activating needs the user's approval…").
 */
export async function setSkillStatus(
  deps: { driver: Driver; redactor: Redactor },
  p: SkillSetStatusParams,
  now: number,
): Promise<z.input<typeof SkillSetStatusResultSchema>> {
  const by = (await deps.redactor.redact(p.approved_by)).text;
  const [event] = p.event_id === undefined ? [] : await getEventsByIds(deps.driver, p.owner, [p.event_id]);
  return deps.driver.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    const row = await getProcedure(tx, p.owner, p.id);
    const state = row ? await procedureState(tx, p.owner, p.id) : undefined;
    if (!row || !state) throw notFound(p.id);
    if (isRevoked(row)) {
      const message = 'a revoked procedure stays revoked';
      throw new MemoryError('INVALID_PARAMS', message, { issues: [{ path: 'id', message }] });
    }
    if (p.event_id !== undefined && !event) {
      throw new MemoryError('NOT_FOUND', `no event ${p.event_id} for this owner`, { missing: [p.event_id] });
    }
    const why = p.status === 'active' ? approvalNeeded(state) : null;
    // An approval given is checked even where none is needed: it is recorded as the approval.
    if (p.status === 'active' && (why !== null || event)) {
      const refusal = !event
        ? 'no event_id was given'
        : event.role !== 'user'
          ? `${event.event_id} is not the user's own words (role ${event.role})`
          : approves(event.text)
            ? null
            : `${event.event_id} does not say the user approves it`;
      if (refusal !== null) {
        throw new MemoryError(
          'APPROVAL_REQUIRED',
          `activating ${p.id} needs a user event that approves it${why === null ? '' : ` (${why})`}: ${refusal}`,
          { id: p.id, risk: state.risk, reasons: state.reasons },
        );
      }
    }
    await writeState(tx, p.owner, p.id, {
      lifecycle: p.status,
      status: p.status,
      risk: state.risk,
      approved_by: by,
      approved_event: p.event_id ?? null,
      updated_at: now,
    });
    return {
      id: p.id,
      status: p.status,
      risk: state.risk,
      approved_by: by,
      approved_event: p.event_id ?? null,
    };
  });
}

export async function followSkill(
  db: Driver,
  p: SkillFollowParams,
  now: number,
): Promise<{ id: string; session_id: string; since: string }> {
  return db.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    const row = await getProcedure(tx, p.owner, p.id);
    if (!row || isRevoked(row)) throw notFound(p.id);
    const f = await addFollow(tx, p.owner, { memory_id: p.id, session_id: p.session_id, at: now });
    return { id: p.id, session_id: f.session_id, since: new Date(f.at).toISOString() };
  });
}

/**
 * For recall: the procedures among `ids` were recalled in `sessionId`, so that session's later results are
 * evidence for them (as memory.skill.follow says it). Other ids are ignored. Answers the procedures marked.
 */
export async function noteRecalledProcedures(
  db: Driver,
  owner: string,
  sessionId: string,
  ids: readonly string[],
  now: number,
): Promise<string[]> {
  if (ids.length === 0) return [];
  return db.transaction(async (tx) => {
    await tx.lockOwner(owner);
    const marked: string[] = [];
    for (const id of new Set(ids)) {
      const row = await getProcedure(tx, owner, id);
      if (!row || isRevoked(row)) continue;
      await addFollow(tx, owner, { memory_id: id, session_id: sessionId, at: now });
      marked.push(id);
    }
    return marked;
  });
}
