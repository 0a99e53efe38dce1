// The inbox's verbs: inject (no wake), steer (wake; the user's or the system's own words only) and claim
// (everything pending, in order, exactly once). Items are redacted and scored by the safety gate first.
import { randomBytes } from 'node:crypto';
import { MemoryError } from '../errors.js';
import type { Queryable } from '../storage/driver.js';
import { row, str } from '../storage/rows.js';
import {
  hasDigest,
  insertItem,
  newItemId,
  setStatus,
  taskNotices,
  toEntry,
  entryRows,
  ENTRY_COLUMNS,
} from './inbox-store.js';
import type { InjectDeps } from './runtime.js';
import { scoreSafety } from './safety.js';
import type { InboxItemInput } from './schema.js';
import { sha256 } from './segment.js';
import { lockSession, nextInboxSeq } from './sessions.js';

const STEER_ROLES = new Set(['user', 'system']);

export interface PutParams {
  owner: string;
  session_id: string;
  item: InboxItemInput;
}

export async function putItem(deps: InjectDeps, p: PutParams, wake: boolean) {
  const { item } = p;
  // invariant: steer wakes the agent only for the user's or the system's own words: a declared agent or tool
  // role, or text that came through a page, an e-mail, a file or a tool, is FORBIDDEN (test:
  // src/inject/inbox.test.ts "steer: FORBIDDEN for agent and tool sources…").
  if (wake && (!STEER_ROLES.has(item.source_role) || item.source !== undefined)) {
    throw new MemoryError(
      'FORBIDDEN',
      'steer takes only items from the user or the system, not from other sources',
    );
  }
  const { text: redacted } = await deps.redactor.redact(item.text);
  const verdict = scoreSafety({
    text: redacted,
    kind: item.kind,
    role: item.source_role,
    source: item.source,
  });
  const safety = { action: verdict.action, score: verdict.score, reasons: verdict.reasons };
  const answer = { wake, replaced: [] as string[], safety };
  if (verdict.action === 'suppress') {
    return {
      ...answer,
      status: 'refused' as const,
      item_id: null,
      seq: null,
      quoted: false,
      reason: 'unsafe',
    };
  }
  const quoted = verdict.action === 'quote';
  const text = quoted ? (verdict.quoted ?? redacted) : redacted;
  const taskId = item.task_id ?? null;
  const revision = item.control_revision ?? null;
  const digest = sha256(
    JSON.stringify([item.kind, item.source_role, item.source ?? null, text, taskId, revision]),
  );
  const now = deps.now();
  return deps.driver.transaction(async (tx) => {
    await lockSession(tx, p.owner, p.session_id, now);
    const none = { ...answer, item_id: null, seq: null, quoted };
    if (await hasDigest(tx, p.owner, p.session_id, digest)) return { ...none, status: 'duplicate' as const };
    let replaced: string[] = [];
    if (taskId !== null && revision !== null) {
      const notices = await taskNotices(tx, p.owner, p.session_id, taskId);
      if (notices.some((n) => n.control_revision >= revision))
        return { ...none, status: 'superseded' as const };
      replaced = notices.filter((n) => n.status === 'pending').map((n) => n.item_id);
      await setStatus(tx, replaced, 'replaced');
    }
    const id = newItemId();
    const seq = await nextInboxSeq(tx, p.owner, p.session_id);
    await insertItem(tx, {
      id,
      owner: p.owner,
      sessionId: p.session_id,
      seq,
      kind: item.kind,
      wake,
      sourceRole: item.source_role,
      source: item.source ?? null,
      text,
      quoted,
      taskId,
      controlRevision: revision,
      requestId: null,
      interactionSeq: null,
      digest,
      at: now,
    });
    const status = replaced.length > 0 ? ('merged' as const) : ('stored' as const);
    return { ...answer, status, item_id: id, seq, quoted, replaced };
  });
}

const forClaim = (db: Queryable): string => (db.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '');
const StaleRow = row({ item_id: str, request_id: str });

/** Late recall answers of interactions the session moved past: marked stale, with their requests. */
async function dropStale(tx: Queryable, owner: string, sessionId: string, interactionSeq: number) {
  const stale = await tx.all(
    StaleRow,
    `SELECT item_id, request_id FROM inbox_items
      WHERE owner = ? AND session_id = ? AND status = 'pending' AND request_id IS NOT NULL
        AND interaction_seq IS NOT NULL AND interaction_seq < ?`,
    [owner, sessionId, interactionSeq],
  );
  await setStatus(
    tx,
    stale.map((s) => s.item_id),
    'stale',
  );
  for (const s of stale) {
    await tx.run(`UPDATE recall_requests SET status = 'stale' WHERE owner = ? AND request_id = ?`, [
      owner,
      s.request_id,
    ]);
  }
  return stale.length;
}

/**
 * invariant: a claim takes every pending item of the session, in seq order, and no item is claimed twice,
 * also under concurrent claims by several processes: the session's row is held, and PostgreSQL skips rows
 * another claim holds (FOR UPDATE SKIP LOCKED); SQLite has one writer (test: src/inject/inbox.test.ts
 * "claims each item exactly once under concurrent claims…").
 */
export async function claimItems(
  deps: InjectDeps,
  p: { owner: string; session_id: string; interaction_seq?: number | undefined },
) {
  const claimId = `cl_${randomBytes(9).toString('base64url')}`;
  const now = deps.now();
  return deps.driver.transaction(async (tx) => {
    const session = await lockSession(tx, p.owner, p.session_id, now, p.interaction_seq);
    const stale = await dropStale(tx, p.owner, p.session_id, session.interactionSeq);
    await tx.run(
      `UPDATE inbox_items SET status = 'claimed', claimed_at = ?, claim_id = ?
        WHERE status = 'pending' AND item_id IN (SELECT item_id FROM inbox_items
                           WHERE owner = ? AND session_id = ? AND status = 'pending' ORDER BY seq${forClaim(tx)})`,
      [now, claimId, p.owner, p.session_id],
    );
    const rows = await entryRows(
      tx,
      `SELECT ${ENTRY_COLUMNS} FROM inbox_items WHERE owner = ? AND claim_id = ? ORDER BY seq`,
      [p.owner, claimId],
    );
    const items = rows.map(toEntry);
    return { claim_id: claimId, items, wake: items.some((i) => i.wake), stale };
  });
}
