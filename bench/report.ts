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
  /** The server's VmRSS, highest sample after a batch or query up to this size; null without /proc. */
  serverRssMb: number | null;
  /** The server's VmHWM (the kernel's peak since it started) at the end of this size; null without /proc. */
  serverPeakMb: number | null;
  /** The bench process's own RSS (socket client, corpus, raw baselines), highest sample up to this size. */
  benchRssMb: number;
}

/** Where the server's ingest worker count comes from: its `health`, the bench's environment, or neither. */
export type IngestWorkers = { source: 'health' | 'env'; value: number | string } | { source: 'default' };

export interface ServerInfo {
  version: string;
  /** `mnemo serve` flags besides --data-dir and --socket. */
  flags: string;
  ingestWorkers: IngestWorkers;
  /** VmRSS once it listened, before any event; null without /proc. */
  startRssMb: number | null;
  /** The highest VmHWM over all sizes; null without /proc. */
  peakRssMb: number | null;
}

export interface BenchResult {
  command: string;
  date: string;
  machine: { cpu: string; cores: number; node: string; memGb: number; platform: string };
  corpus: { turns: number; longmemeval: number; kdconv: number; en: number; zh: number; warmup: number };
  /** Time budget of the raw FTS5 queries at each size. */
  rawSeconds: number;
  server: ServerInfo;
  sizes: SizeResult[];
  /** The bench process's RSS once the corpus is loaded, before the server starts. */
  loadedRssMb: number;
  /** The bench process's peak over the whole run (`process.resourceUsage().maxRSS`). */
  maxRssMb: number;
  wallSeconds: number;
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const ms = (n: number): string => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
const verdict = (ok: boolean): string => (ok ? 'met' : '**missed**');
const minutes = (s: number): string => `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
const intOrNa = (n: number | null): string => (n === null ? 'n/a' : int(n));

function workersText(w: IngestWorkers, cores: number): string {
  if (w.source === 'health') return `${w.value} (as the server's \`health\` reports)`;
  if (w.source === 'env')
    return `\`MNEMO_INGEST_WORKERS=${w.value}\` (passed to the server; its \`health\` does not report the value it used)`;
  return `the server's default, min(4, cores) with ${cores} cores (\`MNEMO_INGEST_WORKERS\` unset; its \`health\` does not report the value it used)`;
}

function memoryText(r: BenchResult): string {
  const bench =
    `The bench process (Node, tsx, the parsed datasets and the corpus, the socket client and the raw ` +
    `better-sqlite3 baselines; not part of mnemo) held ${int(r.loadedRssMb)} MB once the corpus was loaded ` +
    `and peaked at ${int(r.maxRssMb)} MB (\`process.resourceUsage().maxRSS\`).`;
  const peak = r.server.peakRssMb;
  if (peak === null)
    return `mnemo's peak RSS: n/a (no \`/proc\` on this platform, so the server's memory was not measured). ${bench}`;
  return (
    `mnemo's peak RSS, the server process's VmHWM: ${int(peak)} MB, target ≤ ${TARGETS.rssMb} MB: ` +
    `${verdict(peak <= TARGETS.rssMb)}. It held ${intOrNa(r.server.startRssMb)} MB once it listened, before ` +
    `any event. ${bench}`
  );
}

function latencyRow(label: string, mnemo: Latency, raw: Latency): string {
  return `| ${label} | ${mnemo.queries} | ${ms(mnemo.p50)} | ${ms(mnemo.p95)} | ${ms(mnemo.p99)} | ${ms(raw.p50)} | ${ms(raw.p95)} | ${ratio(mnemo.p95, raw.p95)} |`;
}

export function renderSection(r: BenchResult): string {
  const lines: string[] = [
    START,
    '## Core: durable ingest and recall',
    '',
    `Produced by \`${r.command}\` on ${r.date}: ${r.machine.cpu}, ${r.machine.cores} cores, ` +
      `${r.machine.memGb} GB RAM, ${r.machine.platform}, Node ${r.machine.node}. Wall time ${minutes(r.wallSeconds)}.`,
    '',
    `Server: mnemo ${r.server.version} as its own process, started by the bench from the build ` +
      `(\`npm run bench\` runs \`npm run build\` first): \`node bin/mnemo.js serve --data-dir <tmp> ` +
      `--socket <tmp>/mnemo.sock ${r.server.flags}\`, with the bench's environment minus every \`MNEMO_*\` ` +
      `variable but \`MNEMO_INGEST_WORKERS\`, and stopped with SIGTERM at the end. Ingest worker threads: ` +
      `${workersText(r.server.ingestWorkers, r.machine.cores)}. It runs with \`--observer external\` and ` +
      '`--organizer external`, so nothing distills the events into memories or compacts them during the ' +
      'bench: the built-in observer and organizer would claim batches and jobs and write in the same process, ' +
      'competing with ingest and recall for the cores and the SQLite writer, and the figures would depend on ' +
      'how far those background jobs had got. Observation and organize have their own benches ' +
      '(`bench/observe.ts`, `bench/organize.ts`, below); recall here searches events only.',
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
    '`memory.events.ingest` in batches of 500 events, sent to the server over its Unix socket ' +
      '(`createSocketClient`, one JSON line a call) and timed around the call, so the time includes encoding ' +
      'the request and the socket round trip besides the server’s work (validation, redaction, tokenizing, ' +
      'events table and full-text index in one transaction; WAL, `synchronous=FULL`). A batch is cut early ' +
      'when its events’ JSON would pass 1,000,000 bytes, to keep the request line under the server’s 1 MB ' +
      'limit. Against raw better-sqlite3 inserts of the same rows in the bench process, into a plain table ' +
      'with the same columns (one transaction per 500 rows, WAL, `synchronous=FULL`), in the same run.',
    '',
    '| events | mnemo events/s | raw inserts events/s | mnemo / raw | batches (cut early) | target ≥ 5,000/s |',
    '|---|---:|---:|---:|---:|---|',
  ];
  for (const s of r.sizes) {
    lines.push(
      `| ${int(s.from)} → ${int(s.size)} | ${int(s.ingest.perSecond)} | ${int(s.raw.perSecond)} | ` +
        `${ratio(s.ingest.perSecond, s.raw.perSecond)} | ${int(s.ingest.batches)} (${int(s.ingest.cut)}) | ` +
        `${verdict(s.ingest.perSecond >= TARGETS.ingestPerSecond)} |`,
    );
  }
  lines.push(
    '',
    '### Recall',
    '',
    '`memory.recall` with `limit: 10`, one call at a time over the same socket, timed around the call: the ' +
      'figures include the socket round trip and JSON encoding both ways besides the server’s work (method ' +
      'validation, term selection, BM25 and id channels, fusion, loading the events). Against a plain FTS5 ' +
      'table over the same raw texts with its default tokenizer, queried in the bench process (no round ' +
      'trip) with the OR of the query’s terms, `ORDER BY rank LIMIT 10`, in the same run. ' +
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
    'mnemo’s memory is the server process’s resident set, read from `/proc/<pid>/status`: VmRSS sampled after ' +
      'every ingest batch and every recall, and VmHWM, the kernel’s peak since the server started, read at ' +
      'the end of each size. The bench process is measured apart (its RSS sampled after every step).',
    '',
    '| events | mnemo database (MB) | server RSS, highest sample (MB) | server peak RSS, VmHWM (MB) | bench/baselines process peak (MB) |',
    '|---|---:|---:|---:|---:|',
    ...r.sizes.map(
      (s) =>
        `| ${int(s.size)} | ${int(s.dbMb)} | ${intOrNa(s.serverRssMb)} | ${intOrNa(s.serverPeakMb)} | ${int(s.benchRssMb)} |`,
    ),
    '',
    memoryText(r),
    END,
  );
  return lines.join('\n');
}

/** Replaces the text between the markers (the core section's by default), keeping everything else. */
export function mergeSection(
  existing: string | null,
  section: string,
  markers = { start: START, end: END },
): string {
  if (existing === null || existing.trim() === '') return `# Benchmarks\n\n${section}\n`;
  const start = existing.indexOf(markers.start);
  const end = existing.indexOf(markers.end, start);
  if (start === -1 || end === -1) return `${existing.trimEnd()}\n\n${section}\n`;
  return existing.slice(0, start) + section + existing.slice(end + markers.end.length);
}

/** Writes `section` into the file at `path` between `markers`. */
export function writeSection(path: string, section: string, markers = { start: START, end: END }): void {
  mkdirSync(dirname(path), { recursive: true });
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : null;
  writeFileSync(path, mergeSection(existing, section, markers));
}

export function writeReport(path: string, result: BenchResult): void {
  writeSection(path, renderSection(result));
}
