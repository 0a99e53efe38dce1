// The eval harness: load a dataset, run it through a fresh temporary mnemo store and the baseline, write results.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EmbedConfig } from '../src/embed/embed.js';
import { createLocalClient, createMethodTable, openMemory } from '../src/index.js';
import { summarizeAbstention, type AbstentionSummary } from './abstention.js';
import { ratios, summarizeLatency, summarizeSystem, type Ratios, type SystemSummary } from './aggregate.js';
import { BASELINE_NAME } from './baseline.js';
import { dulemon } from './datasets/dulemon.js';
import { locomo } from './datasets/locomo.js';
import { longmemeval } from './datasets/longmemeval.js';
import { zhAgent } from './datasets/zh-agent.js';
import {
  createStoreEmbedder,
  summarizeEmbedding,
  VECTORS_NAME,
  type EmbeddingSummary,
  type StoreEmbedder,
} from './embed.js';
import { defaultOutDir, sharedDataFile } from './paths.js';
import { createObserveAll, type ObserveTotals } from './observe.js';
import { createEvalSchema, type DatabaseConfig, type EvalSchema } from './postgres-store.js';
import { silentProgress, type Progress } from './progress.js';
import { renderRecallPlot, renderReport } from './report.js';
import { runConversation, type IngestTotals, type QueryRecord } from './run-conversation.js';
import type { DatasetModule, DatasetName, Result, SkippedQuery } from './types.js';

export const DATASETS: Record<DatasetName, DatasetModule> = {
  locomo,
  longmemeval,
  dulemon,
  'zh-agent': zhAgent,
};
export const DEFAULT_KS = [1, 5, 10, 25];
/** Items asked of each recall call: the API's maximum, so that sessions can be ranked below the top k. */
export const RECALL_LIMIT = 50;

export interface EvalOptions {
  dataset: DatasetName;
  /** Default: the dataset's file in `../shared/data` beside the repository. */
  dataFile?: string;
  ks?: readonly number[];
  /** Default: `eval-out/<dataset>-<timestamp>`. */
  outDir?: string;
  /** Only the first N conversations (LoCoMo, DuLeMon) or questions (LongMemEval). */
  subset?: number;
  baseline?: boolean;
  /**
   * The embedding settings (`loadConfig().embed`). Set: each store is embedded before its questions, and
   * every question is asked with the vector channel ("mnemo+vectors") and without it ("mnemo").
   */
  embed?: EmbedConfig;
  /** false: ask without observing first (no objects, aliases or facts); default: the heuristic observer runs. */
  observe?: boolean;
  /** Set: the store is a fresh schema of this PostgreSQL database (dropped after the run), not SQLite. */
  database?: DatabaseConfig;
  progress?: Progress;
}

type MnemoSummary = SystemSummary & { took_ms: { p50: number; p95: number } };

export interface EvalMetrics {
  dataset: DatasetName;
  data: { file: string; sha256: string };
  created_at: string;
  options: {
    ks: number[];
    subset: number | null;
    baseline: boolean;
    embed: boolean;
    recall_limit: number;
    engine: 'sqlite' | 'postgres';
  };
  families: string[];
  group_label: string;
  /** Groups reported apart from the overall score. */
  apart: string[];
  counts: { conversations: number; units: number; queries: number; skipped: number };
  skipped: SkippedQuery[];
  notes: string[];
  ingest: { accepted: number; duplicates: number; rejected: number };
  /** What the heuristic observer published before the questions were asked. */
  observed: ObserveTotals;
  wall_ms: { total: number; ingest_and_recall: number };
  /** mnemo_vectors: with the vector channel (`--embed`); mnemo: without it, over the same stores. */
  systems: { mnemo: MnemoSummary; mnemo_vectors?: MnemoSummary; baseline?: SystemSummary };
  baseline_name?: string;
  /** mnemo ÷ baseline. */
  ratio?: Ratios;
  /** `--embed`: the model, what was embedded, and recalls whose vector channel did not answer. */
  embedding?: EmbeddingSummary;
  /** `--embed`: mnemo_vectors ÷ mnemo. */
  vectors_ratio?: Ratios;
  /** Questions nothing answers (zh-agent): mnemo's top match beside the answerable questions'. */
  abstention?: AbstentionSummary;
}

export interface EvalOutcome {
  outDir: string;
  metrics: EvalMetrics;
  files: { questions: string; metrics: string; report: string; plot: string };
}

