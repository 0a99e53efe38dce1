// Renders the engine bench (bench/engines.ts) as its section of docs/BENCHMARKS.md.
import type { ConcurrentIngest, IngestFigures } from './ingest.js';
import type { RecallFigures } from './recall.js';

export interface EngineRun {
  engine: 'sqlite' | 'postgres';
  ingest: IngestFigures;
  recall: RecallFigures;
  storeMb: number;
  serverPeakMb: number | null;
}

export interface SharedRun {
  engine: 'sqlite' | 'postgres';
  processes: number;
  clients: number;
  ingest: ConcurrentIngest;
}

export interface EnginesResult {
  date: string;
  machine: { cpu: string; cores: number; memGb: number; platform: string; node: string };
  load: { start: number[]; end: number[] };
  postgres: { version: string; origin: 'throwaway' | 'given' };
  corpusTurns: number;
  queries: { measured: number; warmup: number };
  events: number;
  sharedEvents: number;
  engines: EngineRun[];
  shared: SharedRun[];
  wallSeconds: number;
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const ms = (n: number): string => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const times = (a: number, b: number | undefined): string => (b ? `${(a / b).toFixed(2)}×` : '–');
const loads = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' / ');
const NAME = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

export function renderEngines(r: EnginesResult): string {
  const base = r.engines.find((e) => e.engine === 'sqlite');
  const one = r.shared.find((s) => s.engine === 'postgres' && s.processes === 1);
  const lines = [
    '<!-- bench:engines:start -->',
    '## Engines: SQLite and PostgreSQL (issue 9)',
    '',
    `Produced by \`npm run bench:engines\` on ${r.date}: ${r.machine.cpu}, ${r.machine.cores} cores, ` +
      `${r.machine.memGb} GB RAM, ${r.machine.platform}, Node ${r.machine.node}. Wall time ` +
      `${Math.round(r.wallSeconds)} s. The machine is shared: load average (1 / 5 / 15 min) ` +
      `${loads(r.load.start)} at the start, ${loads(r.load.end)} at the end, on ${r.machine.cores} cores.`,
    '',
    `PostgreSQL ${r.postgres.version}, ` +
      (r.postgres.origin === 'throwaway'
        ? 'a throwaway cluster the bench started on the same machine (Debian’s package: `initdb`, default ' +
          'settings, so `fsync` and `synchronous_commit` on, as durable as SQLite’s `synchronous=FULL`), '
        : 'the server of `MNEMO_BENCH_POSTGRES_URL`, ') +
      'reached over TCP on 127.0.0.1. mnemo connects as a role without `BYPASSRLS`, so row-level security ' +
      'is on, with its default pool (10 connections a process); every run is a fresh schema, dropped after it. ' +
      'The servers are `mnemo serve` children of the bench, as in the core section (`--observer external`, ' +
      '`MNEMO_INGEST_WORKERS` at its default), each with its own data directory and socket.',
    '',
    `### One process: ${int(r.events)} events, then recall`,
    '',
    `The same events (the core section’s corpus, ${int(r.corpusTurns)} distinct turns cycled, one owner) ` +
      'through one socket client in batches of 500, timed around each call; then `memory.recall` with ' +
      `\`limit: 10\` for ${r.queries.measured} queries after ${r.queries.warmup} unmeasured ones, one at a ` +
      'time. SQLite is the baseline, measured in the same run. Milliseconds.',
    '',
    '| engine | ingest events/s | ÷ SQLite | recall p50 | recall p95 | p95 ÷ SQLite | store (MB) | server peak RSS (MB) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...r.engines.map(
      (e) =>
        `| ${NAME[e.engine]} | ${int(e.ingest.perSecond)} | ${times(e.ingest.perSecond, base?.ingest.perSecond)} | ` +
        `${ms(e.recall.all.p50)} | ${ms(e.recall.all.p95)} | ${times(e.recall.all.p95, base?.recall.all.p95)} | ` +
        `${int(e.storeMb)} | ${e.serverPeakMb === null ? 'n/a' : int(e.serverPeakMb)} |`,
    ),
    '',
    `### Processes sharing one database: ${int(r.sharedEvents)} events`,
    '',
    `${r.shared[0]?.clients ?? 0} socket clients, each its own owner and an equal share of the events, all ` +
      'sending at once in batches of 500, split evenly over the processes (client j to process j mod n); ' +
      'throughput over the wall time from the first call to the last answer. The baseline is one ' +
      'PostgreSQL process in the same run; one SQLite process with the same clients is shown beside it.',
    '',
    '| engine | processes | clients | events/s | ÷ 1 PostgreSQL process |',
    '|---|---:|---:|---:|---:|',
    ...r.shared.map(
      (s) =>
        `| ${NAME[s.engine]} | ${s.processes} | ${s.clients} | ${int(s.ingest.perSecond)} | ` +
        `${times(s.ingest.perSecond, one?.ingest.perSecond)} |`,
    ),
    '<!-- bench:engines:end -->',
  ];
  return lines.join('\n');
}
