// Owns the observation tables (owners, batches, items, failures, consumed marks) and memories.
import { z } from 'zod';
import type { Queryable, SqlValue } from '../storage/driver.js';
import { CountRow, int, nint, nstr, row, str } from '../storage/rows.js';
import type { Cursor, PendingEvent, PlannedItem, ClosedBy } from './select.js';
import type { Receipt, Usage } from './schema.js';

const OwnerRow = row({ owner: str, next_seq: int, next_offset: int, seen_seq: int, publish_seq: int });
export type OwnerRow = z.output<typeof OwnerRow>;

/**
 * Registers owners with events stored since they were last seen. Reads ingest's per-owner last sequence,
 * never a cursor over all owners' events: with several writers, sequences of different owners commit out
 * of order, but one owner's commit in order (Queryable.lockOwner).
 */
export async function scanNewEvents(tx: Queryable): Promise<void> {
  await tx.run(
    `INSERT INTO observation_owners (owner, seen_seq)
     SELECT e.owner, e.last_seq FROM event_owners e LEFT JOIN observation_owners o ON o.owner = e.owner
      WHERE o.owner IS NULL OR o.seen_seq < e.last_seq ORDER BY e.owner
     ON CONFLICT (owner) DO UPDATE SET seen_seq = excluded.seen_seq
      WHERE observation_owners.seen_seq < excluded.seen_seq`,
  );
}

export async function ownersWithPending(db: Queryable, owner?: string): Promise<OwnerRow[]> {
  return db.all(
    OwnerRow,
    `SELECT owner, next_seq, next_offset, seen_seq, publish_seq FROM observation_owners
      WHERE seen_seq >= next_seq ${owner === undefined ? '' : 'AND owner = ?'} ORDER BY owner`,
    owner === undefined ? [] : [owner],
  );
}

/** One owner's cursor as committed now: read after taking the owner, never from an earlier statement. */
export const ownerCursor = (db: Queryable, owner: string): Promise<OwnerRow | undefined> =>
  db.one(
    OwnerRow,
    'SELECT owner, next_seq, next_offset, seen_seq, publish_seq FROM observation_owners WHERE owner = ?',
    [owner],
  );

const PendingRow = row({ seq: int, event_id: str, kind: str, text: str, ingested_at: int, task_id: nstr });
const TextRow = row({ text: str });

/** Pending events from the cursor on, with unchanged schedule runs flagged. */
export async function pendingEvents(
  db: Queryable,
  owner: string,
  cursor: Cursor,
  limit: number,
): Promise<{ events: PendingEvent[]; more: boolean }> {
  const rows = await db.all(
    PendingRow,
    `SELECT seq, event_id, kind, text, ingested_at, task_id FROM events
      WHERE owner = ? AND seq >= ? ORDER BY seq LIMIT ?`,
    [owner, cursor.seq, limit + 1],
  );
  const more = rows.length > limit;
  const events: PendingEvent[] = [];
  for (const row of rows.slice(0, limit)) {
    let unchanged = false;
    if (row.kind === 'schedule_run' && row.task_id !== null) {
      const previous = await db.one(
        TextRow,
        `SELECT text FROM events WHERE owner = ? AND task_id = ? AND kind = 'schedule_run' AND seq < ?
          ORDER BY seq DESC LIMIT 1`,
        [owner, row.task_id, row.seq],
      );
      unchanged = previous?.text === row.text;
    }
    events.push({
      seq: row.seq,
      event_id: row.event_id,
      kind: row.kind,
      text: row.text,
      ingested_at: row.ingested_at,
      unchanged,
    });
  }
  return { events, more };
}

export async function setCursor(tx: Queryable, owner: string, cursor: Cursor): Promise<void> {
  await tx.run('UPDATE observation_owners SET next_seq = ?, next_offset = ? WHERE owner = ?', [
    cursor.seq,
    cursor.offset,
    owner,
  ]);
}

