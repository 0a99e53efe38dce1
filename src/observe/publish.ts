// Publishing a valid proposal: memories, sources, index rows, consumed marks and the receipt, in one transaction.
import {
  DEFAULT_TIME_ZONE,
  mergeDuplicate,
  recordOutcomes,
  settleMemory,
  writeObjects,
  type OutcomeEvent,
} from '../knowledge/knowledge.js';
import { indexDocuments, type IndexDoc } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { tokenize } from '../text/tokenize.js';
import { newId } from './ids.js';
import type { MemoryKind, MemoryStatus, Receipt, Usage } from './schema.js';
import {
  addUsage,
  consumeCompleted,
  insertMemory,
  markPublished,
  nextPublishSeq,
  setDisposition,
  type ItemRow,
  type MemoryRow,
} from './store.js';
import type { ValidMemory, ValidProposal } from './validate.js';
import type { ValidObject } from './validate-objects.js';

/**
 * The status a memory starts with (see ARCHITECTURE.md §2 and §8):
 * - episode: active — an extractive report of what happened, every part cited;
 * - preference: active — validation guarantees the user's own verbatim words back it;
 * - fact: candidate — promoted by independent evidence on two workdays (knowledge/facts.ts);
 * - procedure: candidate — never an instruction until confirmed.
 */
export function initialStatus(kind: MemoryKind): MemoryStatus {
  return kind === 'episode' || kind === 'preference' ? 'active' : 'candidate';
}

interface Prepared {
  row: Omit<MemoryRow, 'publish_seq'>;
  sources: string[];
  doc: IndexDoc;
}

const joinText = (parts: ReadonlyArray<string | undefined>): string =>
  parts.filter((p): p is string => p !== undefined && p.length > 0).join('\n');

const commonOf = (values: ReadonlyArray<string | null>): string | null => {
  const first = values[0] ?? null;
  return values.every((v) => v === first) ? first : null;
};

/** A memory's index document: its text and structured parts in the body, its cues apart. */
export function memoryIndexDoc(
  row: Omit<MemoryRow, 'status' | 'fact_kind' | 'quotes' | 'batch_id' | 'publish_seq' | 'created_at'>,
): IndexDoc {
  const procedure = row.procedure
    ? (JSON.parse(row.procedure) as { preconditions?: string[]; steps?: string[]; checks?: string[] })
    : {};
  const cues = row.cues ? (JSON.parse(row.cues) as string[]) : [];
  const body = joinText([
    row.text,
    row.subject ?? undefined,
    row.predicate ?? undefined,
    row.object ?? undefined,
    ...(procedure.preconditions ?? []),
    ...(procedure.steps ?? []),
    ...(procedure.checks ?? []),
  ]);
  return {
    owner: row.owner,
    kind: row.kind,
    ref: row.memory_id,
    at: row.at,
    sessionId: row.session_id,
    taskId: row.task_id,
    body: tokenize(body),
    cues: tokenize(cues.join('\n')),
  };
}

/** Rows and index documents for the memories of a batch (pure but for fresh ids). */
export function prepareMemories(
  owner: string,
  batchId: string,
  items: readonly ItemRow[],
  memories: readonly ValidMemory[],
  now: number,
): Prepared[] {
  const byId = new Map(items.map((i) => [i.event_id, i]));
  return memories.map((m) => {
    const events = m.sources.flatMap((id) => byId.get(id) ?? []);
    const procedure =
      m.kind === 'procedure'
        ? { preconditions: m.preconditions ?? [], steps: m.steps ?? [], checks: m.checks ?? [], risk: m.risk }
        : null;
    const row: Omit<MemoryRow, 'publish_seq'> = {
      memory_id: newId('mem'),
      owner,
      kind: m.kind,
      status: initialStatus(m.kind),
      text: m.text,
      fact_kind: m.kind === 'fact' ? (m.fact_kind ?? null) : null,
      subject: m.subject ?? null,
      predicate: m.predicate ?? null,
      object: m.object ?? null,
      procedure: procedure ? JSON.stringify(procedure) : null,
      quotes: m.quotes && m.quotes.length > 0 ? JSON.stringify(m.quotes) : null,
      cues: m.cues && m.cues.length > 0 ? JSON.stringify(m.cues) : null,
      at: Math.max(...events.map((e) => e.at)),
      session_id: commonOf(events.map((e) => e.session_id)),
      task_id: commonOf(events.map((e) => e.task_id)),
      batch_id: batchId,
      created_at: now,
    };
    const doc = memoryIndexDoc(row);
    return { row, sources: m.sources, doc };
  });
}

/** An object's sources, each with the first quote taken from it. */
const objectSources = (o: ValidObject) =>
  o.sources.map((event_id) => ({
    event_id,
    quote: o.quotes?.find((q) => q.event_id === event_id)?.text ?? null,
  }));

/**
 * Writes everything a commit publishes; the caller runs it inside one transaction. A memory that restates
 * one already stored adds its sources there, and the receipt names that memory.
 * invariant: memories, objects, relations, sources, index rows, consumed marks and the receipt land together
 * or not at all
 * (test: "a failure mid-publish leaves nothing behind").
 */
export async function writePublication(
  tx: Queryable,
  batch: { batchId: string; owner: string; events?: readonly OutcomeEvent[] },
  prepared: readonly Prepared[],
  proposal: ValidProposal,
  usage: Usage | undefined,
  now: number,
  timeZone = DEFAULT_TIME_ZONE,
): Promise<Receipt> {
  await tx.lockOwner(batch.owner);
  const publishSeq = await nextPublishSeq(tx, batch.owner);
  const knowledge = { timeZone, now };
  const memoryIds: string[] = [];
  const fresh: IndexDoc[] = [];
  for (const p of prepared) {
    const row = { ...p.row, publish_seq: publishSeq };
    const existing = await mergeDuplicate(tx, row, p.sources, knowledge);
    if (existing === null) {
      await insertMemory(tx, row, p.sources);
      await settleMemory(tx, row, knowledge);
      fresh.push(p.doc);
    }
    memoryIds.push(existing ?? row.memory_id);
  }
  await indexDocuments(tx, fresh);
  const objects = proposal.objects ?? [];
  const relations = proposal.relations ?? [];
  // Observation adds to what is known: a body it proposes is appended to an existing object's.
  const written =
    objects.length + relations.length === 0
      ? undefined
      : await writeObjects(
          tx,
          batch.owner,
          objects.map((o) => ({ ...o, sources: objectSources(o) })),
          relations,
          { now, body: 'append' },
        );
  // Results that follow a known procedure raise or lower its confidence.
  await recordOutcomes(tx, batch.owner, batch.events ?? [], knowledge);
  for (const [position, d] of proposal.dispositions) {
    await setDisposition(tx, batch.batchId, position, d.action, d.reason);
  }
  await consumeCompleted(tx, batch.owner, batch.batchId, now);
  await addUsage(tx, batch.batchId, usage);
  const receipt: Receipt = {
    batch_id: batch.batchId,
    publish_seq: publishSeq,
    memory_ids: memoryIds,
    ...(written && written.objects.length > 0 ? { object_ids: written.objects.map((o) => o.id) } : {}),
  };
  await markPublished(tx, receipt, now);
  return receipt;
}