type System = 'mnemo' | 'mnemo_vectors' | 'baseline';

const scored = (records: readonly QueryRecord[], system: System) =>
  records.flatMap((r) => {
    const answer = r[system];
    return answer
      ? [{ group: r.group, inOverall: r.in_overall, scores: answer.scores, latencyMs: answer.latency_ms }]
      : [];
  });

const summarizeMnemo = (records: readonly QueryRecord[], system: 'mnemo' | 'mnemo_vectors'): MnemoSummary => {
  const took = summarizeLatency(
    records.flatMap((r) => {
      const ms = r[system]?.took_ms;
      return ms !== undefined ? [ms] : [];
    }),
  );
  return { ...summarizeSystem(scored(records, system)), took_ms: { p50: took.p50, p95: took.p95 } };
};

export async function runEval(options: EvalOptions): Promise<Result<EvalOutcome>> {
  const started = performance.now();
  const module = DATASETS[options.dataset];
  const ks = [...new Set(options.ks ?? DEFAULT_KS)].sort((a, b) => a - b);
  const bad = ks.filter((k) => !Number.isInteger(k) || k < 1 || k > RECALL_LIMIT);
  if (ks.length === 0 || bad.length > 0)
    return { ok: false, issues: [`k must be integers 1..${RECALL_LIMIT}`] };
  const dataFile = options.dataFile ?? sharedDataFile(module.defaultFile);
  let raw: string;
  try {
    raw = await readFile(dataFile, 'utf8');
  } catch (error) {
    return {
      ok: false,
      issues: [`cannot read ${dataFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`],
    };
  }
  const loaded = module.load(raw, options.subset !== undefined ? { subset: options.subset } : {});
  if (!loaded.ok) return { ok: false, issues: loaded.issues.map((i) => `${basename(dataFile)}: ${i}`) };
  const dataset = loaded.value;
  const progress = options.progress ?? silentProgress;
  const withBaseline = options.baseline ?? false;

  const storeDir = mkdtempSync(join(tmpdir(), 'mnemo-eval-'));
  const ingest: IngestTotals = { accepted: 0, duplicates: 0, rejected: [] };
  const records: QueryRecord[] = [];
  const observed: ObserveTotals = { batches: 0, memories: 0, objects: 0, refused: 0 };
  const runStarted = performance.now();
  let embedder: StoreEmbedder | undefined;
  let schema: EvalSchema | undefined;
  try {
    schema = options.database ? await createEvalSchema(options.database) : undefined;
    // Dates without a zone are stored as UTC and read with a UTC clock, so local days stay the data's days;
    // a dataset with zoned times names its calendar.
    const service = await openMemory({
      config: {
        dataDir: storeDir,
        redactEmails: true,
        timezone: module.timeZone ?? 'UTC',
        ...(options.embed ? { embed: options.embed } : {}),
        ...(schema ? { database: schema.database } : {}),
      },
    });
    try {
      // Without an embedding handle the method table recalls exactly as a store opened without one.
      const client = createLocalClient(createMethodTable({ ...service, embedding: undefined }));
      embedder = options.embed
        ? createStoreEmbedder(service, (detail) => progress.detail(detail))
        : undefined;
      const vectors = embedder && {
        client: createLocalClient(createMethodTable(service)),
        drain: embedder.drain,
      };
      progress.start(
        dataset.conversations.reduce((n, c) => n + c.queries.length, 0),
        module.name,
      );
      for (const conversation of dataset.conversations) {
        const done = await runConversation(client, conversation, {
          module,
          ks,
          limit: RECALL_LIMIT,
          baseline: withBaseline,
          ingest,
          ...(vectors ? { vectors } : {}),
          ...(options.observe === false ? {} : { observe: createObserveAll(service, observed) }),
          onQuery: () => progress.tick(conversation.owner),
        });
        records.push(...done);
      }
    } finally {
      await service.close();
    }
  } finally {
    rmSync(storeDir, { recursive: true, force: true });
    await schema?.drop();
  }
  const runMs = performance.now() - runStarted;

  const mnemo = summarizeMnemo(records, 'mnemo');
  const mnemoVectors = options.embed ? summarizeMnemo(records, 'mnemo_vectors') : undefined;
  const embedding =
    options.embed && embedder
      ? summarizeEmbedding(
          options.embed,
          records.at(-1)?.embedding ?? { model: options.embed.model, dimensions: null },
          embedder.totals(),
          records.map((r) => (r.mnemo_vectors?.degraded ?? []).map((d) => d.code)),
        )
      : undefined;
  const baseline = withBaseline ? summarizeSystem(scored(records, 'baseline')) : undefined;
  const apart = [...new Set(records.filter((r) => !r.in_overall).map((r) => r.group))].sort();
  const abstention = summarizeAbstention(records);
  const metrics: EvalMetrics = {
    dataset: module.name,
    data: { file: basename(dataFile), sha256: createHash('sha256').update(raw).digest('hex') },
    created_at: new Date().toISOString(),
    options: {
      ks,
      subset: options.subset ?? null,
      baseline: withBaseline,
      embed: options.embed !== undefined,
      recall_limit: RECALL_LIMIT,
      engine: options.database ? 'postgres' : 'sqlite',
    },
    families: module.families,
    group_label: module.groupLabel,
    apart,
    counts: {
      conversations: dataset.conversations.length,
      units: dataset.conversations.reduce((n, c) => n + c.units.length, 0),
      queries: records.length,
      skipped: dataset.skipped.length,
    },
    skipped: dataset.skipped,
    notes: [
      ...dataset.notes,
      ...ingest.rejected.map((r) => `ingest rejected ${r.event_id}: ${r.code} ${r.message}`),
    ],
    ingest: { accepted: ingest.accepted, duplicates: ingest.duplicates, rejected: ingest.rejected.length },
    observed,
    wall_ms: { total: 0, ingest_and_recall: Math.round(runMs) },
    systems: {
      mnemo,
      ...(mnemoVectors ? { mnemo_vectors: mnemoVectors } : {}),
      ...(baseline ? { baseline } : {}),
    },
    ...(baseline
      ? { baseline_name: module.baseline?.name ?? BASELINE_NAME, ratio: ratios(mnemo, baseline) }
      : {}),
    ...(embedding && mnemoVectors ? { embedding, vectors_ratio: ratios(mnemoVectors, mnemo) } : {}),
    ...(abstention ? { abstention } : {}),
  };

  const outDir = options.outDir ?? defaultOutDir(module.name);
  mkdirSync(outDir, { recursive: true });
  const files = {
    questions: join(outDir, 'questions.jsonl'),
    metrics: join(outDir, 'metrics.json'),
    report: join(outDir, 'report.md'),
    plot: join(outDir, 'recall-at-k.svg'),
  };
  await writeFile(
    files.questions,
    records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''),
  );
  metrics.wall_ms.total = Math.round(performance.now() - started);
  await writeFile(files.metrics, `${JSON.stringify(metrics, null, 2)}\n`);
  await writeFile(files.plot, renderRecallPlot(metrics));
  await writeFile(files.report, renderReport(metrics, basename(files.plot)));
  progress.stop(summaryLine(metrics));
  return { ok: true, value: { outDir, metrics, files } };
}

