// `npm run bench:engines`: ingest throughput and recall latency of `mnemo serve` children (the built
// bin/mnemo.js) on SQLite and on PostgreSQL over the same events, then ingest with 1, 2 and 3 processes
// sharing one PostgreSQL database, into docs/BENCHMARKS.md (its own section).
// Options: --events 100000 --queries 400 --warmup 50 --shared-events 60000 --clients 6 --processes 1,2,3
// --out docs/BENCHMARKS.md --data ../shared/data. PostgreSQL: a throwaway cluster, or MNEMO_BENCH_POSTGRES_URL.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createEvalSchema } from '../eval/postgres-store.js';
import { createEventSource, loadCorpus, pickQueries } from './corpus.js';
import { renderEngines, type EngineRun, type EnginesResult, type SharedRun } from './engines-report.js';
import { ingestConcurrently, ingestThroughSocket } from './ingest.js';
import { startBenchPostgres } from './postgres-cluster.js';
import { measureRecall } from './recall.js';
import { writeSection } from './report.js';
import { readProcMemory, spawnBenchServer, type BenchServer } from './server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '400' },
    warmup: { type: 'string', default: '50' },
    'shared-events': { type: 'string', default: '60000' },
    clients: { type: 'string', default: '6' },
    processes: { type: 'string', default: '1,2,3' },
    out: { type: 'string', default: 'docs/BENCHMARKS.md' },
    data: { type: 'string', default: '../shared/data' },
  },
});
const events = Number(args.events);
const sharedEvents = Number(args['shared-events']);
const clientCount = Number(args.clients);
const processCounts = args.processes.split(',').map(Number);
const log = (line: string) => process.stderr.write(`${line}\n`);
const mb = (bytes: number) => bytes / 1024 / 1024;

/** `n` servers on one store (SQLite: each its own file; PostgreSQL: `url`), sharing one redaction key. */
async function withServers<T>(n: number, url: string | undefined, work: (s: BenchServer[]) => Promise<T>) {
  const dirs = Array.from({ length: n }, () => mkdtempSync(join(tmpdir(), 'mnemo-bench-')));
  const servers: BenchServer[] = [];
  try {
    for (const [i, dir] of dirs.entries()) {
      if (i > 0) {
        mkdirSync(join(dir, 'mnemo'), { recursive: true, mode: 0o700 });
        copyFileSync(join(dirs[0] ?? '', 'mnemo', 'redaction-key'), join(dir, 'mnemo', 'redaction-key'));
      }
      const server = spawnBenchServer(ROOT, dir, url ? { databaseUrl: url } : {});
      servers.push(server);
      await server.ready;
    }
    return { value: await work(servers), dirs };
  } finally {
    for (const server of servers) await server.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

async function schemaMb(url: string, schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string | null }>(
      `SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
      [schema],
    );
    return mb(Number(rows[0]?.bytes ?? 0));
  } finally {
    await client.end();
  }
}

const fileMb = (path: string) =>
  ['', '-wal'].reduce((n, s) => n + (existsSync(path + s) ? mb(statSync(path + s).size) : 0), 0);

async function main(): Promise<EnginesResult> {
  const started = performance.now();
  const loadStart = loadavg();
  const corpus = loadCorpus(resolve(ROOT, args.data));
  const source = createEventSource(corpus);
  const queries = pickQueries(corpus, Number(args.queries));
  const warm = pickQueries(corpus, Number(args.warmup), 99);
  const postgres = await startBenchPostgres();
  log(`PostgreSQL ${postgres.version} (${postgres.origin})`);
  const database = { url: postgres.url, poolSize: 10, statementTimeoutMs: 30_000, ssl: 'disable' as const };
  try {
    const engines: EngineRun[] = [];
    for (const engine of ['sqlite', 'postgres'] as const) {
      const schema = engine === 'postgres' ? await createEvalSchema(database, 'mnemo_bench') : undefined;
      try {
        const { value } = await withServers(1, schema?.database.url, async ([server]) => {
          if (!server) throw new Error('no server');
          const client = server.connect();
          const ingest = await ingestThroughSocket(client, 'bench', source, 0, events, () => {});
          log(`${engine}: ingest ${Math.round(ingest.perSecond)}/s`);
          const recall = await measureRecall(client, 'bench', queries, warm, () => {});
          log(`${engine}: recall p50 ${recall.all.p50.toFixed(2)} p95 ${recall.all.p95.toFixed(2)} ms`);
          await client.close();
          const peak = readProcMemory(server.pid)?.peakBytes;
          const storeMb = schema
            ? await schemaMb(postgres.url, schema.schema)
            : fileMb(join(dirname(server.socketPath), 'mnemo', 'mnemo.sqlite3'));
          return { engine, ingest, recall, storeMb, serverPeakMb: peak === undefined ? null : mb(peak) };
        });
        engines.push(value);
      } finally {
        await schema?.drop();
      }
    }
    const shared: SharedRun[] = [];
    const owners = Array.from({ length: clientCount }, (_, j) => `bench-${j}`);
    for (const [engine, n] of [
      ['sqlite', 1] as const,
      ...processCounts.map((p) => ['postgres', p] as const),
    ]) {
      const schema = engine === 'postgres' ? await createEvalSchema(database, 'mnemo_bench') : undefined;
      try {
        const { value } = await withServers(n, schema?.database.url, async (servers) => {
          const clients = owners.map((_, j) => (servers[j % servers.length] as BenchServer).connect());
          const figures = await ingestConcurrently(clients, owners, source, sharedEvents);
          await Promise.all(clients.map((c) => c.close()));
          return figures;
        });
        log(`${engine} × ${n}: ingest ${Math.round(value.perSecond)}/s`);
        shared.push({ engine, processes: n, clients: clientCount, ingest: value });
      } finally {
        await schema?.drop();
      }
    }
    return {
      date: new Date().toISOString().slice(0, 10),
      machine: {
        cpu: cpus()[0]?.model.trim() ?? 'unknown cpu',
        cores: availableParallelism(),
        memGb: Math.round(totalmem() / 1024 ** 3),
        platform: `${platform()} ${release()}`,
        node: process.version,
      },
      load: { start: loadStart, end: loadavg() },
      postgres: { version: postgres.version, origin: postgres.origin },
      corpusTurns: corpus.turns,
      queries: { measured: queries.length, warmup: warm.length },
      events,
      sharedEvents,
      engines,
      shared,
      wallSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    postgres.stop();
  }
}

const result = await main();
writeSection(resolve(ROOT, args.out), renderEngines(result), {
  start: '<!-- bench:engines:start -->',
  end: '<!-- bench:engines:end -->',
});
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
