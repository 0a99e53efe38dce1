// memory.forget: memories and objects deleted for real, with their index documents, vectors, cached
// answers and inbox quotes; with events, the raw events they cite and everything left without a source.
// On SQLite the freed bytes are zeroed (secure_delete), the full-text index merged so no old segment keeps
// a term, and the WAL checkpointed so it keeps no copy.
import { MemoryError } from '../errors.js';
import type { Driver, Queryable } from '../storage/driver.js';
import { row, str } from '../storage/rows.js';
import type { KnowledgeContext } from './facts.js';
import { dropCachedAnswers, failPendingRequests } from './forget-caches.js';
import { chunksOf } from './forget-docs.js';
import { citedEvents, deleteEvents } from './forget-events.js';
import { forgetFromRings } from './forget-ring.js';
import { deleteMemories, deleteObjects, type Forgotten } from './forget-rows.js';
import type { ForgetParams, ForgetResult } from './forget-schema.js';
import { inList } from './objects.js';

/** Called after a forget commits (the object projection files are deleted there). */
export type AfterForget = (owner: string, ids: { memories: string[]; objects: string[] }) => Promise<void>;

export interface ForgetDeps {
  driver: Driver;
  now(): number;
  timeZone: string;
  afterForget?: AfterForget | undefined;
  /**
   * Inside the forget's transaction, after events were deleted: the layers above knowledge (organize's
   * timeline nodes) drop what they derived from them. Answers how many rows it rewrote.
   */
  onEventsForgotten?: ((tx: Queryable, owner: string, seqs: number[]) => Promise<number>) | undefined;
}

const IdRow = row({ id: str });

async function existing(tx: Queryable, owner: string, table: string, col: string, ids: readonly string[]) {
  const found = new Set<string>();
  for (const part of chunksOf(ids))
    for (const r of await tx.all(
      IdRow,
      `SELECT ${col} AS id FROM ${table} WHERE owner = ? AND ${col} IN ${inList(part)}`,
      [owner, ...part],
    ))
      found.add(r.id);
  return found;
}

/**
 * invariant: a forgotten item leaves no byte in the data directory: no row, index term, vector, cached
 * answer, working-memory term or file (test: src/knowledge/forget-bytes.test.ts).
 */
export async function forgetItems(deps: ForgetDeps, p: ForgetParams): Promise<ForgetResult> {
  const ctx: KnowledgeContext = { timeZone: deps.timeZone, now: deps.now() };
  const ids = [...new Set(p.ids)];
  const out = await deps.driver.transaction(async (tx) => {
    await tx.lockOwner(p.owner);
    const memories = await existing(tx, p.owner, 'memories', 'memory_id', ids);
    const objects = await existing(tx, p.owner, 'objects', 'object_id', ids);
    // Another owner's id is unknown here like any other: nothing says it exists.
    const unknown = ids.filter((id) => !memories.has(id) && !objects.has(id));
    if (unknown.length > 0)
      throw new MemoryError('NOT_FOUND', `nothing to forget with id ${unknown.join(', ')}`, { ids: unknown });
    const forgotten: Forgotten = {
      memories: new Set(),
      objects: new Set(),
      events: new Set(),
      seqs: new Set(),
      texts: new Set(),
      relations: 0,
      index: 0,
      reindexed: 0,
      vectors: 0,
    };
    const events = p.with_events ? await citedEvents(tx, p.owner, [...memories], [...objects]) : [];
    await deleteMemories(tx, p.owner, [...memories], forgotten, ctx);
    await deleteObjects(tx, p.owner, [...objects], forgotten);
    if (events.length > 0) await deleteEvents(tx, p.owner, events, forgotten, ctx);
    const nodes = (await deps.onEventsForgotten?.(tx, p.owner, [...forgotten.seqs])) ?? 0;
    const cached = await dropCachedAnswers(
      tx,
      p.owner,
      [...forgotten.memories, ...forgotten.objects, ...forgotten.events],
      [...forgotten.texts],
    );
    await failPendingRequests(tx, p.owner, ctx.now);
    const segments = await forgetFromRings(tx, p.owner, forgotten.texts);
    // Merges the index's segments: a deleted document's terms are gone from the file, not only marked.
    if (tx.dialect === 'sqlite') await tx.run(`INSERT INTO search_fts (search_fts) VALUES ('optimize')`);
    return { forgotten, cached, nodes, segments };
  });
  if (deps.driver.dialect === 'sqlite') await deps.driver.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const { forgotten: f, cached, nodes, segments } = out;
  const result: ForgetResult = {
    forgotten: { memories: [...f.memories], objects: [...f.objects], events: [...f.events] },
    counts: {
      memories: f.memories.size,
      objects: f.objects.size,
      events: f.events.size,
      relations: f.relations,
      index_entries: f.index,
      reindexed: f.reindexed,
      vectors: f.vectors,
      cached_answers: cached.answers,
      inbox_items: cached.inbox,
      nodes_rewritten: nodes,
      working_segments: segments,
    },
  };
  await deps.afterForget?.(p.owner, {
    memories: result.forgotten.memories,
    objects: result.forgotten.objects,
  });
  return result;
}
