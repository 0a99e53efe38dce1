// `npm run bench`: durable ingest and recall latency at each size, against raw SQLite, into docs/BENCHMARKS.md.
// Options: --sizes 100000,1000000  --queries 400  --warmup 50  --raw-seconds 120 (time budget of the raw
// FTS5 queries per size)  --out docs/BENCHMARKS.md  --data ../shared/data (both relative to the repo root).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLocalClient, createMethodTable, openMemory } from '../src/index.js';
import { createEventSource, loadCorpus, pickQueries, type BenchQuery, type EventSource } from './corpus.js';
import { ingestThroughApi, openRawTable } from './ingest.js';
import { measureRecall, openRawFts } from './recall.js';
import { writeReport, type BenchResult, type SizeResult } from './report.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OWNER = 'bench';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000,1000000' },
    queries: { type: 'string', default: '400' },
    warmup: { type: 'string', default: '50' },
    'raw-seconds': { type: 'string', default: '120' },
    out: { type: 'string', default: 'docs/BENCHMARKS.md' },
    data: { type: 'string', default: '../shared/data' },
  },
});

const sizes = args.sizes
  .split(',')
  .map((s) => Number(s.replaceAll('_', '')))
  .sort((a, b) => a - b);
if (sizes.some((s) => !Number.isInteger(s) || s <= 0))
  throw new Error(`--sizes: positive integers, got ${args.sizes}`);
const queryCount = Number(args.queries);
const warmup = Number(args.warmup);
const rawBudgetMs = Number(args['raw-seconds']) * 1000;
const outPath = resolve(ROOT, args.out);
const dataDir = resolve(ROOT, args.data);

/** Peak RSS sampled while mnemo works and while the raw baselines do (after each batch or query). */
const rssPeak = { mnemo: 0, raw: 0 };
type Phase = keyof typeof rssPeak;
const sampleRss = (phase: Phase): void => {
  rssPeak[phase] = Math.max(rssPeak[phase], process.memoryUsage.rss());
};
const mb = (bytes: number): number => bytes / 1024 / 1024;

