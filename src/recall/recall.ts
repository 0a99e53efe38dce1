// Recall: channels over the one index (BM25 on selected terms, exact ids, recency) fused by RRF.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { getEventsByIds } from '../ingest/store.js';
import { getMemoriesByIds, type MemoryWithSources } from '../observe/observe.js';
import { fuseRankings, isIdTerm, searchBm25, searchIds, selectTerms, type DocHit } from '../search/search.js';
import type { Queryable } from '../storage/driver.js';
import { queryTerms } from '../text/tokenize.js';
import type { RecallItem, RecallParams, RecallResult } from './schema.js';

export const RECALL_TEXT_LIMIT = 1_200;

export interface RecallOptions {
  candidates?: number;
  weights?: { bm25: number; id: number; recency: number };
}

const DEFAULT_WEIGHTS = { bm25: 1, id: 1, recency: 0.2 };

/** Raw identifiers typed in the query (kept before tokenizing, so case and punctuation match stored ids). */
const rawIdsOf = (query: string): string[] =>
  [
    ...new Set(
      query
        .split(/[\s,;，；。、()（）"'“”?？!！]+/u)
        .filter((w) => /\d/.test(w) && (w.length >= 3 || /\p{L}/u.test(w))),
    ),
  ].slice(0, 16);

export async function recallMemory(db: Queryable, params: RecallParams, options: RecallOptions = {}) {
  const started = performance.now();
  const weights = options.weights ?? DEFAULT_WEIGHTS;
  const candidates = options.candidates ?? Math.max(50, params.limit * 5);
  const filters = {
    owner: params.owner,
    kinds: params.kinds,
    from: params.from,
    to: params.to,
    sessionId: params.session_id,
    taskId: params.task_id,
  };
  const terms = queryTerms(params.query);
  const selection = await selectTerms(db, terms);
  const bm25 = await searchBm25(
    db,
    selection.selected.map((t) => t.term),
    filters,
    { limit: candidates },
  );
  const ids = await searchIds(db, terms.filter(isIdTerm), rawIdsOf(params.query), filters, candidates);

  const byDoc = new Map<number, DocHit>();
  for (const hit of [...bm25, ...ids]) if (!byDoc.has(hit.docId)) byDoc.set(hit.docId, hit);
  const recency = [...byDoc.values()].sort((a, b) => b.at - a.at).map((h) => h.docId);
  const fused = fuseRankings([
    { channel: 'bm25', weight: weights.bm25, keys: bm25.map((h) => h.docId) },
    { channel: 'id', weight: weights.id, keys: ids.map((h) => h.docId) },
    { channel: 'recency', weight: weights.recency, keys: recency },
  ]).slice(0, params.limit);

  const hits = fused.map((f) => ({ fused: f, hit: byDoc.get(f.key) as DocHit }));
  const events = await getEventsByIds(
    db,
    params.owner,
    hits.filter((h) => h.hit.kind === 'event').map((h) => h.hit.ref),
  );
  const eventById = new Map(events.map((e) => [e.event_id, e]));
  const items: RecallItem[] = [];
  const memories = await getMemoriesByIds(
    db,
    params.owner,
    hits.filter((h) => h.hit.kind !== 'event').map((h) => h.hit.ref),
  );
  const memoryById = new Map(memories.map((m) => [m.memory_id, m]));
  for (const { fused: f, hit } of hits) {
    const memory = hit.kind === 'event' ? undefined : memoryById.get(hit.ref);
    if (memory) {
      if (memory.status !== 'revoked') items.push(memoryItem(memory, f.score, f.ranks));
      continue;
    }
    const event = hit.kind === 'event' ? eventById.get(hit.ref) : undefined;
    if (!event) continue;
    items.push({
      id: event.event_id,
      kind: 'event',
      text: event.text.slice(0, RECALL_TEXT_LIMIT),
      truncated: event.text.length > RECALL_TEXT_LIMIT,
      at: new Date(event.at).toISOString(),
      score: Number(f.score.toFixed(6)),
      source_refs: [event.event_id],
      channels: f.ranks,
      session_id: event.session_id,
      task_id: event.task_id,
    });
  }
  const result: RecallResult = {
    status: 'ready',
    request_id: randomUUID(),
    took_ms: Number((performance.now() - started).toFixed(2)),
    items,
    terms: {
      selected: selection.selected.map((t) => t.term),
      dropped: selection.dropped.map((t) => t.term),
    },
  };
  return result;
}

/** A memory hit: its source_refs are the cited event ids, expandable through memory.evidence.get. */
const memoryItem = (m: MemoryWithSources, score: number, channels: RecallItem['channels']): RecallItem => ({
  id: m.memory_id,
  kind: m.kind,
  text: m.text.slice(0, RECALL_TEXT_LIMIT),
  truncated: m.text.length > RECALL_TEXT_LIMIT,
  at: new Date(m.at).toISOString(),
  score: Number(score.toFixed(6)),
  source_refs: m.sources,
  status: m.status as NonNullable<RecallItem['status']>,
  channels,
  session_id: m.session_id,
  task_id: m.task_id,
});
