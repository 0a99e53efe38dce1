// Recall latency: memory.recall over the server's socket against a plain SQLite FTS5 BM25 query over the same raw texts.
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { MnemoClient } from '../src/index.js';
import type { BenchQuery, EventSource } from './corpus.js';
import type { Progress } from './ingest.js';

export interface Latency {
  queries: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export interface RecallFigures {
  all: Latency;
  en: Latency;
  zh: Latency;
  /** Queries that returned no item at all. */
  empty: number;
}

export function latency(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number): number => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
  return {
    queries: sorted.length,
    p50: rank(0.5),
    p95: rank(0.95),
    p99: rank(0.99),
    max: sorted.at(-1) ?? 0,
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
  };
}

type Runner = (query: BenchQuery) => Promise<number> | number;

/**
 * Runs the warm-up queries unmeasured, then the queries in order, each once, until `budgetMs` is spent
 * (the order is random, so a prefix is a fair sample); returns latencies in ms by language.
 */
async function measure(
  queries: readonly BenchQuery[],
  warmup: readonly BenchQuery[],
  run: Runner,
  progress: Progress,
  budgetMs = Infinity,
) {
  const warmStarted = performance.now();
  for (const q of warmup) {
    if (performance.now() - warmStarted > budgetMs / 10) break;
    await run(q);
  }
  const samples: Array<{ lang: BenchQuery['lang']; ms: number }> = [];
  let empty = 0;
  const started = performance.now();
  for (const [i, q] of queries.entries()) {
    if (performance.now() - started > budgetMs) break;
    const before = performance.now();
    const hits = await run(q);
    samples.push({ lang: q.lang, ms: performance.now() - before });
    if (hits === 0) empty++;
    progress(i + 1);
  }
  const pick = (lang?: string): number[] => samples.filter((s) => !lang || s.lang === lang).map((s) => s.ms);
  const figures: RecallFigures = {
    all: latency(pick()),
    en: latency(pick('en')),
    zh: latency(pick('zh')),
    empty,
  };
  return figures;
}

interface RecallReply {
  items: unknown[];
}

export function measureRecall(
  client: MnemoClient,
  owner: string,
  queries: readonly BenchQuery[],
  warmup: readonly BenchQuery[],
  progress: Progress,
): Promise<RecallFigures> {
  return measure(
    queries,
    warmup,
    async (q) =>
      (await client.call<RecallReply>('memory.recall', { owner, query: q.text, limit: 10, wait_ms: 60_000 }))
        .items.length,
    progress,
  );
}

/** Query terms as FTS5's default tokenizer (unicode61) sees them: runs of letters and digits. */
export const rawTerms = (query: string): string[] => [
  ...new Set(
    query
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{Co}]+/gu) ?? [],
  ),
];

export interface RawFts {
  /** Adds events [from, to) by their text; returns the seconds it took. */
  insert(source: EventSource, from: number, to: number, progress: Progress): number;
  /** Stops after `budgetMs` of measured queries: a raw query at 1M rows can take a second. */
  measure(
    queries: readonly BenchQuery[],
    warmup: readonly BenchQuery[],
    progress: Progress,
    budgetMs?: number,
  ): Promise<RecallFigures>;
  close(): void;
}

/** A plain FTS5 table (default tokenizer) over the same raw texts, queried by BM25 top 10. */
export function openRawFts(path: string): RawFts {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE VIRTUAL TABLE raw_fts USING fts5 (text)');
  const insert = db.prepare('INSERT INTO raw_fts (rowid, text) VALUES (?, ?)');
  const search = db.prepare('SELECT rowid, rank FROM raw_fts WHERE raw_fts MATCH ? ORDER BY rank LIMIT 10');
  const insertBatch = db.transaction((source: EventSource, from: number, to: number) => {
    for (let i = from; i < to; i++) insert.run(i + 1, source.event(i).text);
  });
  return {
    insert(source: EventSource, from: number, to: number, progress: Progress): number {
      const started = performance.now();
      for (let at = from; at < to; at += 5_000) {
        insertBatch(source, at, Math.min(to, at + 5_000));
        progress(Math.min(to, at + 5_000));
      }
      return (performance.now() - started) / 1000;
    },
    measure(
      queries: readonly BenchQuery[],
      warmup: readonly BenchQuery[],
      progress: Progress,
      budgetMs?: number,
    ): Promise<RecallFigures> {
      return measure(
        queries,
        warmup,
        (q) => {
          const terms = rawTerms(q.text);
          if (terms.length === 0) return 0;
          return search.all(terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ')).length;
        },
        progress,
        budgetMs,
      );
    },
    close: () => void db.close(),
  };
}
