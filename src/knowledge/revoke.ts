// Revocation: a memory of any kind, or an object, is withdrawn with a reason and never reaches recall again;
// its text and sources stay (memory.forget deletes). A revoked fact takes no part in its key any more, so the
// version it had superseded is current again.
import { MemoryError } from '../errors.js';
import type { Driver } from '../storage/driver.js';
import { settleKey, type KnowledgeContext } from './facts.js';
import { isRevoked } from './lifecycle.js';
import { getState, writeState } from './memory-store.js';
import { revokeObject } from './revoke-object.js';

export interface Revoked {
  id: string;
  kind: string;
  status: 'revoked';
  reason: string;
  revoked_at: string;
}

/**
 * Revokes memory or object `id` of `owner` (an object answers kind `object`); revoking again keeps the first
 * reason. NOT_FOUND when neither exists.
 */
export async function revokeMemory(
  db: Driver,
  owner: string,
  id: string,
  reason: string,
  ctx: KnowledgeContext,
): Promise<Revoked> {
  return db.transaction(async (tx) => {
    await tx.lockOwner(owner);
    const row = await getState(tx, owner, id);
    if (!row) {
      const object = await revokeObject(tx, owner, id, reason, ctx.now);
      if (!object) throw new MemoryError('NOT_FOUND', `no memory or object ${id}`, { id });
      return answer(object.id, 'object', object.reason, object.at);
    }
    if (isRevoked(row)) {
      const at = row.updated_at ?? ctx.now;
      return answer(row.memory_id, row.kind, row.revoked_reason ?? reason, at);
    }
    await writeState(tx, owner, id, {
      lifecycle: 'revoked',
      status: 'revoked',
      revoked_reason: reason,
      updated_at: ctx.now,
    });
    if (row.kind === 'fact' && row.norm_subject !== null && row.norm_predicate !== null) {
      await settleKey(tx, owner, row.norm_subject, row.norm_predicate, ctx);
    }
    return answer(row.memory_id, row.kind, reason, ctx.now);
  });
}

const answer = (id: string, kind: string, reason: string, at: number): Revoked => ({
  id,
  kind,
  status: 'revoked',
  reason,
  revoked_at: new Date(at).toISOString(),
});
