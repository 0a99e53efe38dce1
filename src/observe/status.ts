// What the observation queue looks like: per-owner queues, leases, failing batches and token usage.
import { z } from 'zod';
import type { Driver, Queryable } from '../storage/driver.js';
import { bool, int, row, str } from '../storage/rows.js';
import type { ObservationStatus } from './schema.js';
import { FAILURES_KEPT, scanNewEvents } from './store.js';

const OwnerStatusRow = row({ owner: str, publish_seq: int, pending: int, memories: int });
const CountsRow = row({ owner: str, state: z.enum(['queued', 'leased', 'published']), failed: bool, n: int });
const LeasedRow = row({ batch_id: str, owner: str, lease_expires_at: int, claims: int });
const FailedRow = row({ batch_id: str, owner: str, failures: int, next_attempt_at: int });
const FailureRow = row({ at: int, code: str, reason: str });
const UsageRow = row({ batches: int, model_calls: int, prompt_tokens: int, completion_tokens: int });

const ownerStatus = (db: Queryable, owner?: string) =>
  db.all(
    OwnerStatusRow,
    `SELECT o.owner, o.publish_seq,
            (SELECT count(*) FROM events e WHERE e.owner = o.owner AND e.seq >= o.next_seq) AS pending,
            (SELECT count(*) FROM memories m WHERE m.owner = o.owner) AS memories
       FROM observation_owners o ${owner === undefined ? '' : 'WHERE o.owner = ?'} ORDER BY o.owner`,
    owner === undefined ? [] : [owner],
  );

const batchCounts = (db: Queryable, owner?: string) =>
  db.all(
    CountsRow,
    `SELECT owner, state, failures > 0 AS failed, count(*) AS n FROM observation_batches
      ${owner === undefined ? '' : 'WHERE owner = ?'} GROUP BY owner, state, failed`,
    owner === undefined ? [] : [owner],
  );

const ownerFilter = (owner?: string) => (owner === undefined ? '' : 'AND owner = ?');

const leasedBatches = (db: Queryable, owner?: string, limit = 100) =>
  db.all(
    LeasedRow,
    `SELECT batch_id, owner, lease_expires_at, claims FROM observation_batches
      WHERE state = 'leased' ${ownerFilter(owner)} ORDER BY lease_expires_at LIMIT ?`,
    owner === undefined ? [limit] : [owner, limit],
  );

const failedBatches = (db: Queryable, owner?: string, limit = 100) =>
  db.all(
    FailedRow,
    `SELECT batch_id, owner, failures, next_attempt_at FROM observation_batches
      WHERE state != 'published' AND failures > 0 ${ownerFilter(owner)} ORDER BY next_attempt_at LIMIT ?`,
    owner === undefined ? [limit] : [owner, limit],
  );

const lastFailures = (db: Queryable, batchId: string) =>
  db.all(
    FailureRow,
    'SELECT at, code, reason FROM observation_failures WHERE batch_id = ? ORDER BY failure_id DESC LIMIT ?',
    [batchId, FAILURES_KEPT],
  );

const usageTotals = (db: Queryable, owner?: string) =>
  db.one(
    UsageRow,
    `SELECT count(*) AS batches, coalesce(sum(model_calls), 0) AS model_calls,
            coalesce(sum(prompt_tokens), 0) AS prompt_tokens, coalesce(sum(completion_tokens), 0) AS completion_tokens
       FROM observation_batches WHERE model_calls > 0 ${ownerFilter(owner)}`,
    owner === undefined ? [] : [owner],
  );

const iso = (ms: number): string => new Date(ms).toISOString();

export async function observationStatus(
  driver: Driver,
  now: number,
  owner?: string,
): Promise<ObservationStatus> {
  // Registering owners of new events is bookkeeping only: no batch is closed by looking.
  await driver.transaction((tx) => scanNewEvents(tx));
  const counts = await batchCounts(driver, owner);
  const owners = (await ownerStatus(driver, owner)).map((o) => {
    const batches = { queued: 0, leased: 0, failed: 0, published: 0 };
    for (const c of counts.filter((c) => c.owner === o.owner)) {
      const key = c.state === 'queued' && c.failed ? 'failed' : c.state;
      batches[key] += c.n;
    }
    return {
      owner: o.owner,
      pending_events: o.pending,
      publish_seq: o.publish_seq,
      memories: o.memories,
      batches,
    };
  });
  const failed = [];
  for (const b of await failedBatches(driver, owner)) {
    failed.push({
      batch_id: b.batch_id,
      owner: b.owner,
      failures: b.failures,
      next_retry_at: iso(b.next_attempt_at),
      last_failures: (await lastFailures(driver, b.batch_id)).map((f) => ({ ...f, at: iso(f.at) })),
    });
  }
  const usage = (await usageTotals(driver, owner)) ?? {
    batches: 0,
    model_calls: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
  };
  return {
    now: iso(now),
    owners,
    leased: (await leasedBatches(driver, owner)).map((b) => ({
      batch_id: b.batch_id,
      owner: b.owner,
      expires_at: iso(b.lease_expires_at),
      claims: b.claims,
    })),
    failed,
    usage,
  };
}
