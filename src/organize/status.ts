// memory.chain.status: per owner the timeline's size and readiness, the job queue with retries and the last
// five failures, token usage, capacity, and the core-document conflicts.
import type { Driver, Queryable } from '../storage/driver.js';
import { conflictView } from './core.js';
import { formatWindow, type OrganizeOptions } from './options.js';
import type { ChainStatus } from './schema-chain.js';
import type { Failure } from './schema-jobs.js';
import { coreConflicts } from './store-core.js';
import { countEventsAfter } from './store-events.js';
import { failuresOf, queueCounts, visibleJobs, type FailureRow } from './store-jobs.js';
import { countPendingArchive, levelCounts } from './store-nodes.js';
import { ownerActivity, ownerStates, type OwnerState } from './store-owners.js';
import { scanPending } from './triggers.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const failureView = (f: FailureRow): Failure => ({
  at: new Date(f.at).toISOString(),
  code: f.code,
  reason: f.reason,
  batch_limit: f.batch_limit,
});

async function ownerView(db: Queryable, state: OwnerState) {
  const levels = await levelCounts(db, state.owner);
  const activity = await ownerActivity(db, state.owner);
  const unscanned = activity ? await countEventsAfter(db, state.owner, state.scanned_seq) : 0;
  return {
    owner: state.owner,
    ready: state.synced_at !== null,
    raw_tokens: state.raw_tokens,
    raw_events: state.raw_events,
    unscanned_events: unscanned,
    covered_events: Math.max(0, (activity?.events ?? 0) - state.raw_events - unscanned),
    timeline_tokens: state.raw_tokens + levels.reduce((sum, l) => sum + l.tokens, 0),
    levels: levels.map(({ level, active, nodes }) => ({ level, active, nodes })),
    archive_pending: await countPendingArchive(db, state.owner),
    deep_workday: state.deep_workday,
  };
}

/** The status; new events are scanned first (bookkeeping only: their tokens join the raw counts). */
export async function chainStatus(
  db: Driver,
  options: OrganizeOptions,
  now: number,
  owner?: string,
): Promise<Omit<ChainStatus, 'organizer' | 'deferring_to_clients'>> {
  await scanPending(db, now, options, owner);
  const owners = [];
  for (const state of await ownerStates(db, owner)) owners.push(await ownerView(db, state));
  const jobs = await visibleJobs(db, owner);
  const failures = await failuresOf(
    db,
    jobs.map((j) => j.job_id),
  );
  const counts = await queueCounts(db, owner);
  return {
    owners,
    queue: {
      queued: counts?.queued ?? 0,
      leased: counts?.leased ?? 0,
      retrying: counts?.retrying ?? 0,
      failed: counts?.failed ?? 0,
      notices: counts?.notices ?? 0,
    },
    jobs: jobs.map((j) => ({
      job_id: j.job_id,
      owner: j.owner,
      kind: j.kind,
      trigger: j.trigger,
      state: j.state,
      workday: j.workday,
      steps: j.steps,
      batch_limit: j.batch_limit,
      failures: j.failures,
      next_retry_at: j.state === 'queued' && j.failures > 0 ? iso(j.next_attempt_at) : null,
      lease_expires_at: iso(j.lease_expires_at),
      notice: j.notice,
      last_failures: failures.filter((f) => f.job_id === j.job_id).map(failureView),
    })),
    usage: {
      model_calls: counts?.model_calls ?? 0,
      prompt_tokens: counts?.prompt_tokens ?? 0,
      completion_tokens: counts?.completion_tokens ?? 0,
    },
    capacity: {
      threshold_tokens: options.thresholdTokens,
      keep_recent_tokens: options.keepRecentTokens,
      nodes_per_level: options.nodesPerLevel,
      nodes_per_job: { ...options.nodesPerJob },
      lease_ms: options.leaseMs,
      max_failures: options.maxFailures,
      core_doc_chars: 2_400,
      quiet_window: formatWindow(options.quietWindow),
    },
    core_conflicts: (await coreConflicts(db, owner)).map(conflictView),
  };
}

export { failureView };
