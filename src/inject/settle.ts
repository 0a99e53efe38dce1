// A late answer lands: the request becomes ready (and, for a recall, a notice in the caller session's
// inbox), stale when the session moved past the caller's interaction or ended, or failed.
import type { RecallResult } from '../recall/schema.js';
import type { Queryable } from '../storage/driver.js';
import { insertItem, newItemId } from './inbox-store.js';
import { finishRequest, getRequest } from './requests.js';
import type { InjectDeps } from './runtime.js';
import { sha256 } from './segment.js';
import { lockExistingSession, nextInboxSeq } from './sessions.js';

export interface PendingRequest {
  id: string;
  owner: string;
}

export type SearchOutcome =
  { ok: true; result: RecallResult } | { ok: false; error: { code: string; message: string } };

/** The inbox notice of a late recall answer: the request's id, never its text (requests.get has it). */
async function deliver(
  tx: Queryable,
  owner: string,
  sessionId: string,
  requestId: string,
  seq: number | null,
  at: number,
) {
  await insertItem(tx, {
    id: newItemId(),
    owner,
    sessionId,
    seq: await nextInboxSeq(tx, owner, sessionId),
    kind: 'recall_result',
    wake: false,
    sourceRole: 'system',
    source: null,
    text: null,
    quoted: false,
    taskId: null,
    controlRevision: null,
    requestId,
    interactionSeq: seq,
    digest: sha256(`recall_result\n${requestId}`),
    at,
  });
}

/**
 * invariant: an answer that arrives after its session moved past the caller's interaction (or ended) is
 * kept as `stale` and never put in the inbox; a request that is no longer pending (failed at its run limit,
 * at shutdown, or by another process as abandoned) keeps that state (test: src/inject/wait.test.ts "keeps a late answer of an interaction the session moved past as stale…").
 */
export async function settleRequest(deps: InjectDeps, request: PendingRequest, outcome: SearchOutcome) {
  const now = deps.now();
  return deps.driver.transaction(async (tx) => {
    const row = await getRequest(tx, request.owner, request.id, true);
    if (!row || row.status !== 'pending') return row?.status;
    if (!outcome.ok) {
      await finishRequest(tx, row.request_id, 'failed', { error: outcome.error }, now);
      return 'failed';
    }
    let status: 'ready' | 'stale' = 'ready';
    if (row.session_id !== null) {
      const session = await lockExistingSession(tx, row.owner, row.session_id);
      const movedOn =
        session === undefined ||
        (row.interaction_seq !== null && session.interactionSeq > row.interaction_seq);
      if (movedOn) status = 'stale';
      else if (row.purpose === 'recall')
        await deliver(tx, row.owner, row.session_id, row.request_id, row.interaction_seq, now);
    }
    // The answer carries the request's id, so a cached copy names the request it came from.
    const result = { ...outcome.result, request_id: row.request_id };
    await finishRequest(tx, row.request_id, status, { result }, now);
    return status;
  });
}
