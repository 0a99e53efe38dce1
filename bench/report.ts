// Renders the core bench section and merges it into docs/BENCHMARKS.md between its markers.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { IngestFigures } from './ingest.js';
import type { Latency, RecallFigures } from './recall.js';

export const START = '<!-- bench:core:start -->';
export const END = '<!-- bench:core:end -->';

export const TARGETS = {
  ingestPerSecond: 5_000,
  recallP95Ms: new Map([
    [100_000, 20],
    [1_000_000, 75],
  ]),
  rssMb: 400,
};

export interface SizeResult {
  size: number;
  from: number;
  ingest: IngestFigures;
  raw: IngestFigures;
  rawFtsBuildSeconds: number;
  recall: RecallFigures;
  rawRecall: RecallFigures;
  dbMb: number;
  /** Peak RSS sampled during mnemo's ingest and recall, up to this size. */
  rssMb: number;
  /** Peak RSS sampled during the raw baselines, up to this size. */
  rawRssMb: number;
}

export interface BenchResult {
  command: string;
  date: string;
  machine: { cpu: string; cores: number; node: string; memGb: number; platform: string };
  corpus: { turns: number; longmemeval: number; kdconv: number; en: number; zh: number; warmup: number };
  /** Time budget of the raw FTS5 queries at each size. */
  rawSeconds: number;
  sizes: SizeResult[];
  /** RSS once the corpus is loaded, before the service opens. */
  loadedRssMb: number;
  maxRssMb: number;
  wallSeconds: number;
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const ms = (n: number): string => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
const verdict = (ok: boolean): string => (ok ? 'met' : '**missed**');
const minutes = (s: number): string => `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;

function latencyRow(label: string, mnemo: Latency, raw: Latency): string {
  return `| ${label} | ${mnemo.queries} | ${ms(mnemo.p50)} | ${ms(mnemo.p95)} | ${ms(mnemo.p99)} | ${ms(raw.p50)} | ${ms(raw.p95)} | ${ratio(mnemo.p95, raw.p95)} |`;
}

export function renderSection(r: BenchResult): string {
  const peakRss = Math.max(...r.sizes.map((s) => s.rssMb));
  const lines: string[] = [
    START,
    '## Core: durable ingest and recall',
    '',
    `Produced by \`${r.command}\` on ${r.date}: ${r.machine.cpu}, ${r.machine.cores} cores, ` +
      `${r.machine.memGb} GB RAM, ${r.machine.platform}, Node ${r.machine.node}. Wall time ${minutes(r.wallSeconds)}.`,
    '',
    `Corpus: ${int(r.corpus.turns)} distinct dialogue turns (${int(r.corpus.longmemeval)} from the LongMemEval_S ` +
      `dev haystacks, ${int(r.corpus.kdconv)} KdConv utterances), cycled with fresh event ids, sessions and ` +
      'dates up to each size, for one owner. Queries: the LongMemEval questions (s_dev and oracle) and, since ' +
      'KdConv has no questions, its utterances that end in a question mark, ' +
      `${r.corpus.en} English and ${r.corpus.zh} Chinese, in a fixed random order, after ${r.corpus.warmup} ` +
      'unmeasured warm-up queries; every query is run once per size.',
    '',
    '### Ingest',
    '',
    '`memory.events.ingest` in batches of 500 events through the in-process client (validation, redaction, ' +
      'tokenizing, events table and full-text index in one transaction; WAL, `synchronous=FULL`), against ' +
      'raw better-sqlite3 inserts of the same rows into a plain table with the same columns ' +
      '(one transaction per 500 rows, WAL, `synchronous=FULL`), in the same run.',
    '',
    '| events | mnemo events/s | raw inserts events/s | mnemo / raw | target ≥ 5,000/s |',
    '|---|---:|---:|---:|---|',
  ];
  for (const s of r.sizes) {
    lines.push(
      `| ${int(s.from)} → ${int(s.size)} | ${int(s.ingest.perSecond)} | ${int(s.raw.perSecond)} | ` +
        `${ratio(s.ingest.perSecond, s.raw.perSecond)} | ${verdict(s.ingest.perSecond >= TARGETS.ingestPerSecond)} |`,
    );
  }
  lines.push(
    '',
    '### Recall',
    '',
    '`memory.recall` with `limit: 10`, timed around the call (method validation, term selection, BM25 and id ' +
      'channels, fusion, loading the events), against a plain FTS5 table over the same raw texts with its ' +
      'default tokenizer, queried with the OR of the query’s terms, `ORDER BY rank LIMIT 10`, in the same run. ' +
      `The raw queries run in the same order until ${r.rawSeconds} s are spent at a size (the order is random, ` +
      'so the first ones are a fair sample). Milliseconds.',
    '',
    '| events | queries mnemo / raw | mnemo p50 | mnemo p95 | raw FTS5 p50 | raw FTS5 p95 | p95 mnemo / raw | target p95 | |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const s of r.sizes) {
    const target = TARGETS.recallP95Ms.get(s.size);
    lines.push(
      `| ${int(s.size)} | ${s.recall.all.queries} / ${s.rawRecall.all.queries} | ${ms(s.recall.all.p50)} | ` +
        `${ms(s.recall.all.p95)} | ${ms(s.rawRecall.all.p50)} | ` +
        `${ms(s.rawRecall.all.p95)} | ${ratio(s.recall.all.p95, s.rawRecall.all.p95)} | ` +
        `${target === undefined ? '–' : `≤ ${target}`} | ${target === undefined ? '' : verdict(s.recall.all.p95 <= target)} |`,
    );
  }
  lines.push(
    '',
    'By query language (p99 included):',
    '',
    '| events / queries | n | mnemo p50 | mnemo p95 | mnemo p99 | raw p50 | raw p95 | p95 mnemo / raw |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const s of r.sizes) {
    lines.push(latencyRow(`${int(s.size)} / English`, s.recall.en, s.rawRecall.en));
    lines.push(latencyRow(`${int(s.size)} / Chinese`, s.recall.zh, s.rawRecall.zh));
  }
  lines.push(
    '',
    'Queries without any result: ' +
      r.sizes
        .map((s) => `${int(s.size)} events: mnemo ${s.recall.empty}, raw FTS5 ${s.rawRecall.empty}`)
        .join('; ') +
      '. FTS5’s default tokenizer keeps an unsegmented Chinese clause as one token, so a raw Chinese ' +
      'query only matches texts that repeat a clause verbatim (here, mostly the cycled copies of the ' +
      'utterance the query was taken from): it is cheap and not a like-for-like comparison.',
    '',
    '### Memory and size',
    '',
    '| events | mnemo database (MB) | peak RSS during mnemo phases (MB) | during raw baselines (MB) |',
    '|---|---:|---:|---:|',
    ...r.sizes.map((s) => `| ${int(s.size)} | ${int(s.dbMb)} | ${int(s.rssMb)} | ${int(s.rawRssMb)} |`),
    '',
    `Peak RSS while mnemo ingests and recalls: ${int(peakRss)} MB for the whole bench process, which held ` +
      `${int(r.loadedRssMb)} MB before the service opened (Node, tsx, the parsed datasets and the corpus; ` +
      `this varies by ±50 MB from run to run with what V8 keeps after parsing). mnemo's share, the peak ` +
      `minus that: ${int(peakRss - r.loadedRssMb)} MB, target ≤ ${TARGETS.rssMb} MB: ` +
      `${verdict(peakRss - r.loadedRssMb <= TARGETS.rssMb)}; the whole process: ` +
      `${verdict(peakRss <= TARGETS.rssMb)}. Peak RSS over the whole run, raw baselines included ` +
      `(\`process.resourceUsage().maxRSS\`): ${int(r.maxRssMb)} MB.`,
    END,
  );
  return lines.join('\n');
}

/** Replaces the text between the markers, keeping everything else in the file. */
export function mergeSection(existing: string | null, section: string): string {
  if (existing === null || existing.trim() === '') return `# Benchmarks\n\n${section}\n`;
  const start = existing.indexOf(START);
  const end = existing.indexOf(END, start);
  if (start === -1 || end === -1) return `${existing.trimEnd()}\n\n${section}\n`;
  return existing.slice(0, start) + section + existing.slice(end + END.length);
}

export function writeReport(path: string, result: BenchResult): void {
  mkdirSync(dirname(path), { recursive: true });
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : null;
  writeFileSync(path, mergeSection(existing, renderSection(result)));
}
