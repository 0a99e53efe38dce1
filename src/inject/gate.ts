// memory.gate: is this segment worth a retrieval now? Signals from the session's working memory and the
// owner's store, one pure decision, the segment pushed into the ring, one audit record; a prefetch starts a
// background recall stored as a request, injecting nothing.
import { estimateTokens } from '../llm/tokens.js';
import { RecallParamsSchema } from '../recall/schema.js';
import { newAuditId, writeAudit } from './audit.js';
import { feedbackRates } from './feedback.js';
import { decideGate } from './gate-decide.js';
import { historyHits, openConflicts } from './gate-signals.js';
import { searchDigest } from './recall-wait.js';
import { indexMark, insertRequest, newRequestId } from './requests.js';
import type { RecallFn, InjectRuntime } from './runtime.js';
import type { GateResult, GateSignals } from './schema.js';
import { prepareSegment } from './segment.js';
import { lockSession, saveGateState } from './sessions.js';
import { pushSegment, readRing, ringSignals } from './working-memory.js';

/** A prefetch searches with the segment's redacted text, cut to what recall takes. */
const MAX_QUERY = 4_000;

export interface GateParams {
  owner: string;
  session_id: string;
  segment: { kind: string; text: string; ok?: boolean | undefined };
  interaction_seq?: number | undefined;
}

export async function runGate(rt: InjectRuntime, recall: RecallFn, p: GateParams): Promise<GateResult> {
  const { owner, session_id: sessionId } = p;
  const segment = await prepareSegment(rt.driver, rt.redactor, owner, p.segment);
  const conflicts = await openConflicts(rt.driver, owner, segment.norm);
  const history = await historyHits(rt.driver, owner, sessionId, segment.terms);
  const query = segment.text.trim().slice(0, MAX_QUERY);
  const search = query === '' ? undefined : RecallParamsSchema.parse({ owner, query });
  const mark = await indexMark(rt.driver, owner);
  const now = rt.now();
  const auditId = newAuditId();
  const limits = rt.config.session;
  const decided = await rt.driver.transaction(async (tx) => {
    const session = await lockSession(tx, owner, sessionId, now, p.interaction_seq);
    const ring = await readRing(tx, owner, sessionId, now, limits);
    const fromRing = ringSignals(ring, segment);
    const signals: GateSignals = {
      novelty: fromRing.novelty,
      unresolved: fromRing.unresolved.length,
      phase_change: fromRing.phaseChange,
      tool_failure: p.segment.ok === false || p.segment.kind === 'task_failed',
      conflicts: conflicts.length,
      history: history.length,
    };
    const decision = decideGate({
      signals,
      gate: rt.config.gate,
      cooldowns: session.cooldowns,
      feedback: await feedbackRates(tx, owner, sessionId),
      now,
    });
    const cursor = session.cursor + 1;
    await pushSegment(tx, owner, sessionId, segment, cursor, now, limits);
    await saveGateState(tx, owner, sessionId, cursor, decision.cooldowns);
    const prefetch =
      decision.action === 'prefetch' && search
        ? { id: newRequestId(), expiresAt: now + rt.config.recall.runLimitMs }
        : undefined;
    if (prefetch && search) {
      await insertRequest(tx, {
        id: prefetch.id,
        owner,
        sessionId,
        interactionSeq: session.interactionSeq,
        purpose: 'prefetch',
        paramsDigest: searchDigest(search),
        indexMark: mark,
        createdAt: now,
        expiresAt: prefetch.expiresAt,
      });
    }
    await writeAudit(tx, auditId, {
      owner,
      sessionId,
      packetId: null,
      kind: 'gate',
      trigger: decision.trigger,
      action: decision.action,
      reason: decision.reason,
      score: decision.score,
      signals,
      sources: [...segment.objectIds, ...conflicts, ...history, ...(prefetch ? [prefetch.id] : [])],
      digest: segment.digest,
      cursor,
      bytes: Buffer.byteLength(segment.text),
      tokens: estimateTokens(segment.text),
      requestId: prefetch?.id ?? null,
      at: now,
      expiresAt: prefetch?.expiresAt ?? null,
    });
    return { decision, signals, cursor, prefetch };
  });
  const { decision, signals, cursor, prefetch } = decided;
  if (prefetch && search) rt.settleLater({ id: prefetch.id, owner }, rt.search(search, recall));
  return {
    action: decision.action,
    reason: decision.reason,
    trigger: decision.trigger,
    score: decision.score,
    signals,
    cursor,
    audit_id: auditId,
    ...(prefetch ? { request_id: prefetch.id } : {}),
  };
}