/** One progress line on stderr: rewritten in place on a terminal, every 10 s otherwise. */
function progress(label: string, total: number, phase: Phase) {
  let last = 0;
  const started = performance.now();
  return (done: number): void => {
    sampleRss(phase);
    const now = performance.now();
    const finished = done >= total;
    if (!finished && now - last < (process.stderr.isTTY ? 250 : 10_000)) return;
    last = now;
    const line = `${label}: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} (${((now - started) / 1000).toFixed(0)} s)`;
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${line}${finished ? '\n' : ''}`);
    else process.stderr.write(`${line}\n`);
  };
}

const fileMb = (path: string): number =>
  ['', '-wal'].reduce(
    (sum, suffix) => sum + (existsSync(path + suffix) ? mb(statSync(path + suffix).size) : 0),
    0,
  );

/** Grows one store through the API size by size; the raw baselines get the same rows. */
async function runSizes(tmp: string, source: EventSource, queries: BenchQuery[], warm: BenchQuery[]) {
  const service = await openMemory({ config: { dataDir: join(tmp, 'mnemo'), redactEmails: true } });
  const client = createLocalClient(createMethodTable(service));
  const raw = openRawTable(join(tmp, 'raw-events.sqlite3'));
  const fts = openRawFts(join(tmp, 'raw-fts.sqlite3'));
  const results: SizeResult[] = [];
  try {
    let from = 0;
    for (const size of sizes) {
      const ingest = await ingestThroughApi(
        client,
        OWNER,
        source,
        from,
        size,
        progress('mnemo ingest', size, 'mnemo'),
      );
      const rawIngest = raw.insert(source, from, size, progress('raw inserts', size, 'raw'));
      const rawFtsBuildSeconds = fts.insert(source, from, size, progress('raw FTS5 build', size, 'raw'));
      const recall = await measureRecall(
        client,
        OWNER,
        queries,
        warm,
        progress(`mnemo recall @${size}`, queries.length, 'mnemo'),
      );
      const rawRecall = await fts.measure(
        queries,
        warm,
        progress(`raw FTS5 recall @${size}`, queries.length, 'raw'),
        rawBudgetMs,
      );
      const dbMb = fileMb(service.databasePath);
      results.push({
        size,
        from,
        ingest,
        raw: rawIngest,
        rawFtsBuildSeconds,
        recall,
        rawRecall,
        dbMb,
        rssMb: mb(rssPeak.mnemo),
        rawRssMb: mb(rssPeak.raw),
      });
      process.stderr.write(
        `@${size}: ingest ${Math.round(ingest.perSecond)}/s (raw ${Math.round(rawIngest.perSecond)}/s); ` +
          `recall p50 ${recall.all.p50.toFixed(2)} p95 ${recall.all.p95.toFixed(2)} ms ` +
          `(raw FTS5 p50 ${rawRecall.all.p50.toFixed(2)} p95 ${rawRecall.all.p95.toFixed(2)} ms)\n`,
      );
      from = size;
    }
  } finally {
    raw.close();
    fts.close();
    await service.close();
  }
  return results;
}

async function main(): Promise<BenchResult> {
  const wallStarted = performance.now();
  process.stderr.write(`loading corpus from ${relative(ROOT, dataDir)}\n`);
  const corpus = loadCorpus(dataDir);
  const source = createEventSource(corpus);
  const queries = pickQueries(corpus, queryCount);
  const warm = pickQueries(corpus, warmup, 99);
  const loadedRssMb = mb(process.memoryUsage.rss());

  const tmp = mkdtempSync(join(tmpdir(), 'mnemo-bench-'));
  const cleanup = (): void => rmSync(tmp, { recursive: true, force: true });
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  let results: SizeResult[];
  try {
    results = await runSizes(tmp, source, queries, warm);
  } finally {
    cleanup();
  }

  const shownOut = isAbsolute(args.out) ? relative(ROOT, outPath) : args.out;
  const shownArgs = process.argv.slice(2).map((a) => (a === args.out ? shownOut : a));
  return {
    command: ['npm run bench', ...(shownArgs.length > 0 ? ['--', ...shownArgs] : [])].join(' '),
    date: new Date().toISOString().slice(0, 10),
    machine: {
      cpu: cpus()[0]?.model.trim() ?? 'unknown cpu',
      cores: availableParallelism(),
      node: process.version,
      memGb: Math.round(totalmem() / 1024 ** 3),
      platform: `${platform()} ${release()}`,
    },
    corpus: {
      turns: corpus.turns,
      longmemeval: corpus.sources.longmemevalTurns,
      kdconv: corpus.sources.kdconvTurns,
      en: queries.filter((q) => q.lang === 'en').length,
      zh: queries.filter((q) => q.lang === 'zh').length,
      warmup: warm.length,
    },
    rawSeconds: rawBudgetMs / 1000,
    sizes: results,
    loadedRssMb,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    wallSeconds: (performance.now() - wallStarted) / 1000,
  };
}

const result = await main();
writeReport(outPath, result);
process.stdout.write(`${JSON.stringify({ ...result, sizes: result.sizes.map(summary) }, null, 2)}\n`);
process.stderr.write(`wrote ${relative(ROOT, outPath)}\n`);

function summary(s: SizeResult) {
  return {
    size: s.size,
    ingestPerSecond: Math.round(s.ingest.perSecond),
    rawPerSecond: Math.round(s.raw.perSecond),
    recallP50: s.recall.all.p50,
    recallP95: s.recall.all.p95,
    rawP50: s.rawRecall.all.p50,
    rawP95: s.rawRecall.all.p95,
    rawFtsBuildSeconds: s.rawFtsBuildSeconds,
    dbMb: Math.round(s.dbMb),
    rssMb: Math.round(s.rssMb),
  };
}
