// The write guard (opt-in, MNEMO_WRITE_GUARD_THRESHOLD): counts a session's human turns that used a tool
// since the session last wrote something to memory. The counter is a row per session (write_guards), moved
// forward over the session's events each time it is read, so it survives a restart.
import { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nstr, row, str } from '../storage/rows.js';

const GuardRow = row({ scanned_seq: int, turns: int, in_turn: int, turn_counted: int, sub_agent: int });
const EventRow = row({ seq: int, kind: str, role: str, meta: nstr });
const PAGE = 500;

export interface GuardState {
  scannedSeq: number;
  turns: number;
  /** A human turn is open (its user message was seen). */
  inTurn: boolean;
  /** The open turn counted already (a tool was used in it), or was settled by a write. */
  turnCounted: boolean;
  /** The session is a sub-agent's: it never sees the notice. */
  subAgent: boolean;
}

const MetaSchema = z
  .object({
    agent: z.string().optional(),
    origin: z.string().optional(),
    parent_session_id: z.string().optional(),
    tool_call: z.unknown().optional(),
    tool_calls: z.array(z.unknown()).optional(),
    source: z.object({ kind: z.string().optional() }).loose().optional(),
  })
  .loose();

type EventFacts = z.output<typeof EventRow>;

function metaOf(e: EventFacts): z.output<typeof MetaSchema> {
  if (e.meta === null) return {};
  try {
    const parsed = MetaSchema.safeParse(JSON.parse(e.meta));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Continuation turns (a goal's) and injected context (a plugin's wake-up notice) are no human turn. */
const NOT_HUMAN = new Set(['goal', 'plugin']);

/**
 * One event's effect on the counter, pure. A sub-agent session is one whose events say so in meta
 * (`agent: "sub"`, `origin: "subagent"` or a `parent_session_id`); a human turn opens with a user message
 * (role user) not marked as a goal's or a plugin's (`meta.source.kind`); a tool use is a tool_result
 * event or an event whose meta holds `tool_call` / `tool_calls`.
 */
export function foldEvent(state: GuardState, e: EventFacts): GuardState {
  const meta = metaOf(e);
  const next = { ...state, scannedSeq: Math.max(state.scannedSeq, e.seq) };
  if (meta.agent === 'sub' || meta.origin === 'subagent' || meta.parent_session_id !== undefined) {
    next.subAgent = true;
  }
  if (e.kind === 'user_message' && e.role === 'user' && !NOT_HUMAN.has(meta.source?.kind ?? '')) {
    return { ...next, inTurn: true, turnCounted: false };
  }
  const tool = e.kind === 'tool_result' || meta.tool_call !== undefined || (meta.tool_calls?.length ?? 0) > 0;
  if (tool && next.inTurn && !next.turnCounted) return { ...next, turns: next.turns + 1, turnCounted: true };
  return next;
}

const stateOf = (r: z.output<typeof GuardRow>): GuardState => ({
  scannedSeq: r.scanned_seq,
  turns: r.turns,
  inTurn: r.in_turn === 1,
  turnCounted: r.turn_counted === 1,
  subAgent: r.sub_agent === 1,
});

/** Inside a transaction: the session's counter, locked, moved forward over its events not yet counted. */
export async function advanceGuard(tx: Queryable, owner: string, sessionId: string, now: number) {
  await tx.run(
    `INSERT INTO write_guards (owner, session_id, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (owner, session_id) DO NOTHING`,
    [owner, sessionId, now],
  );
  // invariant: the UPDATE holds the row until the transaction ends, so a reset is never overwritten by a
  // count read before it (test: src/inject/write-guard.test.ts "…loses no write among them").
  const found = await tx.one(
    GuardRow,
    `UPDATE write_guards SET updated_at = ? WHERE owner = ? AND session_id = ?
      RETURNING scanned_seq, turns, in_turn, turn_counted, sub_agent`,
    [now, owner, sessionId],
  );
  if (!found) throw new Error(`write guard of ${sessionId} vanished inside its transaction`);
  let state = stateOf(found);
  for (;;) {
    const events = await tx.all(
      EventRow,
      `SELECT seq, kind, role, meta FROM events WHERE owner = ? AND session_id = ? AND seq > ?
        ORDER BY seq LIMIT ?`,
      [owner, sessionId, state.scannedSeq, PAGE],
    );
    for (const e of events) state = foldEvent(state, e);
    if (events.length < PAGE) return state;
  }
}

export async function saveGuard(tx: Queryable, owner: string, sessionId: string, s: GuardState, now: number) {
  await tx.run(
    `UPDATE write_guards SET scanned_seq = ?, turns = ?, in_turn = ?, turn_counted = ?, sub_agent = ?,
            updated_at = ? WHERE owner = ? AND session_id = ?`,
    [
      s.scannedSeq,
      s.turns,
      s.inTurn ? 1 : 0,
      s.turnCounted ? 1 : 0,
      s.subAgent ? 1 : 0,
      now,
      owner,
      sessionId,
    ],
  );
}

/** The counter as of now, saved. */
export async function readGuard(tx: Queryable, owner: string, sessionId: string, now: number) {
  const state = await advanceGuard(tx, owner, sessionId, now);
  await saveGuard(tx, owner, sessionId, state, now);
  return state;
}

/** A write from the session added something: the count starts again; the open turn is settled. */
export async function resetGuard(tx: Queryable, owner: string, sessionId: string, now: number) {
  const state = await advanceGuard(tx, owner, sessionId, now);
  await saveGuard(tx, owner, sessionId, { ...state, turns: 0, turnCounted: true }, now);
}

/** The notice is static (it names the threshold, never the live count): it appears, then it goes. */
export const backlogNotice = (threshold: number): string =>
  [
    '## ⚠️ Memory Write Backlog',
    `${threshold} or more turns of this session used tools but wrote nothing to memory. If something worth ` +
      'keeping happened (a decision, a fix, a finding), record it now (memory.track.add, daily or project); ' +
      'never write filler.',
    `本会话已有 ${threshold} 个或更多使用了工具的回合没有写入记忆。如有值得保留的内容（决定、修复、发现），` +
      '请现在记下（memory.track.add，daily 或 project）；不要写凑数的条目。',
  ].join('\n');

/**
 * Whether the session's snapshot carries the notice. invariant: a sub-agent's session never sees it, and
 * the count survives a restart (test: src/inject/write-guard.test.ts "never shows the notice to a
 * sub-agent’s session", "keeps the count across a restart…").
 */
export const showsBacklog = (s: GuardState, threshold: number): boolean =>
  !s.subAgent && s.turns >= threshold;
