// Recall requests that outlived their wait budget (and prefetches): pending until the search ends, then
// ready, stale (the interaction moved on: kept, never delivered) or failed. Durable: nothing is lost.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import { RecallResultSchema, type RecallResult } from '../recall/schema.js';
import { REQUEST_STATUSES, type RequestStatus } from './schema.js';

export const newRequestId = (): string => `rq_${randomUUID()}`;

const RequestRow = row({
  request_id: str,
  owner: str,
  session_id: nstr,
  interaction_seq: nint,
  purpose: z.enum(['recall', 'prefetch']),
  status: z.enum(REQUEST_STATUSES),
  result: nstr,
  error: nstr,
  created_at: int,
  expires_at: int,
  finished_at: nint,
});
export type RequestRow = z.output<typeof RequestRow>;
const COLUMNS =
  'request_id, owner, session_id, interaction_seq, purpose, status, result, error, created_at, expires_at, finished_at';

export interface NewRequest {
  id: string;
  owner: string;
  sessionId: string | null;
  interactionSeq: number | null;
  purpose: 'recall' | 'prefetch';
  paramsDigest: string;
  indexMark: string;
  createdAt: number;
  expiresAt: number;
}

export async function insertRequest(db: Queryable, r: NewRequest): Promise<void> {
  await db.run(
    `INSERT INTO recall_requests (request_id, owner, session_id, interaction_seq, purpose, status, params_digest,
       index_mark, created_at, expires_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)`,
    [
      r.id,
      r.owner,
      r.sessionId,
      r.interactionSeq,
      r.purpose,
      r.paramsDigest,
      r.indexMark,
      r.createdAt,
      r.expiresAt,
    ],
  );
}

const forUpdate = (db: Queryable): string => (db.dialect === 'postgres' ? ' FOR UPDATE' : '');

export const getRequest = (db: Queryable, owner: string, id: string, lock = false) =>
  db.one(
    RequestRow,
    `SELECT ${COLUMNS} FROM recall_requests WHERE owner = ? AND request_id = ?${lock ? forUpdate(db) : ''}`,
    [owner, id],
  );

/** Ends a pending request; one that is no longer pending (failed meanwhile) keeps its state. */
export async function finishRequest(
  db: Queryable,
  id: string,
  status: Exclude<RequestStatus, 'pending'>,
  outcome: { result?: RecallResult; error?: { code: string; message: string } },
  now: number,
): Promise<boolean> {
  const { changes } = await db.run(
    `UPDATE recall_requests SET status = ?, result = ?, error = ?, finished_at = ?
      WHERE request_id = ? AND status = 'pending'`,
    [
      status,
      outcome.result ? JSON.stringify(outcome.result) : null,
      outcome.error ? JSON.stringify(outcome.error) : null,
      now,
      id,
    ],
  );
  return changes > 0;
}

/**
 * Requests still pending after their run limit are failed (`abandoned`): a process that stopped (or
 * crashed) left them, and no one else will finish them. Returns how many.
 * invariant: no request stays pending for ever: it is failed at shutdown, at its run limit, or by the next
 * start or read (test: src/inject/wait.test.ts "fails requests a stopped process left pending…").
 */
export async function failAbandoned(db: Queryable, now: number, owner?: string): Promise<number> {
  const error = JSON.stringify({ code: 'abandoned', message: 'the search stopped before it answered' });
  const { changes } = await db.run(
    `UPDATE recall_requests SET status = 'failed', error = ?, finished_at = ?
      WHERE status = 'pending' AND expires_at <= ?${owner === undefined ? '' : ' AND owner = ?'}`,
    owner === undefined ? [error, now, now] : [error, now, now, owner],
  );
  return changes;
}

const Stored = z.object({ code: z.string(), message: z.string() });

export function resultOf(r: RequestRow): { result?: RecallResult; error?: z.infer<typeof Stored> } {
  return {
    ...(r.result === null ? {} : { result: RecallResultSchema.parse(JSON.parse(r.result)) }),
    ...(r.error === null ? {} : { error: Stored.parse(JSON.parse(r.error)) }),
  };
}

/** The state of the owner's index a cached answer was computed on: documents added or removed change it. */
export async function indexMark(db: Queryable, owner: string): Promise<string> {
  const found = await db.one(
    row({ docs: int, last_doc: int }),
    'SELECT docs, last_doc FROM search_owners WHERE owner = ?',
    [owner],
  );
  return found ? `${found.docs}:${found.last_doc}` : '0:0';
}

/** A finished answer to the same search, recent enough and over the same index state. */
export async function cachedAnswer(
  db: Queryable,
  owner: string,
  paramsDigest: string,
  mark: string,
  since: number,
): Promise<RecallResult | undefined> {
  const found = await db.one(
    row({ result: str }),
    `SELECT result FROM recall_requests
      WHERE owner = ? AND params_digest = ? AND index_mark = ? AND finished_at >= ?
        AND status IN ('ready', 'stale') AND result IS NOT NULL
      ORDER BY finished_at DESC LIMIT 1`,
    [owner, paramsDigest, mark, since],
  );
  return found ? RecallResultSchema.parse(JSON.parse(found.result)) : undefined;
}
