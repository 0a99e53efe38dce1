// Revoking an object: withdrawn with a reason, it keeps its rows (memory.forget deletes) and leaves the
// index, so no reader and no recall channel reaches it again.
import type { Queryable } from '../storage/driver.js';
import { nint, nstr, row, str } from '../storage/rows.js';
import { dropDocs } from './forget-docs.js';

const RevokedRow = row({ object_id: str, revoked_at: nint, revoked_reason: nstr });

export interface ObjectRevocation {
  id: string;
  reason: string;
  at: number;
}

/** Revokes object `id` of `owner` (the caller holds the owner); undefined when there is none. */
export async function revokeObject(
  tx: Queryable,
  owner: string,
  id: string,
  reason: string,
  now: number,
): Promise<ObjectRevocation | undefined> {
  const found = await tx.one(
    RevokedRow,
    'SELECT object_id, revoked_at, revoked_reason FROM objects WHERE owner = ? AND object_id = ?',
    [owner, id],
  );
  if (!found) return undefined;
  // Revoking again keeps the first reason and time.
  if (found.revoked_at !== null) return { id, reason: found.revoked_reason ?? reason, at: found.revoked_at };
  await tx.run('UPDATE objects SET revoked_at = ?, revoked_reason = ? WHERE owner = ? AND object_id = ?', [
    now,
    reason,
    owner,
    id,
  ]);
  await dropDocs(tx, owner, 'object', [id], { index: 0, reindexed: 0, vectors: 0 });
  return { id, reason, at: now };
}

/** Whether object `id` of `owner` is revoked (a write merging into it must not index it again). */
export async function isRevokedObject(db: Queryable, owner: string, id: string): Promise<boolean> {
  const found = await db.one(
    RevokedRow,
    'SELECT object_id, revoked_at, revoked_reason FROM objects WHERE owner = ? AND object_id = ?',
    [owner, id],
  );
  return found?.revoked_at !== null && found?.revoked_at !== undefined;
}
