// Owns the organize job queue: organize_jobs (leases, retry state, notices), organize_receipts (the first
// receipt of each committed step, by token) and organize_failures (the last five per job).
import { z } from 'zod';
import type { Queryable } from '../storage/driver.js';
import { int, nint, nstr, row, str } from '../storage/rows.js';
import {
  JOB_KINDS,
  JOB_STATES,
  JOB_TRIGGERS,
  type JobKind,
  type JobTrigger,
  type Usage,
} from './schema-jobs.js';

const JobRow = row({
  seq: int,
  job_id: str,
  owner: str,
  kind: z.enum(JOB_KINDS),
  trigger: z.enum(JOB_TRIGGERS),
  state: z.enum(JOB_STATES),
  workday: nstr,
  keep_tokens: nint,
  batch_limit: int,
  created_at: int,
  next_attempt_at: int,
  claims: int,
  failures: int,
  steps: int,
  lease_token: nstr,
  lease_expires_at: nint,
  step_type: z.enum(['compact', 'archive']).nullable(),
  step_items: nstr,
  step_version: nint,
  finished_at: nint,
  notice: z.enum(['pending', 'acked']).nullable(),
});
export type JobRow = z.output<typeof JobRow>;
const SELECT = `SELECT ${Object.keys(JobRow.shape).join(', ')} FROM organize_jobs`;

/** In a transaction on PostgreSQL the row stays locked until it ends: a lease is checked and ended at once. */
const forUpdate = (db: Queryable, skipLocked = false): string =>
  db.dialect === 'postgres' ? ` FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}` : '';

export interface NewJob {
  jobId: string;
  owner: string;
  kind: JobKind;
  trigger: JobTrigger;
  batchLimit: number;
  workday?: string | undefined;
  keepTokens?: number | undefined;
}

