// Ending a lease: commit a step (its node or its dispositions, the receipt, in one transaction), fail
// (back off with half the batch, a notice once out of attempts) or release (a worker stopping, no penalty).
import { MemoryError } from '../errors.js';
import type { Driver, Queryable } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { organizeLock } from './claim.js';
import type { OrganizeOptions } from './options.js';
import type { StepItems } from './plan.js';
import { applyStep, prepareStep } from './publish.js';
import type { CommitParams, FailParams, FailResult, Receipt } from './schema-jobs.js';
import {
  addJobUsage,
  finishJob,
  getJob,
  insertFailure,
  receiptOf,
  requeueJob,
  type JobRow,
} from './store-jobs.js';
import { ownerState } from './store-owners.js';

export interface EndLeaseDeps {
  driver: Driver;
  redactor: Redactor;
  now: () => number;
  options: OrganizeOptions;
}

type Held = { kind: 'held'; job: JobRow; items: StepItems } | { kind: 'committed'; receipt: Receipt };

/**
 * The job as seen by the holder of `token`.
 * invariant: only the current token ends a lease; a token that committed gets its first receipt again
 * (test: test/organize/jobs.test.ts "a retried commit with the same token returns the first receipt").
 */
async function holdLease(db: Queryable, owner: string, jobId: string, token: string): Promise<Held> {
  const job = await getJob(db, owner, jobId, true);
  if (!job) throw new MemoryError('NOT_FOUND', `no organize job ${jobId}`, { job_id: jobId });
  const receipt = await receiptOf(db, jobId, token);
  if (receipt !== undefined) return { kind: 'committed', receipt: JSON.parse(receipt) as Receipt };
  if (job.state !== 'leased' || job.lease_token !== token || job.step_items === null) {
    throw new MemoryError('LEASE_LOST', `the lease on job ${jobId} is no longer held by this token`, {
      job_id: jobId,
      state: job.state,
    });
  }
  return { kind: 'held', job, items: JSON.parse(job.step_items) as StepItems };
}

export const retryDelayMs = (
  failures: number,
  o: Pick<OrganizeOptions, 'retryBaseMs' | 'retryCapMs'>,
): number => Math.min(o.retryCapMs, o.retryBaseMs * 2 ** Math.max(0, failures - 1));

const AUTOMATIC = new Set(['threshold', 'hourly', 'nightly']);

/** One failure: kept (last five), the batch halved, retried later; after the last attempt, failed for good. */
async function recordFailure(
  tx: Queryable,
  job: JobRow,
  failure: { code: string; reason: string },
  now: number,
  options: OrganizeOptions,
): Promise<FailResult> {
  const failures = job.failures + 1;
  const batchLimit = Math.max(1, Math.floor(job.batch_limit / 2));
  await insertFailure(tx, job, { at: now, ...failure, batchLimit: job.batch_limit });
  if (failures >= options.maxFailures) {
    const notice = AUTOMATIC.has(job.trigger);
    await finishJob(tx, job.job_id, { state: 'failed', now, notice, failed: true });
    return {
      job_id: job.job_id,
      state: 'failed',
      failures,
      batch_limit: job.batch_limit,
      next_retry_at: null,
      notice,
    };
  }
  const nextAttemptAt = now + retryDelayMs(failures, options);
  await requeueJob(tx, job.job_id, { nextAttemptAt, failed: true, batchLimit });
  return {
    job_id: job.job_id,
    state: 'queued',
    failures,
    batch_limit: batchLimit,
    next_retry_at: new Date(nextAttemptAt).toISOString(),
    notice: false,
  };
}

export async function commitStep(deps: EndLeaseDeps, params: CommitParams): Promise<Receipt> {
  const first = await holdLease(deps.driver, params.owner, params.job_id, params.token);
  if (first.kind === 'committed') return first.receipt;
  const now = deps.now();
  const prepared = await prepareStep(deps, first.job, first.items, params);
  if (!prepared.ok) {
    const result = await deps.driver.transaction(async (tx) => {
      const held = await holdLease(tx, params.owner, params.job_id, params.token);
      if (held.kind === 'committed') return null;
      const reason = prepared.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
      await addJobUsage(tx, held.job.job_id, params.usage);
      return recordFailure(tx, held.job, { code: 'PROPOSAL_INVALID', reason }, now, deps.options);
    });
    throw new MemoryError('PROPOSAL_INVALID', `commit refused: ${prepared.issues.length} issue(s)`, {
      job_id: params.job_id,
      issues: prepared.issues,
      ...(result ? { state: result.state, next_retry_at: result.next_retry_at } : {}),
    });
  }
  return deps.driver.transaction(async (tx) => {
    const held = await holdLease(tx, params.owner, params.job_id, params.token);
    if (held.kind === 'committed') return held.receipt;
    await tx.lockOwner(organizeLock(params.owner));
    const state = await ownerState(tx, params.owner, true);
    // invariant: a step applies only to the timeline it was planned on, fenced by token and version (test:
    // test/organize/jobs.test.ts "refuses a step planned on a timeline that changed since").
    if (!state || state.version !== held.job.step_version) {
      throw new MemoryError('LEASE_LOST', `the timeline of job ${params.job_id} changed since the claim`, {
        job_id: params.job_id,
      });
    }
    const receipt = await applyStep(tx, held.job, prepared.value, params.token, deps, now);
    await addJobUsage(tx, held.job.job_id, params.usage);
    await requeueJob(tx, held.job.job_id, { nextAttemptAt: now, stepDone: true });
    return receipt;
  });
}

export async function failJob(deps: EndLeaseDeps, params: FailParams): Promise<FailResult> {
  const now = deps.now();
  return deps.driver.transaction(async (tx) => {
    const held = await holdLease(tx, params.owner, params.job_id, params.token);
    if (held.kind === 'committed') {
      throw new MemoryError('LEASE_LOST', `the step of job ${params.job_id} was committed by this token`, {
        job_id: params.job_id,
      });
    }
    await addJobUsage(tx, held.job.job_id, params.usage);
    const failure = { code: params.code ?? 'WORKER_FAILED', reason: params.reason };
    return recordFailure(tx, held.job, failure, now, deps.options);
  });
}

/** Gives a lease back without counting a failure (a worker stopping); a stale token changes nothing. */
export async function releaseJob(
  deps: EndLeaseDeps,
  owner: string,
  jobId: string,
  token: string,
): Promise<boolean> {
  return deps.driver.transaction(async (tx) => {
    const job = await getJob(tx, owner, jobId, true);
    if (!job || job.state !== 'leased' || job.lease_token !== token) return false;
    await requeueJob(tx, jobId, { nextAttemptAt: deps.now() });
    return true;
  });
}
