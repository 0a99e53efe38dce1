// Observe: events → batches → leased proposals → validated, atomically published memories.
import type { Driver } from '../storage/driver.js';
import type { Redactor } from '../text/redact.js';
import { claimNext, closeReadyBatches, describeClaim } from './claim.js';
import { commitBatch, failBatch, releaseBatch, type OwnerCheck, type RetryPolicy } from './commit.js';
import type { ClaimedBatch, ClaimParams, ObservationStatus, Receipt, Usage } from './schema.js';
import type { SelectLimits } from './select.js';
import { observationStatus } from './status.js';

export { getMemoriesByIds, type MemoryWithSources } from './store.js';
export {
  MEMORY_KINDS,
  MEMORY_STATUSES,
  type BatchEvent,
  type ClaimedBatch,
  type MemoryKind,
  type ObservationStatus,
  type Proposal,
  type ProposalInput,
  type Receipt,
  type Usage,
} from './schema.js';

export interface ObserveOptions extends SelectLimits, RetryPolicy {
  leaseMs: number;
}

/** Defaults from ARCHITECTURE.md §8. */
export const OBSERVE_DEFAULTS: Readonly<ObserveOptions> = Object.freeze({
  maxEvents: 20,
  maxEventBytes: 2_400,
  maxBatchBytes: 12_000,
  maxWaitMs: 30_000,
  leaseMs: 120_000,
  retryBaseMs: 10_000,
  retryCapMs: 600_000,
});

export interface ObservationDeps {
  driver: Driver;
  /** Redacts what proposals publish, as ingest redacts events. */
  redactor: Redactor;
  now: () => number;
  options?: Partial<ObserveOptions>;
  /** MNEMO_TIMEZONE: facts are promoted by evidence on two workdays of this zone. */
  timeZone?: string | undefined;
}

/** The functions mnemo's own worker and the public methods share. */
export interface Observation {
  /** Closes ready batches, then leases the one waiting longest; null when none is claimable. */
  claim(params?: ClaimParams): Promise<ClaimedBatch | null>;
  /** `allowed`: whether the caller may act for the batch's owner; otherwise the batch is not found. */
  commit(
    params: { batch_id: string; token: string; proposal: unknown; usage?: Usage | undefined },
    allowed?: OwnerCheck,
  ): Promise<Receipt>;
  fail(
    params: {
      batch_id: string;
      token: string;
      reason: string;
      code?: string | undefined;
      usage?: Usage | undefined;
    },
    allowed?: OwnerCheck,
  ): Promise<{ batch_id: string; failures: number; next_retry_at: string }>;
  release(batchId: string, token: string, usage?: Usage): Promise<boolean>;
  status(owner?: string): Promise<ObservationStatus>;
}

export function createObservation(deps: ObservationDeps): Observation {
  const options: ObserveOptions = { ...OBSERVE_DEFAULTS, ...deps.options };
  const endDeps = {
    driver: deps.driver,
    redactor: deps.redactor,
    now: deps.now,
    policy: options,
    timeZone: deps.timeZone,
  };
  return {
    async claim(params = {}) {
      const now = deps.now();
      const lease = await deps.driver.transaction(async (tx) => {
        await closeReadyBatches(tx, now, options, params.owner);
        return claimNext(tx, now, { owner: params.owner, leaseMs: params.lease_ms ?? options.leaseMs });
      });
      return lease ? describeClaim(deps.driver, lease) : null;
    },
    commit: (params, allowed) => commitBatch(endDeps, params, allowed),
    fail: (params, allowed) => failBatch(endDeps, params, allowed),
    release: (batchId, token, usage) => releaseBatch(endDeps, batchId, token, usage),
    status: (owner) => observationStatus(deps.driver, deps.now(), owner),
  };
}
