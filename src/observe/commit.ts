// Ending a lease: commit (validate, then publish), fail (back off) or release (shutdown, no penalty).
import { MemoryError } from '../errors.js';
import type { Driver, Queryable } from '../storage/driver.js';
import { prepareMemories, writePublication } from './publish.js';
import { redactProposal } from './redact-proposal.js';
import type { Redactor } from '../text/redact.js';
import type { Receipt, Usage } from './schema.js';
import { addUsage, batchItems, getBatch, insertFailure, requeueBatch, type BatchRow } from './store.js';
import { validateProposal, type ProposalIssue } from './validate.js';
import { unknownObjectIssues } from './validate-objects.js';

export interface RetryPolicy {
  retryBaseMs: number;
  retryCapMs: number;
}

/** First retry after the base delay, doubling per failure up to the cap. */
export const retryDelayMs = (failures: number, policy: RetryPolicy): number =>
  Math.min(policy.retryCapMs, policy.retryBaseMs * 2 ** Math.max(0, failures - 1));

type Held = { kind: 'held'; batch: BatchRow } | { kind: 'published'; receipt: Receipt };

/** Whether the caller may act for an owner. */
export type OwnerCheck = (owner: string) => boolean;
const anyOwner: OwnerCheck = () => true;

/**
 * The batch as seen by the holder of `token`.
 * invariant: only the current token may end a lease; a published batch answers its committing token with
 * the first receipt (test: "a retried commit with the same token returns the first receipt and publishes nothing new").
 */
async function holdLease(db: Queryable, batchId: string, token: string, allowed: OwnerCheck): Promise<Held> {
  const batch = await getBatch(db, batchId);
  if (!batch || !allowed(batch.owner))
    throw new MemoryError('BATCH_NOT_FOUND', `no observation batch ${batchId}`, { batch_id: batchId });
  if (batch.state === 'published' && batch.lease_token === token && batch.receipt !== null) {
    return { kind: 'published', receipt: JSON.parse(batch.receipt) as Receipt };
  }
  if (batch.state !== 'leased' || batch.lease_token !== token) {
    throw new MemoryError(
      'LEASE_LOST',
      batch.state === 'published'
        ? `batch ${batchId} was published under another lease`
        : `the lease on batch ${batchId} is no longer held by this token`,
      { batch_id: batchId, state: batch.state },
    );
  }
  return { kind: 'held', batch };
}

async function recordFailure(
  tx: Queryable,
  batch: BatchRow,
  failure: { code: string; reason: string; usage?: Usage | undefined },
  now: number,
  policy: RetryPolicy,
): Promise<number> {
  const nextAttemptAt = now + retryDelayMs(batch.failures + 1, policy);
  await insertFailure(tx, batch.batch_id, now, failure.code, failure.reason.slice(0, 2000));
  await requeueBatch(tx, batch.batch_id, nextAttemptAt, true);
  await addUsage(tx, batch.batch_id, failure.usage);
  return nextAttemptAt;
}

export interface EndLeaseDeps {
  driver: Driver;
  redactor: Redactor;
  now: () => number;
  policy: RetryPolicy;
  /** The zone of workdays, for the promotion of facts. */
  timeZone?: string | undefined;
}

const summarize = (issues: readonly ProposalIssue[]): string =>
  issues
    .slice(0, 10)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ') + (issues.length > 10 ? `; … ${issues.length - 10} more` : '');

export async function commitBatch(
  deps: EndLeaseDeps,
  params: { batch_id: string; token: string; proposal: unknown; usage?: Usage | undefined },
  allowed: OwnerCheck = anyOwner,
): Promise<Receipt> {
  const first = await holdLease(deps.driver, params.batch_id, params.token, allowed);
  if (first.kind === 'published') return first.receipt;
  const items = await batchItems(deps.driver, params.batch_id);
  const now = deps.now();
  const refuse = async (issues: readonly ProposalIssue[]): Promise<never> => {
    const nextAttemptAt = await deps.driver.transaction(async (tx) => {
      const held = await holdLease(tx, params.batch_id, params.token, allowed);
      if (held.kind === 'published') return null;
      const failure = { code: 'PROPOSAL_INVALID', reason: summarize(issues), usage: params.usage };
      return recordFailure(tx, held.batch, failure, now, deps.policy);
    });
    throw new MemoryError(
      'PROPOSAL_INVALID',
      `proposal refused: ${issues.length} issue(s); the batch will be retried`,
      {
        batch_id: params.batch_id,
        issues,
        ...(nextAttemptAt === null ? {} : { next_retry_at: new Date(nextAttemptAt).toISOString() }),
      },
    );
  };
  const checked = validateProposal(items, params.proposal);
  if (!checked.ok) return refuse(checked.issues);
  const owner = first.batch.owner;
  const unknown = await unknownObjectIssues(deps.driver, owner, {
    objects: checked.value.objects ?? [],
    relations: checked.value.relations ?? [],
  });
  if (unknown.length > 0) return refuse(unknown);
  const { refused, ...proposal } = await redactProposal(deps.redactor, checked.value);
  if (refused.length > 0) return refuse(refused);
  const prepared = prepareMemories(owner, params.batch_id, items, proposal.memories, now);
  return deps.driver.transaction(async (tx) => {
    const held = await holdLease(tx, params.batch_id, params.token, allowed);
    if (held.kind === 'published') return held.receipt;
    const batch = { batchId: params.batch_id, owner, events: items };
    return writePublication(tx, batch, prepared, proposal, params.usage, now, deps.timeZone);
  });
}

export async function failBatch(
  deps: EndLeaseDeps,
  params: {
    batch_id: string;
    token: string;
    reason: string;
    code?: string | undefined;
    usage?: Usage | undefined;
  },
  allowed: OwnerCheck = anyOwner,
): Promise<{ batch_id: string; failures: number; next_retry_at: string }> {
  const now = deps.now();
  return deps.driver.transaction(async (tx) => {
    const held = await holdLease(tx, params.batch_id, params.token, allowed);
    if (held.kind === 'published') {
      throw new MemoryError('LEASE_LOST', `batch ${params.batch_id} is already published`, {
        batch_id: params.batch_id,
        state: 'published',
      });
    }
    const failure = { code: params.code ?? 'WORKER_FAILED', reason: params.reason, usage: params.usage };
    const nextAttemptAt = await recordFailure(tx, held.batch, failure, now, deps.policy);
    return {
      batch_id: params.batch_id,
      failures: held.batch.failures + 1,
      next_retry_at: new Date(nextAttemptAt).toISOString(),
    };
  });
}

/** Gives a lease back without counting a failure (a worker stopping); a stale token changes nothing. */
export async function releaseBatch(
  deps: EndLeaseDeps,
  batchId: string,
  token: string,
  usage?: Usage,
): Promise<boolean> {
  return deps.driver.transaction(async (tx) => {
    const batch = await getBatch(tx, batchId);
    if (!batch || batch.state !== 'leased' || batch.lease_token !== token) return false;
    await requeueBatch(tx, batchId, deps.now(), false);
    await addUsage(tx, batchId, usage);
    return true;
  });
}