/** Queues a job unless one of its owner and kind is live; answers whether it was inserted. */
export async function insertJob(tx: Queryable, job: NewJob, now: number): Promise<boolean> {
  const { changes } = await tx.run(
    `INSERT INTO organize_jobs (job_id, owner, kind, trigger, state, workday, keep_tokens, batch_limit, created_at, next_attempt_at)
     VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    [
      job.jobId,
      job.owner,
      job.kind,
      job.trigger,
      job.workday ?? null,
      job.keepTokens ?? null,
      job.batchLimit,
      now,
      now,
    ],
  );
  return changes > 0;
}

export const liveJob = (db: Queryable, owner: string, kind: JobKind): Promise<JobRow | undefined> =>
  db.one(JobRow, `${SELECT} WHERE owner = ? AND kind = ? AND state IN ('queued', 'leased')${forUpdate(db)}`, [
    owner,
    kind,
  ]);

/** An explicit request for a live job: a retry in backoff becomes due now; a requested window replaces its own. */
export async function wakeJob(tx: Queryable, jobId: string, now: number, keepTokens: number | undefined) {
  await tx.run(
    `UPDATE organize_jobs
        SET next_attempt_at = CASE WHEN state = 'queued' AND next_attempt_at > ? THEN ? ELSE next_attempt_at END,
            keep_tokens = coalesce(?, keep_tokens)
      WHERE job_id = ?`,
    [now, now, keepTokens ?? null, jobId],
  );
}

export const getJob = (
  db: Queryable,
  owner: string,
  jobId: string,
  lock = false,
): Promise<JobRow | undefined> =>
  db.one(JobRow, `${SELECT} WHERE owner = ? AND job_id = ?${lock ? forUpdate(db) : ''}`, [owner, jobId]);

/**
 * The claimable job waiting longest: queued and due, or leased with an expired lease.
 * invariant: two workers never lease the same job at once: PostgreSQL skips the jobs another transaction
 * is claiming (FOR UPDATE SKIP LOCKED), SQLite has one writer (test: test/organize/jobs.test.ts).
 */
export function nextClaimable(
  db: Queryable,
  now: number,
  options: { owner?: string | undefined; skip: readonly number[] },
): Promise<JobRow | undefined> {
  const params: Array<string | number> = [now];
  let where = `state IN ('queued', 'leased') AND next_attempt_at <= ?`;
  if (options.owner !== undefined) {
    where += ' AND owner = ?';
    params.push(options.owner);
  }
  if (options.skip.length > 0) {
    where += ` AND seq NOT IN (${options.skip.map(() => '?').join(', ')})`;
    params.push(...options.skip);
  }
  return db.one(
    JobRow,
    `${SELECT} WHERE ${where} ORDER BY next_attempt_at, seq LIMIT 1${forUpdate(db, true)}`,
    params,
  );
}

/** Whether another job of the owner holds a lease that has not expired. */
export async function ownerBusy(db: Queryable, owner: string, jobId: string, now: number): Promise<boolean> {
  const found = await db.one(
    row({ job_id: str }),
    `SELECT job_id FROM organize_jobs WHERE owner = ? AND state = 'leased' AND job_id != ? AND lease_expires_at > ?
      LIMIT 1`,
    [owner, jobId, now],
  );
  return found !== undefined;
}

export async function leaseJob(
  tx: Queryable,
  jobId: string,
  lease: { token: string; expiresAt: number; type: 'compact' | 'archive'; items: string; version: number },
) {
  await tx.run(
    `UPDATE organize_jobs SET state = 'leased', lease_token = ?, lease_expires_at = ?, next_attempt_at = ?,
            claims = claims + 1, step_type = ?, step_items = ?, step_version = ? WHERE job_id = ?`,
    [lease.token, lease.expiresAt, lease.expiresAt, lease.type, lease.items, lease.version, jobId],
  );
}

/** Back to the queue: after a step (due now), a failure (counted, later, a smaller batch) or a release. */
export async function requeueJob(
  tx: Queryable,
  jobId: string,
  change: { nextAttemptAt: number; failed?: boolean; batchLimit?: number; stepDone?: boolean },
) {
  await tx.run(
    `UPDATE organize_jobs SET state = 'queued', lease_token = NULL, lease_expires_at = NULL, step_type = NULL,
            step_items = NULL, step_version = NULL, next_attempt_at = ?, failures = failures + ?,
            batch_limit = coalesce(?, batch_limit), steps = steps + ? WHERE job_id = ?`,
    [change.nextAttemptAt, change.failed ? 1 : 0, change.batchLimit ?? null, change.stepDone ? 1 : 0, jobId],
  );
}

/** Ends a job: done, or failed for good (with a notice when an automatic trigger queued it). */
export async function finishJob(
  tx: Queryable,
  jobId: string,
  end: { state: 'done' | 'failed'; now: number; notice: boolean; failed?: boolean },
) {
  await tx.run(
    `UPDATE organize_jobs SET state = ?, finished_at = ?, lease_token = NULL, lease_expires_at = NULL,
            step_type = NULL, step_items = NULL, step_version = NULL, notice = ?, failures = failures + ?
      WHERE job_id = ?`,
    [end.state, end.now, end.notice ? 'pending' : null, end.failed ? 1 : 0, jobId],
  );
}

export async function addJobUsage(tx: Queryable, jobId: string, usage: Usage | undefined) {
  if (!usage) return;
  await tx.run(
    `UPDATE organize_jobs SET model_calls = model_calls + ?, prompt_tokens = prompt_tokens + ?,
            completion_tokens = completion_tokens + ? WHERE job_id = ?`,
    [usage.calls, usage.prompt_tokens, usage.completion_tokens, jobId],
  );
}

export const FAILURES_KEPT = 5;

export async function insertFailure(
  tx: Queryable,
  job: { job_id: string; owner: string },
  failure: { at: number; code: string; reason: string; batchLimit: number },
) {
  await tx.run(
    'INSERT INTO organize_failures (job_id, owner, at, code, reason, batch_limit) VALUES (?, ?, ?, ?, ?, ?)',
    [job.job_id, job.owner, failure.at, failure.code, failure.reason.slice(0, 2_000), failure.batchLimit],
  );
  await tx.run(
    `DELETE FROM organize_failures WHERE job_id = ? AND failure_id NOT IN
       (SELECT failure_id FROM organize_failures WHERE job_id = ? ORDER BY failure_id DESC LIMIT ?)`,
    [job.job_id, job.job_id, FAILURES_KEPT],
  );
}

const FailureRow = row({ job_id: str, at: int, code: str, reason: str, batch_limit: int });
export type FailureRow = z.output<typeof FailureRow>;

/** The kept failures of these jobs, oldest first. */
export const failuresOf = (db: Queryable, jobIds: readonly string[]): Promise<FailureRow[]> =>
  jobIds.length === 0
    ? Promise.resolve([])
    : db.all(
        FailureRow,
        `SELECT job_id, at, code, reason, batch_limit FROM organize_failures
          WHERE job_id IN (${jobIds.map(() => '?').join(', ')}) ORDER BY failure_id`,
        [...jobIds],
      );

const ReceiptRow = row({ receipt: str });

export const receiptOf = async (db: Queryable, jobId: string, token: string): Promise<string | undefined> =>
  (
    await db.one(ReceiptRow, 'SELECT receipt FROM organize_receipts WHERE job_id = ? AND token = ?', [
      jobId,
      token,
    ])
  )?.receipt;

export async function insertReceipt(
  tx: Queryable,
  r: { jobId: string; token: string; owner: string; step: number; receipt: string; now: number },
) {
  await tx.run(
    'INSERT INTO organize_receipts (job_id, token, owner, step, receipt, committed_at) VALUES (?, ?, ?, ?, ?, ?)',
    [r.jobId, r.token, r.owner, r.step, r.receipt, r.now],
  );
}

/** Jobs a status shows: live ones and failed ones, newest first (of one owner or all). */
export const visibleJobs = (db: Queryable, owner?: string): Promise<JobRow[]> =>
  db.all(
    JobRow,
    `${SELECT} WHERE state IN ('queued', 'leased', 'failed') ${owner === undefined ? '' : 'AND owner = ?'}
      ORDER BY seq DESC LIMIT 100`,
    owner === undefined ? [] : [owner],
  );

export const pendingNotices = (db: Queryable, owner: string): Promise<JobRow[]> =>
  db.all(JobRow, `${SELECT} WHERE owner = ? AND notice = 'pending' ORDER BY seq`, [owner]);

/** Whether an automatic job of this owner and kind failed and its notice waits: triggers hold off until it is acknowledged. */
export async function noticeWaits(db: Queryable, owner: string, kind: JobKind): Promise<boolean> {
  const found = await db.one(
    row({ job_id: str }),
    `SELECT job_id FROM organize_jobs WHERE owner = ? AND kind = ? AND notice = 'pending' LIMIT 1`,
    [owner, kind],
  );
  return found !== undefined;
}

export async function ackNotice(tx: Queryable, owner: string, jobId: string, now: number): Promise<boolean> {
  const job = await getJob(tx, owner, jobId, true);
  if (!job || job.notice === null) return false;
  await tx.run(
    `UPDATE organize_jobs SET notice = 'acked', acked_at = coalesce(acked_at, ?) WHERE job_id = ?`,
    [now, jobId],
  );
  return true;
}

const CountsRow = row({
  queued: int,
  leased: int,
  retrying: int,
  failed: int,
  notices: int,
  model_calls: int,
  prompt_tokens: int,
  completion_tokens: int,
});

export const queueCounts = (db: Queryable, owner?: string) =>
  db.one(
    CountsRow,
    `SELECT coalesce(sum(CASE WHEN state = 'queued' THEN 1 ELSE 0 END), 0) AS queued,
            coalesce(sum(CASE WHEN state = 'leased' THEN 1 ELSE 0 END), 0) AS leased,
            coalesce(sum(CASE WHEN state IN ('queued', 'leased') AND failures > 0 THEN 1 ELSE 0 END), 0) AS retrying,
            coalesce(sum(CASE WHEN state = 'failed' THEN 1 ELSE 0 END), 0) AS failed,
            coalesce(sum(CASE WHEN notice = 'pending' THEN 1 ELSE 0 END), 0) AS notices,
            coalesce(sum(model_calls), 0) AS model_calls, coalesce(sum(prompt_tokens), 0) AS prompt_tokens,
            coalesce(sum(completion_tokens), 0) AS completion_tokens
       FROM organize_jobs ${owner === undefined ? '' : 'WHERE owner = ?'}`,
    owner === undefined ? [] : [owner],
  );
