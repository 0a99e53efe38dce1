// One conversation through mnemo (public API) and the baseline: ingest in order, ask each query when due.
import { performance } from 'node:perf_hooks';
import type { IngestResult, LocalClient, RecallItem, RecallResult } from '../src/index.js';
import { createBaseline, type Baseline } from './baseline.js';
import type { EmbeddingModel } from './embed.js';
import type { ObserveAll } from './observe.js';
import { rankSessions } from './metrics.js';
import type { DatasetModule, EvalConversation, EvalQuery, EvalUnit, QueryScores } from './types.js';

/** The API takes at most this many events per ingest call. */
const INGEST_BATCH = 1000;
const MAX_QUERY_CHARS = 4000;
const RECALL_WAIT_MS = 60_000;

export interface SystemAnswer {
  ranked: string[];
  ranked_sessions?: string[];
  /** Evidence units found in the top k, per k. */
  hits: Record<string, number>;
  scores: QueryScores;
  latency_ms: number;
  /** The engine's own timing (mnemo only). */
  took_ms?: number;
  /** Query terms the engine searched with and dropped (mnemo only). */
  terms?: { selected: string[]; dropped: string[] };
  /** Rank and per-channel ranks of each evidence unit returned (mnemo only). */
  evidence_channels?: Record<string, { rank: number; channels: Record<string, number> }>;
  /** Per-channel ranks of every ranked item, in order (mnemo only, with `--embed`). */
  ranked_channels?: RecallItem['channels'][];
  /** Channels that could not answer; the items came from the others (mnemo with vectors only). */
  degraded?: NonNullable<RecallResult['degraded']>;
  /** The top item's fused score and match (mnemo only; null: nothing was returned). */
  top?: { score: number; match: number | null } | null;
}

export interface QueryRecord {
  id: string;
  owner: string;
  group: string;
  in_overall: boolean;
  /** Nothing answers the question (zh-agent abstention): its top hit is reported apart. */
  abstention?: boolean;
  question: string;
  at: string;
  evidence: string[];
  evidence_sessions?: string[];
  /** mnemo without the vector channel: what a run without `--embed` measures. */
  mnemo: SystemAnswer;
  /** `--embed`: the same store and question with the vector channel on, and the model of its vectors. */
  mnemo_vectors?: SystemAnswer;
  embedding?: EmbeddingModel;
  baseline?: SystemAnswer;
}

export interface IngestTotals {
  accepted: number;
  duplicates: number;
  rejected: { event_id: string | null; code: string; message: string }[];
}

export interface RunConversationOptions {
  module: DatasetModule;
  ks: readonly number[];
  limit: number;
  baseline: boolean;
  ingest: IngestTotals;
  onQuery?: (record: QueryRecord) => void;
  /** `--embed`: a client of the same store with the vector channel on, and what embeds the store. */
  vectors?: { client: LocalClient; drain: (label: string) => Promise<EmbeddingModel> };
  /** Observes what was ingested before each question (objects and aliases for the alias channel). */
  observe?: ObserveAll;
}

const toEvent = (u: EvalUnit) => ({
  event_id: u.id,
  session_id: u.session,
  kind: u.kind ?? (u.role === 'user' ? 'user_message' : 'agent_reply'),
  role: u.role,
  ...(u.taskId !== undefined ? { task_id: u.taskId } : {}),
  at: u.at,
  text: u.text,
});

