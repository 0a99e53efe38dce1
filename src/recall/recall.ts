// Recall: channels over the one index (BM25 with priors, the time the query names, exact ids, time
// order when asked, nearest vectors when configured) fused by RRF, then read back as events and memories.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { VectorSearch } from '../embed/embed.js';
import type { Queryable } from '../storage/driver.js';
import { hanCharacters, tokenize } from '../text/tokenize.js';
import { loadDictionary, type Dictionary } from './dictionary.js';
import { itemOf, pickVisible, textOf } from './items.js';
import { planQuery } from './query.js';
import { RANK_DEFAULTS, rankDocuments, type ChannelWeights } from './rank.js';
import { RECALL_KINDS, type RecallItem, type RecallParams, type RecallResult } from './schema.js';

export { loadDictionary } from './dictionary.js';

export { RECALL_TEXT_LIMIT } from './items.js';
/** Items whose `match` is computed (reading their text again costs about 0.1 ms each). */
export const MATCH_ITEMS = 10;

export interface RecallOptions {
  candidates?: number;
  weights?: Partial<ChannelWeights>;
  /** Calendar of relative time expressions ("yesterday", "上周三"); default UTC. */
  timeZone?: string;
  /** Reference time when the query gives none (`params.at`); default Date.now. */
  now?: () => number;
  /** The vector channel; absent: no embedding call and no vector query at all. */
  vectors?: VectorSearch;
  /** The bilingual dictionary for cross-lingual terms; default CC-CEDICT, `null`: no translation. */
  dictionary?: Dictionary | null;
}

export async function recallMemory(db: Queryable, params: RecallParams, options: RecallOptions = {}) {
  const started = performance.now();
  const candidates = options.candidates ?? Math.max(50, params.limit * 5);
  const at = params.at ?? (options.now ?? Date.now)();
  const dictionary = options.dictionary === undefined ? loadDictionary() : options.dictionary;
  const plan = planQuery(params.query, {
    at,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(dictionary ? { dictionary } : {}),
  });
  const filters = {
    owner: params.owner,
    kinds: params.kinds ?? RECALL_KINDS,
    from: params.from,
    to: params.to,
    sessionId: params.session_id,
    taskId: params.task_id,
  };
  const settings = { ...RANK_DEFAULTS, weights: { ...RANK_DEFAULTS.weights, ...options.weights } };
  // invariant: without a provider, recall makes no embedding call and no vector query (test: "creates no
  // vector table, calls no server and recalls exactly as before"). Started first: the query's embedding
  // is fetched while the other channels run.
  const vector = options.vectors?.search(params.query, filters, candidates);
  const { fused, docs, selection, termWeights, via } = await rankDocuments(
    db,
    params.query,
    plan,
    filters,
    candidates,
    settings,
    vector?.then((outcome) => outcome.hits),
    { includeArchived: params.include_archived },
  );
  const degraded = (await vector)?.degraded;

  const items: RecallItem[] = [];
  for (const picked of await pickVisible(db, params, fused, docs)) {
    const item = itemOf(picked, via.get(picked.fused.key));
    if (!item) continue;
    items.push(items.length < MATCH_ITEMS ? { ...item, match: matchOf(textOf(picked), termWeights) } : item);
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
    ...(degraded ? { degraded: [degraded] } : {}),
  };
  return result;
}

/**
 * How much of the query a text holds: the share of the selected terms' weight found in it (0–1). An answer
 * holds most of the question's rare words; when even the top item holds little, nothing may answer it.
 */
export function matchOf(text: string, weights: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const w of weights.values()) total += w;
  if (total <= 0) return 0;
  const tokens = tokenize(text);
  const held = new Set([...tokens, ...hanCharacters(tokens)]);
  let found = 0;
  for (const [term, w] of weights) if (held.has(term)) found += w;
  return Number((found / total).toFixed(4));
}
