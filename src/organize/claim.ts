// Leasing the next claimable job with a fresh token and the step it asks for; jobs with nothing left end here.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../storage/driver.js';
import type { OrganizeOptions } from './options.js';
import { planStep, type PlannedStep } from './plan.js';
import type { ClaimedJob } from './schema-jobs.js';
import { finishJob, insertFailure, leaseJob, nextClaimable, ownerBusy, type JobRow } from './store-jobs.js';
import { ownerState, scanOwner } from './store-owners.js';

export const newId = (prefix: string): string => `${prefix}_${randomBytes(9).toString('base64url')}`;
const newToken = (): string => randomBytes(16).toString('hex');

/** The lock that serialises one owner's organize writes (scans, claims, commits) across processes. */
export const organizeLock = (owner: string): string => `organize:${owner}`;

/** Jobs looked at per claim before it gives up (those of owners busy elsewhere are passed by). */
const CANDIDATES = 16;

export interface ClaimOptions {
  owner?: string | undefined;
  leaseMs: number;
  /** Jobs this claim found with nothing left and marked done (the caller runs their epilogue). */
  finished?: JobRow[];
}

/**
 * Leases the job waiting longest whose owner has no other live lease, with a fresh token and its next step.
 * invariant: a job has at most one live token, and an owner at most one leased job: claiming an expired
 * lease replaces the token, so the old holder's commit is refused (test: test/organize/jobs.test.ts
 * "an expired lease is claimed again and commits once").
 */
export async function claimJob(
  tx: Queryable,
  now: number,
  claim: ClaimOptions,
  options: OrganizeOptions,
): Promise<ClaimedJob | null> {
  const skip: number[] = [];
  for (let n = 0; n < CANDIDATES; n++) {
    const job = await nextClaimable(tx, now, { owner: claim.owner, skip });
    if (!job) return null;
    skip.push(job.seq);
    if (!(await tx.tryLockOwner(organizeLock(job.owner)))) continue;
    if (await ownerBusy(tx, job.owner, job.job_id, now)) continue;
    if (job.state === 'leased') {
      const expired = { at: now, code: 'LEASE_EXPIRED', batchLimit: job.batch_limit };
      await insertFailure(tx, job, {
        ...expired,
        reason: 'the lease expired before a commit; claimed again',
      });
    }
    await scanOwner(tx, job.owner, {
      limit: options.scanLimit,
      thresholdTokens: options.thresholdTokens,
      now,
    });
    const state = await ownerState(tx, job.owner);
    const planned = state ? await planStep(tx, job, state, options) : null;
    if (!state || !planned) {
      await finishJob(tx, job.job_id, { state: 'done', now, notice: false });
      claim.finished?.push(job);
      continue;
    }
    const token = newToken();
    const expiresAt = now + claim.leaseMs;
    const lease = { token, expiresAt, type: planned.step.type, items: JSON.stringify(planned.items) };
    await leaseJob(tx, job.job_id, { ...lease, version: state.version });
    return describe(job, planned, token, expiresAt);
  }
  return null;
}

const describe = (job: JobRow, planned: PlannedStep, token: string, expiresAt: number): ClaimedJob => ({
  job_id: job.job_id,
  owner: job.owner,
  kind: job.kind,
  trigger: job.trigger,
  token,
  expires_at: new Date(expiresAt).toISOString(),
  step_no: job.steps,
  batch_limit: job.batch_limit,
  failures: job.failures,
  step: planned.step,
});