export async function markFiltered(
  tx: Queryable,
  owner: string,
  events: readonly PendingEvent[],
  now: number,
) {
  for (const e of events) {
    await tx.run(
      `INSERT INTO observation_consumed (owner, seq, event_id, batch_id, disposition, reason, consumed_at)
       VALUES (?, ?, ?, NULL, 'filtered', 'unchanged schedule run (same text as the previous run)', ?)`,
      [owner, e.seq, e.event_id, now],
    );
  }
}

export interface NewBatch {
  batchId: string;
  owner: string;
  closedBy: ClosedBy;
  events: number;
  bytes: number;
  items: readonly PlannedItem[];
}

export async function insertBatch(tx: Queryable, batch: NewBatch, now: number): Promise<void> {
  await tx.run(
    `INSERT INTO observation_batches (batch_id, owner, state, closed_by, event_count, bytes, created_at, next_attempt_at)
     VALUES (?, ?, 'queued', ?, ?, ?, ?, ?)`,
    [batch.batchId, batch.owner, batch.closedBy, batch.events, batch.bytes, now, now],
  );
  for (const [position, item] of batch.items.entries()) {
    await tx.run(
      `INSERT INTO observation_items (batch_id, position, seq, event_id, byte_start, byte_end, byte_length, same_as)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        batch.batchId,
        position,
        item.seq,
        item.event_id,
        item.byteStart,
        item.byteEnd,
        item.byteLength,
        item.sameAs,
      ],
    );
  }
}

const BatchRow = row({
  batch_id: str,
  owner: str,
  state: z.enum(['queued', 'leased', 'published']),
  failures: int,
  claims: int,
  lease_token: nstr,
  lease_expires_at: nint,
  next_attempt_at: int,
  receipt: nstr,
});
export type BatchRow = z.output<typeof BatchRow>;

const BATCH_COLUMNS =
  'batch_id, owner, state, failures, claims, lease_token, lease_expires_at, next_attempt_at, receipt';

/** Batches queued for their first attempt (failing batches in backoff do not hold up new ones). */
export async function countReady(db: Queryable, owner: string): Promise<number> {
  const found = await db.one(
    CountRow,
    `SELECT count(*) AS n FROM observation_batches WHERE owner = ? AND state = 'queued' AND failures = 0`,
    [owner],
  );
  return found?.n ?? 0;
}

/** In a transaction on PostgreSQL, the row stays locked until it ends: a lease is checked and ended at once. */
const forUpdate = (db: Queryable, skipLocked = false): string =>
  db.dialect === 'postgres' ? ` FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}` : '';

export const getBatch = (db: Queryable, batchId: string): Promise<BatchRow | undefined> =>
  db.one(BatchRow, `SELECT ${BATCH_COLUMNS} FROM observation_batches WHERE batch_id = ?${forUpdate(db)}`, [
    batchId,
  ]);

/**
 * The claimable batch waiting longest: queued and due, or leased with an expired lease.
 * invariant: two workers never lease the same batch at once: PostgreSQL skips the batches another
 * transaction is claiming (FOR UPDATE SKIP LOCKED), SQLite has one writer (test:
 * src/storage/concurrency.test.ts).
 */
export const nextClaimable = (db: Queryable, now: number, owner?: string): Promise<BatchRow | undefined> =>
  db.one(
    BatchRow,
    `SELECT ${BATCH_COLUMNS} FROM observation_batches
      WHERE state IN ('queued', 'leased') AND next_attempt_at <= ? ${owner === undefined ? '' : 'AND owner = ?'}
      ORDER BY next_attempt_at, seq LIMIT 1${forUpdate(db, true)}`,
    owner === undefined ? [now] : [now, owner],
  );

export async function leaseBatch(
  tx: Queryable,
  batchId: string,
  token: string,
  expiresAt: number,
): Promise<void> {
  await tx.run(
    `UPDATE observation_batches SET state = 'leased', lease_token = ?, lease_expires_at = ?, next_attempt_at = ?,
            claims = claims + 1 WHERE batch_id = ?`,
    [token, expiresAt, expiresAt, batchId],
  );
}

const ItemRow = row({
  position: int,
  seq: int,
  event_id: str,
  byte_start: int,
  byte_end: int,
  byte_length: int,
  same_as: nint,
  kind: str,
  role: str,
  at: int,
  text: str,
  session_id: nstr,
  task_id: nstr,
});
export type ItemRow = z.output<typeof ItemRow>;

/** The items of a batch with their events' full (redacted) text. */
export const batchItems = (db: Queryable, batchId: string): Promise<ItemRow[]> =>
  db.all(
    ItemRow,
    `SELECT i.position, i.seq, i.event_id, i.byte_start, i.byte_end, i.byte_length, i.same_as,
            e.kind, e.role, e.at, e.text, e.session_id, e.task_id
       FROM observation_items i JOIN events e ON e.seq = i.seq
      WHERE i.batch_id = ? ORDER BY i.position`,
    [batchId],
  );

export const FAILURES_KEPT = 5;

export async function insertFailure(
  tx: Queryable,
  batchId: string,
  at: number,
  code: string,
  reason: string,
) {
  await tx.run('INSERT INTO observation_failures (batch_id, at, code, reason) VALUES (?, ?, ?, ?)', [
    batchId,
    at,
    code,
    reason,
  ]);
  await tx.run(
    `DELETE FROM observation_failures WHERE batch_id = ? AND failure_id NOT IN
       (SELECT failure_id FROM observation_failures WHERE batch_id = ? ORDER BY failure_id DESC LIMIT ?)`,
    [batchId, batchId, FAILURES_KEPT],
  );
}

/** Back to the queue: after a failure (counted, with a retry time) or a release (due now). */
export async function requeueBatch(tx: Queryable, batchId: string, nextAttemptAt: number, failed: boolean) {
  await tx.run(
    `UPDATE observation_batches SET state = 'queued', lease_token = NULL, lease_expires_at = NULL,
            next_attempt_at = ?, failures = failures + ? WHERE batch_id = ?`,
    [nextAttemptAt, failed ? 1 : 0, batchId],
  );
}

export async function addUsage(tx: Queryable, batchId: string, usage: Usage | undefined): Promise<void> {
  if (!usage) return;
  await tx.run(
    `UPDATE observation_batches SET model_calls = model_calls + ?, prompt_tokens = prompt_tokens + ?,
            completion_tokens = completion_tokens + ? WHERE batch_id = ?`,
    [usage.calls, usage.prompt_tokens, usage.completion_tokens, batchId],
  );
}

const MemoryRow = row({
  memory_id: str,
  owner: str,
  kind: str,
  status: str,
  text: str,
  fact_kind: nstr,
  subject: nstr,
  predicate: nstr,
  object: nstr,
  procedure: nstr,
  quotes: nstr,
  cues: nstr,
  at: int,
  session_id: nstr,
  task_id: nstr,
  batch_id: str,
  publish_seq: int,
  created_at: int,
});
export type MemoryRow = z.output<typeof MemoryRow>;

const MEMORY_COLUMNS = [
  'memory_id',
  'owner',
  'kind',
  'status',
  'text',
  'fact_kind',
  'subject',
  'predicate',
  'object',
  'procedure',
  'quotes',
  'cues',
  'at',
  'session_id',
  'task_id',
  'batch_id',
  'publish_seq',
  'created_at',
] as const;

export async function insertMemory(tx: Queryable, row: MemoryRow, sources: readonly string[]): Promise<void> {
  await tx.run(
    `INSERT INTO memories (${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map(() => '?').join(', ')})`,
    MEMORY_COLUMNS.map((c) => row[c] as SqlValue),
  );
  for (const [position, eventId] of sources.entries()) {
    await tx.run('INSERT INTO memory_sources (memory_id, owner, event_id, position) VALUES (?, ?, ?, ?)', [
      row.memory_id,
      row.owner,
      eventId,
      position,
    ]);
  }
}

export async function setDisposition(
  tx: Queryable,
  batchId: string,
  position: number,
  disposition: 'cited' | 'discarded',
  reason: string | null,
) {
  await tx.run(
    'UPDATE observation_items SET disposition = ?, reason = ? WHERE batch_id = ? AND position = ?',
    [disposition, reason, batchId, position],
  );
}

/**
 * Marks consumed each event of the batch whose every part is now published:
 * its last byte is in some batch, and no other batch holding a part of it is unpublished.
 */
export async function consumeCompleted(
  tx: Queryable,
  owner: string,
  batchId: string,
  now: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO observation_consumed (owner, seq, event_id, batch_id, disposition, reason, consumed_at)
     SELECT ?, i.seq, i.event_id, ?,
            CASE WHEN EXISTS (SELECT 1 FROM observation_items a WHERE a.seq = i.seq AND a.disposition = 'cited')
                 THEN 'cited' ELSE 'discarded' END,
            i.reason, ?
       FROM observation_items i
      WHERE i.batch_id = ?
        AND EXISTS (SELECT 1 FROM observation_items t WHERE t.seq = i.seq AND t.byte_end = t.byte_length)
        AND NOT EXISTS (SELECT 1 FROM observation_items o JOIN observation_batches b ON b.batch_id = o.batch_id
                         WHERE o.seq = i.seq AND b.state != 'published' AND b.batch_id != ?)
     ON CONFLICT (owner, seq) DO NOTHING`,
    [owner, batchId, now, batchId, batchId],
  );
}