/** One line: the headline metric at every k for mnemo (and the baseline), and the latency. */
export function summaryLine(metrics: EvalMetrics): string {
  const family = metrics.families[0] ?? 'recall';
  const at = (m: Record<string, number>) =>
    metrics.options.ks.map((k) => `@${k} ${m[`${family}@${k}`]?.toFixed(3) ?? '-'}`);
  const parts = [
    `${metrics.dataset}: ${metrics.counts.queries} queries over ${metrics.counts.conversations} conversations in ${(metrics.wall_ms.total / 1000).toFixed(1)} s`,
    `mnemo ${family} ${at(metrics.systems.mnemo.overall.metrics).join(' ')}`,
  ];
  const { mnemo_vectors: vectors } = metrics.systems;
  const embedding = metrics.embedding;
  if (vectors && embedding) {
    parts.push(
      `${VECTORS_NAME} (${embedding.model}, ${embedding.dimensions ?? '?'} dims) ${at(vectors.overall.metrics).join(' ')}` +
        (embedding.degraded.queries > 0 ? ` (${embedding.degraded.queries} degraded)` : ''),
    );
  }
  if (metrics.systems.baseline)
    parts.push(`baseline ${at(metrics.systems.baseline.overall.metrics).join(' ')}`);
  const lat = metrics.systems.mnemo.latency_ms;
  parts.push(`recall p50 ${lat.p50.toFixed(1)} ms p95 ${lat.p95.toFixed(1)} ms`);
  return parts.join(' | ');
}
