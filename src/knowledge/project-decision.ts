// memory.chain.project_decision: a candidate project becomes active (confirm) or archived (reject) only on
// the user's own words, quoted verbatim from one of their events.
import { MemoryError } from '../errors.js';
import { getEventsByIds } from '../ingest/store.js';
import type { Driver } from '../storage/driver.js';
import { aliasesOf } from './aliases.js';
import type { ProjectDecisionParams } from './chain-schema.js';
import { reindexObject } from './object-index.js';
import { addObjectSources, getObject, updateObject, type ObjectRow, type ObjectStatus } from './objects.js';
import { writeRevision } from './revisions.js';

interface DecisionIssue {
  path: string;
  code: 'unknown_event' | 'user_quote_required' | 'quote_not_verbatim';
  message: string;
}

/**
 * invariant: a project's status changes by decision only with a quote verbatim in a user event of its owner
 * (test: src/knowledge/chain.test.ts "refuses a decision with a wrong quote and confirms with the right one").
 */
export async function decideProject(
  driver: Driver,
  p: ProjectDecisionParams,
  now: number,
): Promise<{ id: string; status: ObjectStatus; revision: number }> {
  return driver.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    const o = await getObject(tx, p.owner, p.id);
    if (!o) throw new MemoryError('NOT_FOUND', `no object ${p.id} for this owner`, { id: p.id });
    if (o.type !== 'project') {
      const message = `object ${p.id} is a ${o.type}; decisions are for projects`;
      throw new MemoryError('INVALID_PARAMS', message, { issues: [{ path: 'id', message }] });
    }
    const [event] = await getEventsByIds(tx, p.owner, [p.event_id]);
    const issues: DecisionIssue[] = [];
    if (!event) {
      issues.push({
        path: 'event_id',
        code: 'unknown_event',
        message: `no event ${p.event_id} for this owner`,
      });
    } else if (event.role !== 'user') {
      issues.push({
        path: 'event_id',
        code: 'user_quote_required',
        message: `event ${p.event_id} is not the user's (role ${event.role}); a decision quotes the user`,
      });
    } else if (!event.text.includes(p.quote)) {
      issues.push({
        path: 'quote',
        code: 'quote_not_verbatim',
        message: `quote is not verbatim in event ${p.event_id}`,
      });
    }
    if (issues.length > 0) {
      throw new MemoryError('PROPOSAL_INVALID', `decision refused: ${issues[0]?.message}`, { issues });
    }
    await addObjectSources(tx, p.owner, o.object_id, [{ event_id: p.event_id, quote: p.quote }]);
    const status: ObjectStatus = p.decision === 'confirm' ? 'active' : 'archived';
    if (status === o.status) return { id: o.object_id, status, revision: o.revision };
    const attrs = { ...(o.attrs === null ? {} : (JSON.parse(o.attrs) as object)) };
    const next: ObjectRow = {
      ...o,
      status,
      attrs: JSON.stringify({ ...attrs, decision: { decision: p.decision, event_id: p.event_id, at: now } }),
      revision: o.revision + 1,
      updated_at: now,
    };
    await updateObject(tx, next);
    const aliases = (await aliasesOf(tx, p.owner, [o.object_id])).get(o.object_id) ?? [];
    await writeRevision(tx, next, aliases);
    await reindexObject(tx, next, aliases);
    return { id: o.object_id, status, revision: next.revision };
  });
}
