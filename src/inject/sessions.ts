// Per-session state in the database (nothing of it lives in the process): the interaction sequence, the
// context cursor, the inbox's order, cooldowns. A session is created on first use and ended explicitly.
import { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { CountRow, int, row, str } from '../storage/rows.js';

const SessionRow = row({ interaction_seq: int, context_cursor: int, inbox_seq: int, cooldowns: str });
const CooldownsSchema = z.record(z.string(), z.number());

export interface SessionState {
  interactionSeq: number;
  cursor: number;
  inboxSeq: number;
  /** Trigger → until when it is cooling down (ms). */
  cooldowns: Record<string, number>;
}

const stateOf = (r: z.output<typeof SessionRow>): SessionState => {
  const parsed = CooldownsSchema.safeParse(JSON.parse(r.cooldowns));
  return {
    interactionSeq: r.interaction_seq,
    cursor: r.context_cursor,
    inboxSeq: r.inbox_seq,
    cooldowns: parsed.success ? parsed.data : {},
  };
};

/**
 * Inside a transaction: the session's row, created on first use, held until the transaction ends (the
 * UPDATE locks it on PostgreSQL; SQLite has one writer), with its interaction sequence moved up to
 * `interactionSeq` when that is newer (it never goes back).
 */
export async function lockSession(
  tx: Queryable,
  owner: string,
  sessionId: string,
  now: number,
  interactionSeq?: number,
): Promise<SessionState> {
  await tx.run(
    `INSERT INTO inject_sessions (owner, session_id, created_at, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (owner, session_id) DO NOTHING`,
    [owner, sessionId, now, now],
  );
  const seq = interactionSeq ?? 0;
  const found = await tx.one(
    SessionRow,
    `UPDATE inject_sessions
        SET interaction_seq = CASE WHEN CAST(? AS BIGINT) > interaction_seq THEN CAST(? AS BIGINT)
                                   ELSE interaction_seq END,
            updated_at = ?
      WHERE owner = ? AND session_id = ?
      RETURNING interaction_seq, context_cursor, inbox_seq, cooldowns`,
    [seq, seq, now, owner, sessionId],
  );
  if (!found) throw new Error(`session ${sessionId} vanished inside its transaction`);
  return stateOf(found);
}

/** The session as stored, without creating it; undefined once ended (or never used). */
export async function lockExistingSession(
  tx: Queryable,
  owner: string,
  sessionId: string,
): Promise<SessionState | undefined> {
  const found = await tx.one(
    SessionRow,
    `UPDATE inject_sessions SET inbox_seq = inbox_seq WHERE owner = ? AND session_id = ?
      RETURNING interaction_seq, context_cursor, inbox_seq, cooldowns`,
    [owner, sessionId],
  );
  return found ? stateOf(found) : undefined;
}

export async function saveGateState(
  tx: Queryable,
  owner: string,
  sessionId: string,
  cursor: number,
  cooldowns: Record<string, number>,
): Promise<void> {
  await tx.run(
    'UPDATE inject_sessions SET context_cursor = ?, cooldowns = ? WHERE owner = ? AND session_id = ?',
    [cursor, JSON.stringify(cooldowns), owner, sessionId],
  );
}

/** The next place in the session's inbox: numbers follow commit order, since the row is held meanwhile. */
export async function nextInboxSeq(tx: Queryable, owner: string, sessionId: string): Promise<number> {
  const found = await tx.one(
    row({ inbox_seq: int }),
    `UPDATE inject_sessions SET inbox_seq = inbox_seq + 1 WHERE owner = ? AND session_id = ?
      RETURNING inbox_seq`,
    [owner, sessionId],
  );
  if (!found) throw new Error(`session ${sessionId} is not held`);
  return found.inbox_seq;
}

/** Removes the session's state: its ring, its inbox (claimed or not) and its row. */
export async function endSession(
  tx: Queryable,
  owner: string,
  sessionId: string,
): Promise<{ ended: boolean; segments: number; inboxItems: number }> {
  const where = 'WHERE owner = ? AND session_id = ?';
  const pending = await tx.one(
    CountRow,
    `SELECT count(*) AS n FROM inbox_items ${where} AND status = 'pending'`,
    [owner, sessionId],
  );
  const segments = await tx.run(`DELETE FROM working_segments ${where}`, [owner, sessionId]);
  await tx.run(`DELETE FROM inbox_items ${where}`, [owner, sessionId]);
  await tx.run(`DELETE FROM write_guards ${where}`, [owner, sessionId]);
  const session = await tx.run(`DELETE FROM inject_sessions ${where}`, [owner, sessionId]);
  return { ended: session.changes > 0, segments: segments.changes, inboxItems: pending?.n ?? 0 };
}
