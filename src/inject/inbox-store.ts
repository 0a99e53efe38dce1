// The inbox table: items wait per session, in the order of their seq, until one claim takes them. Only this
// file and its callers in inject/ write inbox_items.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { bool, int, nint, nstr, row, str } from '../storage/rows.js';
import type { InboxEntry } from './schema.js';

export const newItemId = (): string => `ib_${randomBytes(9).toString('base64url')}`;

export interface NewItem {
  id: string;
  owner: string;
  sessionId: string;
  seq: number;
  kind: string;
  wake: boolean;
  sourceRole: string;
  source: string | null;
  text: string | null;
  quoted: boolean;
  taskId: string | null;
  controlRevision: number | null;
  requestId: string | null;
  interactionSeq: number | null;
  digest: string;
  at: number;
}

export async function insertItem(tx: Queryable, i: NewItem): Promise<void> {
  await tx.run(
    `INSERT INTO inbox_items (item_id, owner, session_id, seq, kind, wake, source_role, source, text, quoted,
       task_id, control_revision, request_id, interaction_seq, digest, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    [
      i.id,
      i.owner,
      i.sessionId,
      i.seq,
      i.kind,
      Number(i.wake),
      i.sourceRole,
      i.source,
      i.text,
      Number(i.quoted),
      i.taskId,
      i.controlRevision,
      i.requestId,
      i.interactionSeq,
      i.digest,
      i.at,
    ],
  );
}

export async function hasDigest(tx: Queryable, owner: string, sessionId: string, digest: string) {
  const found = await tx.one(
    row({ item_id: str }),
    'SELECT item_id FROM inbox_items WHERE owner = ? AND session_id = ? AND digest = ?',
    [owner, sessionId, digest],
  );
  return found !== undefined;
}

const NoticeRow = row({ item_id: str, status: str, control_revision: int });

/** The task's notices with a control revision, claimed or not (replaced and stale ones aside). */
export const taskNotices = (tx: Queryable, owner: string, sessionId: string, taskId: string) =>
  tx.all(
    NoticeRow,
    `SELECT item_id, status, control_revision FROM inbox_items
      WHERE owner = ? AND session_id = ? AND task_id = ? AND control_revision IS NOT NULL
        AND status IN ('pending', 'claimed')`,
    [owner, sessionId, taskId],
  );

export async function setStatus(tx: Queryable, ids: readonly string[], status: 'replaced' | 'stale') {
  if (ids.length === 0) return;
  await tx.run(`UPDATE inbox_items SET status = ? WHERE item_id IN (${ids.map(() => '?').join(', ')})`, [
    status,
    ...ids,
  ]);
}

const EntryRow = row({
  item_id: str,
  owner: str,
  session_id: str,
  seq: int,
  kind: str,
  wake: bool,
  source_role: str,
  source: nstr,
  text: nstr,
  quoted: bool,
  task_id: nstr,
  control_revision: nint,
  request_id: nstr,
  interaction_seq: nint,
  created_at: int,
});
export type EntryRow = z.output<typeof EntryRow>;
export const ENTRY_COLUMNS =
  'item_id, owner, session_id, seq, kind, wake, source_role, source, text, quoted, task_id, control_revision, ' +
  'request_id, interaction_seq, created_at';

export const entryRows = (db: Queryable, sql: string, params: readonly SqlValue[]) =>
  db.all(EntryRow, sql, params);

export const toEntry = (r: EntryRow): InboxEntry => ({
  item_id: r.item_id,
  seq: r.seq,
  kind: r.kind,
  wake: r.wake,
  source_role: r.source_role,
  source: r.source,
  text: r.text,
  quoted: r.quoted,
  task_id: r.task_id,
  control_revision: r.control_revision,
  request_id: r.request_id,
  created_at: new Date(r.created_at).toISOString(),
});
