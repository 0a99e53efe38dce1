// A host's or a person's direct write of a memory (knowledge/direct.ts), published like a batch of its own:
// a published batch row with its receipt, the memory and its sources, its index document, its knowledge
// state.
import { settleMemory, type DirectMemory, type KnowledgeContext } from '../knowledge/knowledge.js';
import { indexDocuments } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { newId } from './ids.js';
import { initialStatus, memoryIndexDoc } from './publish.js';
import { ensureOwner, insertMemory, insertWriteBatch, nextPublishSeq, type MemoryRow } from './store.js';

/** Stores `m` inside the caller's transaction (which holds the owner's lock); answers the memory's id. */
export async function publishDirect(tx: Queryable, m: DirectMemory, ctx: KnowledgeContext): Promise<string> {
  await ensureOwner(tx, m.owner);
  const publishSeq = await nextPublishSeq(tx, m.owner);
  const row: MemoryRow = {
    memory_id: newId('mem'),
    owner: m.owner,
    kind: m.kind,
    status: initialStatus(m.kind),
    text: m.text,
    fact_kind: m.fact_kind,
    subject: m.subject,
    predicate: null,
    object: null,
    procedure: null,
    quotes: m.quotes && m.quotes.length > 0 ? JSON.stringify(m.quotes) : null,
    cues: null,
    at: m.at,
    session_id: null,
    task_id: null,
    batch_id: newId('obs'),
    publish_seq: publishSeq,
    created_at: ctx.now,
  };
  const receipt = { batch_id: row.batch_id, publish_seq: publishSeq, memory_ids: [row.memory_id] };
  await insertWriteBatch(tx, receipt, m.owner, ctx.now);
  await insertMemory(tx, row, m.sources);
  await settleMemory(tx, row, ctx);
  await indexDocuments(tx, [memoryIndexDoc(row)]);
  return row.memory_id;
}
