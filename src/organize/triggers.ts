// The triggers, checked per owner by a tick: a token threshold of unorganised content, an hourly organize
// once the owner has been idle for an hour, a nightly deep review in the quiet window; and explicit requests.
import { workdayOf } from '../knowledge/workday.js';
import type { Driver, Queryable } from '../storage/driver.js';
import { newId, organizeLock } from './claim.js';
import { nightlyWorkday } from './nightly.js';
import type { OrganizeOptions } from './options.js';
import { overflowingLevel } from './plan.js';
import type { JobKind, JobTrigger, QueuedJob } from './schema-jobs.js';
import { insertJob, liveJob, noticeWaits, wakeJob } from './store-jobs.js';
import { activeNodes, countPendingArchive } from './store-nodes.js';
import {
  noteDeepWorkday,
  noteOrganizeQueued,
  ownerActivity,
  ownersToScan,
  ownerStates,
  scanOwner,
  type OwnerState,
} from './store-owners.js';

async function enqueue(
  tx: Queryable,
  job: { owner: string; kind: JobKind; trigger: JobTrigger; workday?: string },
  options: OrganizeOptions,
  now: number,
): Promise<QueuedJob | null> {
  const jobId = newId('oj');
  const inserted = await insertJob(tx, { ...job, jobId, batchLimit: options.nodesPerJob[job.kind] }, now);
  return inserted ? { job_id: jobId, ...job } : null;
}

/** Whether an organize run would find work: raw events past the recent window, a full level, the archive. */
async function hasWork(tx: Queryable, state: OwnerState, options: OrganizeOptions): Promise<boolean> {
  if (state.raw_tokens > options.keepRecentTokens) return true;
  if (overflowingLevel(await activeNodes(tx, state.owner), options.nodesPerLevel, 1).length > 0) return true;
  return (await countPendingArchive(tx, state.owner)) > 0;
}

/**
 * One owner's triggers. invariant: an automatic trigger queues nothing of a kind whose failure notice
 * waits for acknowledgement, and a failed job is never queued again automatically (test:
 * test/organize/triggers.test.ts "keeps a failed automatic job’s notice…").
 */
async function checkOwner(tx: Queryable, state: OwnerState, options: OrganizeOptions, now: number) {
  const queued: QueuedJob[] = [];
  const owner = state.owner;
  const add = (job: QueuedJob | null) => job && queued.push(job);
  if (state.raw_tokens > options.thresholdTokens && !(await noticeWaits(tx, owner, 'compact'))) {
    add(await enqueue(tx, { owner, kind: 'compact', trigger: 'threshold' }, options, now));
  }
  const activity = await ownerActivity(tx, owner);
  if (!activity) return queued;
  const idle = now - activity.ingested_at;
  const hourDue = state.organize_queued_at === null || now - state.organize_queued_at >= options.hourlyIdleMs;
  if (idle >= options.hourlyIdleMs && hourDue && !(await noticeWaits(tx, owner, 'organize'))) {
    if (await hasWork(tx, state, options)) {
      const job = await enqueue(tx, { owner, kind: 'organize', trigger: 'hourly' }, options, now);
      if (job) await noteOrganizeQueued(tx, owner, now);
      add(job);
    }
  }
  const workday = nightlyWorkday(now, options.timeZone, options.quietWindow);
  // Reviewed once per workday, for owners that wrote something during it or since.
  const due =
    workday !== null &&
    (state.deep_workday ?? '') < workday &&
    workdayOf(activity.ingested_at, options.timeZone) >= workday;
  if (due && idle >= options.nightlyIdleMs) {
    if (!(await noticeWaits(tx, owner, 'deep'))) {
      await noteDeepWorkday(tx, owner, workday);
      add(
        await enqueue(tx, { owner, kind: 'deep', trigger: 'nightly', workday: workday ?? '' }, options, now),
      );
    }
  }
  return queued;
}

/**
 * Adds the tokens of new events to the raw counts (up to `scanLimit` events per owner); an owner another
 * process is scanning is passed by.
 */
export async function scanPending(driver: Driver, now: number, options: OrganizeOptions, owner?: string) {
  const scan = { limit: options.scanLimit, thresholdTokens: options.thresholdTokens, now };
  for (const row of await ownersToScan(driver, owner)) {
    await driver.transaction(async (tx) => {
      if (await tx.tryLockOwner(organizeLock(row.owner))) await scanOwner(tx, row.owner, scan);
    });
  }
}

/** Scans new events, then checks every owner's triggers (or one owner's). */
export async function tickTriggers(
  driver: Driver,
  now: number,
  options: OrganizeOptions,
  owner?: string,
): Promise<{ owners: number; queued: QueuedJob[] }> {
  await scanPending(driver, now, options, owner);
  const queued: QueuedJob[] = [];
  const states = await ownerStates(driver, owner);
  for (const state of states) {
    queued.push(...(await driver.transaction((tx) => checkOwner(tx, state, options, now))));
  }
  return { owners: states.length, queued };
}

/** An explicit request: queues a job, or wakes the live one of that kind (a retry in backoff runs now). */
export async function requestJob(
  driver: Driver,
  request: { owner: string; kind: JobKind; keepRecentTokens?: number | undefined },
  options: OrganizeOptions,
  now: number,
) {
  return driver.transaction(async (tx) => {
    const jobId = newId('oj');
    const job = {
      jobId,
      owner: request.owner,
      kind: request.kind,
      trigger: 'request' as const,
      batchLimit: options.nodesPerJob[request.kind],
      keepTokens: request.keepRecentTokens,
    };
    if (await insertJob(tx, job, now))
      return { job_id: jobId, kind: request.kind, state: 'queued' as const, created: true };
    const live = await liveJob(tx, request.owner, request.kind);
    if (!live) throw new Error('a live organize job vanished while it was being requested');
    await wakeJob(tx, live.job_id, now, request.keepRecentTokens);
    return { job_id: live.job_id, kind: live.kind, state: live.state, created: false };
  });
}
