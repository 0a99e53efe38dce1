// Facts over time, applied where observation publishes a memory (inside its transaction): a restatement
// adds its sources to the memory it restates; a new fact takes its place among the versions of its key
// (supersede.ts) and is promoted by evidence on two workdays (evidence.ts).
import type { Queryable } from '../storage/driver.js';
import { newKnowledgeId } from './ids.js';
import { promoted } from './evidence.js';
import { coarseStatus, isRevoked, originOf } from './lifecycle.js';
import {
  addSources,
  factVersions,
  resolutionsOf,
  sameText,
  sourcesOf,
  writeState,
  type StateRow,
} from './memory-store.js';
import { normName, normText } from './names.js';
import { settleProcedure } from './skill-state.js';
import { placeVersions, type Version } from './supersede.js';

export interface KnowledgeContext {
  /** MNEMO_TIMEZONE: the zone of workdays. */
  timeZone: string;
  now: number;
}

/** The parts of a memory about to be published that decide where it belongs. */
export interface PublishedMemory {
  memory_id: string;
  owner: string;
  kind: string;
  text: string;
  subject: string | null;
  predicate: string | null;
  object: string | null;
  /** The time of its newest source event: its valid_from. */
  at: number;
}

interface Norms {
  norm_text: string;
  norm_subject: string | null;
  norm_predicate: string | null;
  norm_object: string | null;
}

export const normsOf = (m: Pick<PublishedMemory, 'text' | 'subject' | 'predicate' | 'object'>): Norms => ({
  norm_text: normText(m.text),
  norm_subject: m.subject === null ? null : normName(m.subject),
  norm_predicate: m.predicate === null ? null : normName(m.predicate),
  norm_object: m.object === null ? null : normName(m.object),
});

const factKey = (n: Norms): { subject: string; predicate: string; object: string } | null =>
  n.norm_subject !== null && n.norm_predicate !== null && n.norm_object !== null
    ? { subject: n.norm_subject, predicate: n.norm_predicate, object: n.norm_object }
    : null;

/** The memory `m` restates, if any: same subject, predicate and value for a fact; same text otherwise. */
async function restated(tx: Queryable, m: PublishedMemory, norms: Norms): Promise<StateRow | undefined> {
  const key = m.kind === 'fact' ? factKey(norms) : null;
  if (!key) return (await sameText(tx, m.owner, m.kind, norms.norm_text)).at(-1);
  const versions = (await factVersions(tx, m.owner, key.subject, key.predicate)).filter((v) => !isRevoked(v));
  const latest = versions.filter((v) => v.norm_object === key.object).at(-1);
  if (!latest) return undefined;
  // Said again after another value was stated: a new version ("Word, then PDF, then Word again").
  const from = latest.valid_from ?? latest.at;
  const changed = versions.some(
    (v) => v.norm_object !== key.object && (v.valid_from ?? v.at) > from && (v.valid_from ?? v.at) <= m.at,
  );
  return changed ? undefined : latest;
}

/**
 * Before a memory is stored: when it restates an existing one, that memory cites its sources instead and
 * its id is answered; otherwise null and the caller stores the memory, then calls settleMemory.
 * invariant: a restated memory is never stored twice (test: src/knowledge/facts.test.ts "duplicates").
 */
export async function mergeDuplicate(
  tx: Queryable,
  m: PublishedMemory,
  sources: readonly string[],
  ctx: KnowledgeContext,
): Promise<string | null> {
  const norms = normsOf(m);
  const target = await restated(tx, m, norms);
  if (!target) return null;
  await addSources(tx, m.owner, target.memory_id, sources);
  // The user restating an agent's fact raises its origin.
  const cited = (await sourcesOf(tx, m.owner, [target.memory_id])).get(target.memory_id) ?? [];
  await writeState(tx, m.owner, target.memory_id, {
    origin: originOf(cited.map((s) => s.role)),
    updated_at: ctx.now,
  });
  if (target.kind === 'fact' && target.norm_subject !== null && target.norm_predicate !== null) {
    await settleKey(tx, m.owner, target.norm_subject, target.norm_predicate, ctx);
  }
  // Seen again, perhaps in another session: its stage may move on.
  if (target.kind === 'procedure') await settleProcedure(tx, m.owner, target.memory_id, ctx);
  return target.memory_id;
}

/** After a new memory is stored: its normal forms, origin and validity; a fact's key is settled. */
export async function settleMemory(tx: Queryable, m: PublishedMemory, ctx: KnowledgeContext): Promise<void> {
  const norms = normsOf(m);
  const sources = (await sourcesOf(tx, m.owner, [m.memory_id])).get(m.memory_id) ?? [];
  await writeState(tx, m.owner, m.memory_id, {
    ...norms,
    origin: originOf(sources.map((s) => s.role)),
    valid_from: m.at,
    updated_at: ctx.now,
  });
  const key = factKey(norms);
  if (m.kind === 'fact' && key) await settleKey(tx, m.owner, key.subject, key.predicate, ctx);
  if (m.kind === 'procedure') await settleProcedure(tx, m.owner, m.memory_id, ctx);
}

const wasActive = (r: StateRow): boolean =>
  r.lifecycle === 'active' || (r.lifecycle === null && r.status === 'active');

/**
 * Places every version of a fact key again (supersession, conflict sets, promotion) and writes what
 * changed. invariant: supersession is decided by time alone: the same versions, sources and resolutions
 * give the same states in any order of observation (test: src/knowledge/facts.test.ts "is decided by
 * time, not by the order of observation").
 */
export async function settleKey(
  tx: Queryable,
  owner: string,
  normSubject: string,
  normPredicate: string,
  ctx: KnowledgeContext,
): Promise<void> {
  const rows = await factVersions(tx, owner, normSubject, normPredicate);
  const sources = await sourcesOf(
    tx,
    owner,
    rows.map((r) => r.memory_id),
  );
  const conflictIds = [...new Set(rows.flatMap((r) => (r.conflict_id === null ? [] : [r.conflict_id])))];
  const resolutions = await resolutionsOf(tx, owner, conflictIds);
  const versions: Version[] = rows.map((r) => {
    const cited = sources.get(r.memory_id) ?? [];
    return {
      id: r.memory_id,
      validFrom: r.valid_from ?? r.at,
      validTo: r.valid_to,
      origin: r.origin,
      sources: cited.map((s) => s.event_id),
      lifecycle: r.lifecycle,
      status: r.status,
      conflictId: r.conflict_id,
      promoted: wasActive(r) || promoted(cited, ctx.timeZone),
    };
  });
  const placed = placeVersions(versions, resolutions, () => newKnowledgeId('cf'));
  for (const r of rows) {
    const placement = placed.get(r.memory_id);
    if (!placement) continue;
    // An archived fact keeps out of its track while it would be current; closed, it is history like any.
    const archived = r.archived_at !== null && ['active', 'candidate'].includes(placement.lifecycle);
    const p = archived ? { ...placement, lifecycle: 'deprecated' as const } : placement;
    const status = coarseStatus(p.lifecycle);
    if (
      r.lifecycle === p.lifecycle &&
      r.status === status &&
      r.valid_to === p.validTo &&
      r.conflict_id === p.conflictId
    )
      continue;
    await writeState(tx, owner, r.memory_id, {
      lifecycle: p.lifecycle,
      status,
      valid_to: p.validTo,
      conflict_id: p.conflictId,
      updated_at: ctx.now,
    });
  }
}
