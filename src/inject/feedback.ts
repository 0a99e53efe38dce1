// What the host says became of a packet (used, ignored, harmful), one row per packet id: the latest word
// counts. The gate reads the share of unwanted packets per session and trigger.
import type { Queryable } from '../storage/driver.js';
import { int, nstr, row } from '../storage/rows.js';
import type { FeedbackRate } from './gate-decide.js';

export interface FeedbackInput {
  owner: string;
  packetId: string;
  outcome: 'used' | 'ignored' | 'harmful';
  sessionId: string | null;
  trigger: string | null;
  at: number;
}

const PacketRow = row({ session_id: nstr, trigger_kind: nstr });
const RateRow = row({ trigger_kind: nstr, total: int, unwanted: int });

/**
 * Stores the feedback; the session and trigger come from the packet's audit record when there is one (part
 * 3's packets), else from the caller. The audit record's outcome follows.
 */
export async function recordFeedback(tx: Queryable, input: FeedbackInput) {
  const audited = await tx.one(
    PacketRow,
    `SELECT session_id, trigger_kind FROM inject_audit WHERE owner = ? AND packet_id = ?
      ORDER BY created_at DESC LIMIT 1`,
    [input.owner, input.packetId],
  );
  const sessionId = audited?.session_id ?? input.sessionId;
  const trigger = audited?.trigger_kind ?? input.trigger;
  await tx.run(
    `INSERT INTO packet_feedback (owner, packet_id, session_id, trigger_kind, outcome, at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (owner, packet_id) DO UPDATE
       SET outcome = excluded.outcome, at = excluded.at,
           session_id = coalesce(excluded.session_id, packet_feedback.session_id),
           trigger_kind = coalesce(excluded.trigger_kind, packet_feedback.trigger_kind)`,
    [input.owner, input.packetId, sessionId, trigger, input.outcome, input.at],
  );
  await tx.run('UPDATE inject_audit SET outcome = ? WHERE owner = ? AND packet_id = ?', [
    input.outcome,
    input.owner,
    input.packetId,
  ]);
  const stored = await tx.one(
    PacketRow,
    'SELECT session_id, trigger_kind FROM packet_feedback WHERE owner = ? AND packet_id = ?',
    [input.owner, input.packetId],
  );
  return {
    packet_id: input.packetId,
    outcome: input.outcome,
    session_id: stored?.session_id ?? null,
    trigger: stored?.trigger_kind ?? null,
  };
}

/** Per trigger, the session's feedback and how much of it was ignored or harmful. */
export async function feedbackRates(
  db: Queryable,
  owner: string,
  sessionId: string,
): Promise<Map<string, FeedbackRate>> {
  const rows = await db.all(
    RateRow,
    `SELECT trigger_kind, count(*) AS total,
            sum(CASE WHEN outcome IN ('ignored', 'harmful') THEN 1 ELSE 0 END) AS unwanted
       FROM packet_feedback WHERE owner = ? AND session_id = ? GROUP BY trigger_kind`,
    [owner, sessionId],
  );
  return new Map(
    rows.flatMap((r) =>
      r.trigger_kind === null ? [] : [[r.trigger_kind, { total: r.total, unwanted: r.unwanted }]],
    ),
  );
}