export async function nextPublishSeq(tx: Queryable, owner: string): Promise<number> {
  const next = await tx.one(
    PublishSeqRow,
    'UPDATE observation_owners SET publish_seq = publish_seq + 1 WHERE owner = ? RETURNING publish_seq',
    [owner],
  );
  return next?.publish_seq ?? 1;
}

export async function markPublished(tx: Queryable, receipt: Receipt, now: number): Promise<void> {
  await tx.run(
    `UPDATE observation_batches SET state = 'published', published_at = ?, publish_seq = ?, receipt = ?,
            lease_expires_at = NULL, next_attempt_at = ? WHERE batch_id = ?`,
    [now, receipt.publish_seq, JSON.stringify(receipt), now, receipt.batch_id],
  );
}

const PublishSeqRow = row({ publish_seq: int });
const SourceRow = row({ memory_id: str, event_id: str });

export interface MemoryWithSources extends MemoryRow {
  sources: string[];
}

/** Memories of one owner by id, each with its source event ids in citation order. */
export async function getMemoriesByIds(
  db: Queryable,
  owner: string,
  ids: readonly string[],
): Promise<MemoryWithSources[]> {
  if (ids.length === 0) return [];
  const marks = ids.map(() => '?').join(', ');
  const rows = await db.all(
    MemoryRow,
    `SELECT ${MEMORY_COLUMNS.join(', ')} FROM memories WHERE owner = ? AND memory_id IN (${marks})`,
    [owner, ...ids],
  );
  const sources = await db.all(
    SourceRow,
    `SELECT memory_id, event_id FROM memory_sources WHERE owner = ? AND memory_id IN (${marks})
      ORDER BY memory_id, position`,
    [owner, ...ids],
  );
  const byMemory = new Map<string, string[]>();
  for (const s of sources) byMemory.set(s.memory_id, [...(byMemory.get(s.memory_id) ?? []), s.event_id]);
  return rows.map((row) => ({ ...row, sources: byMemory.get(row.memory_id) ?? [] }));
}

/** The batch of a direct write: published at once, holding no items (the write's note is observed later). */
export async function insertWriteBatch(
  tx: Queryable,
  receipt: Receipt,
  owner: string,
  now: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO observation_batches (batch_id, owner, state, closed_by, event_count, bytes, created_at,
            next_attempt_at, published_at, publish_seq, receipt)
     VALUES (?, ?, 'published', 'terminal', 0, 0, ?, ?, ?, ?, ?)`,
    [receipt.batch_id, owner, now, now, now, receipt.publish_seq, JSON.stringify(receipt)],
  );
}

/** An owner observation has not registered yet gets its row, so that its publications are numbered. */
export async function ensureOwner(tx: Queryable, owner: string): Promise<void> {
  await tx.run('INSERT INTO observation_owners (owner) VALUES (?) ON CONFLICT (owner) DO NOTHING', [owner]);
}