export async function runConversation(
  client: LocalClient,
  conversation: EvalConversation,
  options: RunConversationOptions,
): Promise<QueryRecord[]> {
  const { module, ks, limit } = options;
  const baseline: Baseline | undefined = options.baseline
    ? (module.baseline?.create() ??
      createBaseline(module.baselineTokenize ? { tokenize: module.baselineTokenize } : {}))
    : undefined;
  const units = conversation.units;
  const sessionOf = new Map(units.map((u) => [u.id, u.session]));
  let stored = 0;

  const storeUpTo = async (count: number) => {
    while (stored < count) {
      const batch = units.slice(stored, Math.min(count, stored + INGEST_BATCH));
      const result = await client.call<IngestResult>('memory.events.ingest', {
        owner: conversation.owner,
        events: batch.map(toEvent),
      });
      options.ingest.accepted += result.accepted;
      options.ingest.duplicates += result.duplicates;
      options.ingest.rejected.push(...result.rejected);
      baseline?.add(batch);
      stored += batch.length;
    }
  };

  const answer = (query: EvalQuery, ranked: string[], latencyMs: number, tookMs?: number): SystemAnswer => {
    const evidence = new Set(query.evidence);
    const hits: Record<string, number> = {};
    for (const k of ks) hits[k] = ranked.slice(0, k).filter((id) => evidence.has(id)).length;
    return {
      ranked,
      ...(query.evidenceSessions ? { ranked_sessions: rankSessions(ranked, sessionOf) } : {}),
      hits,
      scores: module.score(query, ranked, ks, conversation),
      latency_ms: Number(latencyMs.toFixed(3)),
      ...(tookMs !== undefined ? { took_ms: tookMs } : {}),
    };
  };

  const ask = async (target: LocalClient, query: EvalQuery, text: string): Promise<SystemAnswer> => {
    const started = performance.now();
    const result = await target.call<RecallResult>('memory.recall', {
      owner: conversation.owner,
      query: text,
      limit,
      at: query.at,
      // The gold is events: memories and objects the observer derived would only crowd them out.
      kinds: ['event'],
      // Quality is measured, not the wait budget: a loaded machine must not turn answers into `pending`.
      wait_ms: RECALL_WAIT_MS,
    });
    const latencyMs = performance.now() - started;
    const evidenceChannels: NonNullable<SystemAnswer['evidence_channels']> = {};
    result.items.forEach((item, i) => {
      if (query.evidence.includes(item.id))
        evidenceChannels[item.id] = { rank: i + 1, channels: item.channels };
    });
    return {
      ...answer(
        query,
        result.items.map((item) => item.id),
        latencyMs,
        result.took_ms,
      ),
      terms: result.terms,
      top: result.items[0] ? { score: result.items[0].score, match: result.items[0].match ?? null } : null,
      evidence_channels: evidenceChannels,
      ...(options.vectors ? { ranked_channels: result.items.map((item) => item.channels) } : {}),
      ...(result.degraded ? { degraded: result.degraded } : {}),
    };
  };

  const queries = [...conversation.queries].sort(
    (a, b) => (a.visibleUnits ?? units.length) - (b.visibleUnits ?? units.length),
  );
  const records: QueryRecord[] = [];
  for (const query of queries) {
    await storeUpTo(Math.min(query.visibleUnits ?? units.length, units.length));
    await options.observe?.(conversation.owner);
    const embedding = await options.vectors?.drain(conversation.owner);
    const text = query.text.slice(0, MAX_QUERY_CHARS);
    const mnemo = await ask(client, query, text);
    const withVectors = options.vectors ? await ask(options.vectors.client, query, text) : undefined;

    let base: SystemAnswer | undefined;
    if (baseline) {
      const t0 = performance.now();
      const ranked = baseline.search(text, limit);
      base = answer(query, ranked, performance.now() - t0);
    }
    const record: QueryRecord = {
      id: query.id,
      owner: conversation.owner,
      group: query.group,
      in_overall: query.inOverall,
      ...(query.abstention ? { abstention: true } : {}),
      question: query.text,
      at: new Date(query.at).toISOString(),
      evidence: query.evidence,
      ...(query.evidenceSessions ? { evidence_sessions: query.evidenceSessions } : {}),
      mnemo,
      ...(withVectors ? { mnemo_vectors: withVectors, embedding } : {}),
      ...(base ? { baseline: base } : {}),
    };
    records.push(record);
    options.onQuery?.(record);
  }
  return records;
}
