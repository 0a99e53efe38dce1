// Closing batches from pending events, and leasing the next claimable batch with a fresh token.
import type { Queryable } from '../storage/driver.js';
import { newId, newToken } from './ids.js';
import { planBatch, type SelectLimits } from './select.js';
import type { BatchEvent, ClaimedBatch } from './schema.js';
import {
  batchItems,
  countReady,
  insertBatch,
  insertFailure,
  leaseBatch,
  markFiltered,
  nextClaimable,
  ownerCursor,
  ownersWithPending,
  pendingEvents,
  scanNewEvents,
  setCursor,
  type ItemRow,
} from './store.js';

const WINDOW = 100;
/** Ready batches kept per owner: a large backlog is cut a few batches at a time, never in one long transaction. */
export const READY_BUFFER = 4;

/** Closes the batches that are ready now (up to the buffer), for one owner or all. Returns how many. */
export async function closeReadyBatches(
  tx: Queryable,
  now: number,
  limits: SelectLimits,
  owner?: string,
): Promise<number> {
  await scanNewEvents(tx);
  let closed = 0;
  for (const pending of await ownersWithPending(tx, owner)) {
    // invariant: one process at a time cuts an owner's batches; the others pass it by; the cursor is read
    // once the owner is held, so a cut committed meanwhile is never cut again (test:
    // src/storage/concurrency.test.ts "(d) never cuts the same events twice…").
    if (!(await tx.tryLockOwner(`observe:${pending.owner}`))) continue;
    const row = tx.dialect === 'sqlite' ? pending : await ownerCursor(tx, pending.owner);
    if (!row) continue;
    let cursor = { seq: row.next_seq, offset: row.next_offset };
    let window = WINDOW;
    let ready = await countReady(tx, row.owner);
    while (ready < READY_BUFFER) {
      const { events, more } = await pendingEvents(tx, row.owner, cursor, window);
      if (events.length === 0) break;
      const plan = planBatch(events, cursor, now, limits, more);
      if (plan.needMore) {
        window *= 2;
        continue;
      }
      await markFiltered(tx, row.owner, plan.filtered, now);
      if (plan.batch) {
        await insertBatch(tx, { batchId: newId('ob'), owner: row.owner, ...plan.batch }, now);
        closed++;
        ready++;
      }
      const moved = plan.cursor.seq !== cursor.seq || plan.cursor.offset !== cursor.offset;
      if (moved) await setCursor(tx, row.owner, plan.cursor);
      cursor = plan.cursor;
      window = WINDOW;
      if (!plan.batch && !(moved && more)) break;
    }
  }
  return closed;
}

/** The events an observer sees: one entry per distinct text, merged duplicates listing every event id. */
export function batchEvents(items: readonly ItemRow[]): BatchEvent[] {
  const out: BatchEvent[] = [];
  const byPosition = new Map<number, BatchEvent>();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  for (const item of items) {
    const twin = item.same_as === null ? undefined : byPosition.get(item.same_as);
    if (twin) {
      twin.count = (twin.count ?? 1) + 1;
      twin.event_ids = [...(twin.event_ids ?? [twin.event_id]), item.event_id];
      byPosition.set(item.position, twin);
      continue;
    }
    const whole = item.byte_start === 0 && item.byte_end === item.byte_length;
    const event: BatchEvent = {
      event_id: item.event_id,
      kind: item.kind as BatchEvent['kind'],
      role: item.role as BatchEvent['role'],
      at: new Date(item.at).toISOString(),
      text: whole
        ? item.text
        : decoder.decode(encoder.encode(item.text).subarray(item.byte_start, item.byte_end)),
      session_id: item.session_id,
      task_id: item.task_id,
      ...(whole
        ? {}
        : { part: { byte_start: item.byte_start, byte_end: item.byte_end, byte_length: item.byte_length } }),
    };
    byPosition.set(item.position, event);
    out.push(event);
  }
  return out;
}

export interface ClaimOptions {
  owner?: string;
  leaseMs: number;
}

/**
 * Leases the claimable batch that has waited longest, with a fresh token.
 * invariant: a batch has at most one live token; claiming an expired lease replaces the token, so the
 * old holder's commit is refused (test: "an expired lease is claimed again and the old token gets LEASE_LOST").
 */
export async function claimNext(
  tx: Queryable,
  now: number,
  options: ClaimOptions,
): Promise<{ batchId: string; owner: string; token: string; expiresAt: number } | null> {
  const batch = await nextClaimable(tx, now, options.owner);
  if (!batch) return null;
  if (batch.state === 'leased') {
    await insertFailure(
      tx,
      batch.batch_id,
      now,
      'LEASE_EXPIRED',
      'the lease expired before a commit; claimed again',
    );
  }
  const token = newToken();
  const expiresAt = now + options.leaseMs;
  await leaseBatch(tx, batch.batch_id, token, expiresAt);
  return { batchId: batch.batch_id, owner: batch.owner, token, expiresAt };
}

export async function describeClaim(
  db: Queryable,
  lease: { batchId: string; owner: string; token: string; expiresAt: number },
): Promise<ClaimedBatch> {
  return {
    batch_id: lease.batchId,
    owner: lease.owner,
    token: lease.token,
    expires_at: new Date(lease.expiresAt).toISOString(),
    events: batchEvents(await batchItems(db, lease.batchId)),
  };
}
