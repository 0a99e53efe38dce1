// `npm run bench`: durable ingest and recall latency of a real `mnemo serve` child process (the built
// bin/mnemo.js; the npm script builds first) over its socket at each size, against raw SQLite in the bench
// process, into docs/BENCHMARKS.md.
// Options: --sizes 100000,1000000  --queries 400  --warmup 50  --raw-seconds 120 (time budget of the raw
// FTS5 queries per size)  --out docs/BENCHMARKS.md  --data ../shared/data (both relative to the repo root).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { MnemoClient } from '../src/index.js';
import { createEventSource, loadCorpus, pickQueries, type BenchQuery, type EventSource } from './corpus.js';
import { ingestThroughSocket, openRawTable } from './ingest.js';
import { measureRecall, openRawFts } from './recall.js';
import { writeReport, type BenchResult, type IngestWorkers, type SizeResult } from './report.js';
import { readProcMemory, SERVE_FLAGS, spawnBenchServer, type BenchServer } from './server.js';

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

const mb = (bytes: number): number => bytes / 1024 / 1024;
const mbOrNull = (bytes: number | null | undefined): number | null => (bytes == null ? null : mb(bytes));

/** Peak RSS: the server's VmRSS after each batch or query, and the bench process's own after every step. */
const rssPeak = { server: null as number | null, bench: 0 };
function sampleRss(server: BenchServer | null): void {
  rssPeak.bench = Math.max(rssPeak.bench, process.memoryUsage.rss());
  const rss = server && readProcMemory(server.pid)?.rssBytes;
  if (rss) rssPeak.server = Math.max(rssPeak.server ?? 0, rss);
}

/**
 * One progress line on stderr: rewritten in place on a terminal, every 10 s otherwise. Samples RSS at
 * each step, the server's too when it is the one working.
 */
