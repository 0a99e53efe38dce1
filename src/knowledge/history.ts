// The versions of a fact key in order, and a person's resolution of a conflict set.
import { MemoryError } from '../errors.js';
import type { Driver, Queryable } from '../storage/driver.js';
import { settleKey, type KnowledgeContext } from './facts.js';
import { isRevoked, reportedStatus, type Lifecycle } from './lifecycle.js';
import { conflictMembers, factVersions, saveResolution, sourcesOf } from './memory-store.js';
import { normName } from './names.js';

export interface FactVersion {
  id: string;
  text: string;
  value: string;
  status: Lifecycle;
  /** Open and valid now: not superseded, retired or revoked. */
  current: boolean;
  valid_from: string;
  valid_to: string | null;
  origin: string | null;
  conflict_id: string | null;
  sources: string[];
}

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

/** Every version of (subject, predicate), compared by their normal forms, oldest first. */
export async function factHistory(
  db: Queryable,
  owner: string,
  subject: string,
  predicate: string,
): Promise<FactVersion[]> {
  const rows = await factVersions(db, owner, normName(subject), normName(predicate));
  const sources = await sourcesOf(
    db,
    owner,
    rows.map((r) => r.memory_id),
  );
  const from = (r: (typeof rows)[number]): number => r.valid_from ?? r.at;
  return rows
    .sort((a, b) => from(a) - from(b) || (a.memory_id < b.memory_id ? -1 : 1))
    .map((r) => {
      const status = reportedStatus(r);
      return {
        id: r.memory_id,
        text: r.text,
        value: r.object ?? '',
        status,
        current: r.valid_to === null && (status === 'candidate' || status === 'active'),
        valid_from: new Date(from(r)).toISOString(),
        valid_to: iso(r.valid_to),
        origin: r.origin,
        conflict_id: r.conflict_id,
        sources: (sources.get(r.memory_id) ?? []).map((s) => s.event_id),
      };
    });
}

export interface Resolution {
  conflict_id: string;
  kept: string;
  superseded: string[];
}

/** Makes `keep` the current version of its conflict set and the set's other versions superseded. */
export async function resolveConflict(
  db: Driver,
  owner: string,
  conflictId: string,
  keep: string,
  ctx: KnowledgeContext,
): Promise<Resolution> {
  return db.transaction(async (tx) => {
    await tx.lockOwner(owner);
    const members = (await conflictMembers(tx, owner, conflictId)).filter((m) => !isRevoked(m));
    if (members.length === 0) {
      throw new MemoryError('NOT_FOUND', `no conflict set ${conflictId}`, { conflict_id: conflictId });
    }
    const kept = members.find((m) => m.memory_id === keep);
    if (!kept || kept.norm_subject === null || kept.norm_predicate === null) {
      throw new MemoryError('INVALID_PARAMS', `${keep} is not a fact of conflict set ${conflictId}`, {
        issues: [{ path: 'keep', message: `not a member of conflict set ${conflictId}` }],
      });
    }
    await saveResolution(tx, owner, conflictId, keep, ctx.now);
    await settleKey(tx, owner, kept.norm_subject, kept.norm_predicate, ctx);
    const after = await conflictMembers(tx, owner, conflictId);
    return {
      conflict_id: conflictId,
      kept: keep,
      superseded: after.filter((m) => m.memory_id !== keep && m.valid_to !== null).map((m) => m.memory_id),
    };
  });
}