function progress(label: string, total: number, server: BenchServer | null) {
  let last = 0;
  const started = performance.now();
  return (done: number): void => {
    sampleRss(server);
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

interface Health {
  version: string;
  data_dir: string;
  ingest_workers?: unknown;
}

/** The worker count the server used, from its health when it says, else from the environment it got. */
function ingestWorkersOf(health: Health): IngestWorkers {
  if (typeof health.ingest_workers === 'number') return { source: 'health', value: health.ingest_workers };
  const env = process.env.MNEMO_INGEST_WORKERS;
  return env ? { source: 'env', value: env } : { source: 'default' };
}

/**
 * A connection for one phase: the server closes a socket idle for 5 s, as it does for any client, and the
 * raw baselines between mnemo's phases take longer than that.
 */
async function withClient<T>(server: BenchServer, phase: (client: MnemoClient) => Promise<T>): Promise<T> {
  const client = server.connect();
  try {
    return await phase(client);
  } finally {
    await client.close();
  }
}

/** Grows one store through the server size by size; the raw baselines get the same rows. */
async function runSizes(
  tmp: string,
  server: BenchServer,
  databasePath: string,
  source: EventSource,
  queries: BenchQuery[],
  warm: BenchQuery[],
) {
  const raw = openRawTable(join(tmp, 'raw-events.sqlite3'));
  const fts = openRawFts(join(tmp, 'raw-fts.sqlite3'));
  const results: SizeResult[] = [];
  try {
    let from = 0;
    for (const size of sizes) {
      const ingest = await withClient(server, (client) =>
        ingestThroughSocket(client, OWNER, source, from, size, progress('mnemo ingest', size, server)),
      );
      const rawIngest = raw.insert(source, from, size, progress('raw inserts', size, null));
      const rawFtsBuildSeconds = fts.insert(source, from, size, progress('raw FTS5 build', size, null));
      const recall = await withClient(server, (client) =>
        measureRecall(
          client,
          OWNER,
          queries,
          warm,
          progress(`mnemo recall @${size}`, queries.length, server),
        ),
      );
      const rawRecall = await fts.measure(
        queries,
        warm,
        progress(`raw FTS5 recall @${size}`, queries.length, null),
        rawBudgetMs,
      );
      const serverPeakMb = mbOrNull(readProcMemory(server.pid)?.peakBytes);
      results.push({
        size,
        from,
        ingest,
        raw: rawIngest,
        rawFtsBuildSeconds,
        recall,
        rawRecall,
        dbMb: fileMb(databasePath),
        serverRssMb: mbOrNull(rssPeak.server),
        serverPeakMb,
        benchRssMb: mb(rssPeak.bench),
      });
      process.stderr.write(
        `@${size}: ingest ${Math.round(ingest.perSecond)}/s (raw ${Math.round(rawIngest.perSecond)}/s; ` +
          `${ingest.accepted} accepted, ${ingest.rejected} rejected, ${ingest.cut}/${ingest.batches} batches cut); ` +
          `recall p50 ${recall.all.p50.toFixed(2)} p95 ${recall.all.p95.toFixed(2)} ms ` +
          `(raw FTS5 p50 ${rawRecall.all.p50.toFixed(2)} p95 ${rawRecall.all.p95.toFixed(2)} ms); ` +
          `server peak RSS ${serverPeakMb === null ? 'n/a' : `${Math.round(serverPeakMb)} MB`}\n`,
      );
      from = size;
    }
  } finally {
    raw.close();
    fts.close();
  }
  return results;
}

/** Every size against a started server, through one socket client. */
async function measureServer(
  tmp: string,
  server: BenchServer,
  source: EventSource,
  queries: BenchQuery[],
  warm: BenchQuery[],
) {
  await server.ready;
  const health = await withClient(server, (client) => client.call<Health>('health'));
  const started = readProcMemory(server.pid);
  process.stderr.write(
    `mnemo serve ${health.version} (pid ${server.pid}) on ${server.socketPath}` +
      `${started ? `, ${Math.round(mb(started.rssBytes))} MB RSS` : ''}\n`,
  );
  const databasePath = join(health.data_dir, 'mnemo.sqlite3');
  const results = await runSizes(tmp, server, databasePath, source, queries, warm);
  return {
    results,
    server: {
      version: health.version,
      flags: SERVE_FLAGS.join(' '),
      ingestWorkers: ingestWorkersOf(health),
      startRssMb: mbOrNull(started?.rssBytes),
    },
  };
}

let interrupted = false;

/** Starts the server, measures, and stops it (also on SIGINT); a crash of the server fails the run. */
async function runAgainstServer(source: EventSource, queries: BenchQuery[], warm: BenchQuery[]) {
  const tmp = mkdtempSync(join(tmpdir(), 'mnemo-bench-'));
  const server = spawnBenchServer(ROOT, tmp);
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= server.stop().finally(() => rmSync(tmp, { recursive: true, force: true })));
  process.once('SIGINT', () => {
    interrupted = true;
    process.stderr.write('\ninterrupted: stopping mnemo serve\n');
    void stop()
      .catch((error: unknown) => process.stderr.write(`${String(error)}\n`))
      .finally(() => process.exit(130));
  });
  const outcome = await measureServer(tmp, server, source, queries, warm).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  try {
    await stop();
  } catch (error) {
    if (outcome.ok) throw error;
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

async function main(): Promise<BenchResult> {
  const wallStarted = performance.now();
  process.stderr.write(`loading corpus from ${relative(ROOT, dataDir)}\n`);
  const corpus = loadCorpus(dataDir);
  const source = createEventSource(corpus);
  const queries = pickQueries(corpus, queryCount);
  const warm = pickQueries(corpus, warmup, 99);
  const loadedRssMb = mb(process.memoryUsage.rss());

  const { results, server } = await runAgainstServer(source, queries, warm);

  const shownOut = isAbsolute(args.out) ? relative(ROOT, outPath) : args.out;
  const shownArgs = process.argv.slice(2).map((a) => (a === args.out ? shownOut : a));
  const peaks = results.map((s) => s.serverPeakMb).filter((v) => v !== null);
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
    server: { ...server, peakRssMb: peaks.length > 0 ? Math.max(...peaks) : null },
    sizes: results,
    loadedRssMb,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    wallSeconds: (performance.now() - wallStarted) / 1000,
  };
}

let result: BenchResult;
try {
  result = await main();
} catch (error) {
  // On SIGINT the handler stops the server and exits; a call cut short by it is no failure of its own.
  if (interrupted) await new Promise<never>(() => {});
  throw error;
}
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
    batchesCut: s.ingest.cut,
    serverPeakRssMb: s.serverPeakMb === null ? null : Math.round(s.serverPeakMb),
    benchRssMb: Math.round(s.benchRssMb),
  };
}
