// `npx tsx bench/observe.ts`: model calls and tokens per 1,000 events with the default batching, and the
// heuristic observer's publish throughput. Prints a Markdown section for docs/BENCHMARKS.md.
// It drives the worker and observers directly (not only the public methods) so a fake clock can stand in
// for the 30 s batch wait.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createOpenAiProvider, estimateTokens, loadPrompt } from '../src/llm/llm.js';
import { createLocalClient } from '../src/local-client.js';
import { silentLogger } from '../src/log.js';
import { createHeuristicObserver, proposeHeuristically } from '../src/observe/heuristic.js';
import { createModelObserver, renderBatch } from '../src/observe/model-observer.js';
import { createObservation, OBSERVE_DEFAULTS, type BatchEvent } from '../src/observe/observe.js';
import type { Observer } from '../src/observe/observer.js';
import { createMethodTable } from '../src/protocol/methods.js';
import { openMemory, type MemoryService } from '../src/service.js';
import { createWorker } from '../src/worker.js';
import { batchOf, startScriptedModel } from '../test/helpers/scripted-model.js';
import { createEventSource, loadCorpus, type BenchEvent } from './corpus.js';
import { int, row, str } from '../src/storage/rows.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OWNER = 'bench';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    throughput: { type: 'string', default: '10000' },
    data: { type: 'string', default: '../shared/data' },
  },
});
const modelEvents = Number(args.events);
const throughputEvents = Number(args.throughput);

type Stream = (
  i: number,
) => Omit<BenchEvent, 'kind' | 'role'> & { kind: string; role: string; task_id?: string };

/** Chat turns as they come (user/agent), or the same turns as tasks that end every 10 events. */
function streams(source: ReturnType<typeof createEventSource>): Array<[string, Stream]> {
  const chat: Stream = (i) => source.event(i);
  const tasks: Stream = (i) => {
    const e = source.event(i);
    const task = `task-${Math.floor(i / 10)}`;
    return i % 10 === 9
      ? {
          ...e,
          kind: 'task_result',
          role: 'system',
          task_id: task,
          text: `Task ${task} finished: ${e.text.slice(0, 200)}`,
        }
      : { ...e, task_id: task };
  };
  return [
    ['chat turns (LongMemEval + KdConv)', chat],
    ['agent tasks (a task_result every 10 events)', tasks],
  ];
}

async function openStore(dir: string, clock: { t: number }): Promise<MemoryService> {
  return openMemory({ config: { dataDir: dir, redactEmails: true }, now: () => clock.t });
}

async function ingest(service: MemoryService, stream: Stream, count: number): Promise<void> {
  const client = createLocalClient(createMethodTable(service));
  for (let from = 0; from < count; from += 500) {
    const events = Array.from({ length: Math.min(500, count - from) }, (_, k) => stream(from + k));
    await client.call('memory.events.ingest', { owner: OWNER, events });
  }
}

/** Steps the worker until every event is published, moving the fake clock past the batch wait when idle. */
async function drain(service: MemoryService, clock: { t: number }, observer: Observer) {
  const observation = createObservation({
    driver: service.driver,
    redactor: service.redactor,
    now: () => clock.t,
  });
  const worker = createWorker({ observation, observer, log: silentLogger() });
  let batches = 0;
  let seconds = 0;
  for (;;) {
    const started = performance.now();
    const outcome = await worker.step();
    seconds += (performance.now() - started) / 1000;
    if (outcome === 'published') batches++;
    else if (outcome !== 'idle') throw new Error(`batch ${outcome}`);
    else {
      const status = await observation.status(OWNER);
      if ((status.owners[0]?.pending_events ?? 0) === 0 && status.leased.length === 0) break;
      clock.t += OBSERVE_DEFAULTS.maxWaitMs;
    }
  }
  return { batches, seconds, status: await observation.status(OWNER) };
}

async function modelFigures(stream: Stream, prompt: string) {
  const model = await startScriptedModel([], {
    // The scripted model answers with the heuristic proposal for the batch it was shown.
    fallback: (body) => ({ json: proposeHeuristically(batchOf(body).events as BatchEvent[]) }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-observe-'));
  const clock = { t: Date.UTC(2026, 8, 17) };
  const service = await openStore(dir, clock);
  try {
    await ingest(service, stream, modelEvents);
    const observer = createModelObserver(createOpenAiProvider({ baseUrl: model.url, model: 'scripted' }));
    const { batches, status } = await drain(service, clock, observer);
    // A call per message: the same prompt with one event each.
    const promptTokens = estimateTokens(prompt);
    let perMessage = 0;
    for (let i = 0; i < modelEvents; i++) {
      const e = stream(i);
      const single: BatchEvent = {
        event_id: e.event_id,
        kind: e.kind as BatchEvent['kind'],
        role: e.role as BatchEvent['role'],
        at: new Date(e.at).toISOString(),
        text: e.text,
        session_id: e.session_id,
        task_id: e.task_id ?? null,
      };
      const batch = { batch_id: '', owner: OWNER, token: '', expires_at: '', events: [single] };
      perMessage += promptTokens + estimateTokens(renderBatch(batch));
    }
    const closed = await service.driver.all(
      row({ closed_by: str, n: int }),
      'SELECT closed_by, count(*) AS n FROM observation_batches GROUP BY closed_by ORDER BY n DESC',
    );
    const closedBy = closed.map((c) => `${c.closed_by} ${fmt((100 * c.n) / batches)}%`).join(', ');
    return { batches, usage: status.usage, perMessage, closedBy };
  } finally {
    await service.close();
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function heuristicThroughput(stream: Stream) {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-bench-observe-'));
  const clock = { t: Date.UTC(2026, 8, 17) };
  const service = await openStore(dir, clock);
  try {
    await ingest(service, stream, throughputEvents);
    const { batches, seconds, status } = await drain(service, clock, createHeuristicObserver());
    const memories = status.owners[0]?.memories ?? 0;
    return { batches, seconds, memories };
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main(): Promise<void> {
  const corpus = loadCorpus(resolve(ROOT, args.data));
  const source = createEventSource(corpus);
  const prompt = loadPrompt('observe', 1).text;
  const per = 1000 / modelEvents;
  const rows: string[] = [];
  for (const [name, stream] of streams(source)) {
    const m = await modelFigures(stream, prompt);
    const tokens = m.usage.prompt_tokens + m.usage.completion_tokens;
    rows.push(
      `| ${name} | ${fmt(m.usage.model_calls * per)} | ${fmt(m.usage.prompt_tokens * per)} | ${fmt(m.usage.completion_tokens * per)} | ${fmt(tokens * per)} | ${m.closedBy} | 1,000 | ${fmt(m.perMessage * per)} |`,
    );
  }
  const throughput: string[] = [];
  for (const [name, stream] of streams(source)) {
    const h = await heuristicThroughput(stream);
    throughput.push(
      `| ${name} | ${fmt(throughputEvents)} | ${fmt(h.batches)} | ${fmt(h.memories)} | ${fmt(h.seconds, 2)} | ${fmt(throughputEvents / h.seconds)} | ${fmt(h.memories / h.seconds)} |`,
    );
  }
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(
    [
      '## Observation',
      '',
      `Default batching (≤ ${OBSERVE_DEFAULTS.maxEvents} events, ≤ ${fmt(OBSERVE_DEFAULTS.maxBatchBytes)} B a batch, ≤ ${fmt(OBSERVE_DEFAULTS.maxEventBytes)} B an event, 30 s wait, at once on a terminal event) over ${fmt(modelEvents)} events, scaled to 1,000.`,
      'Calls are counted by the worker; tokens are what a scripted OpenAI-compatible server on 127.0.0.1 reported,',
      'which **estimates** them (≈ 1 token per CJK character, 0.3 per other character) over the exact prompt',
      '(the versioned `observe-v1` prompt plus the batch) and its answer. The scripted model answers with the',
      "heuristic observer's proposal, so completion tokens are indicative only; a real model writes more.",
      'A call-per-message system makes 1,000 calls per 1,000 events; its prompt tokens are estimated the same way',
      '(the same prompt with one event each, before any answer). "split" batches end where an event longer than',
      '2,400 B continues in the next batch (long LongMemEval assistant turns); "bytes" ones at the 12,000 B budget.',
      '',
      '| stream | model calls / 1,000 events | prompt tokens | completion tokens | total tokens | batches closed by | calls, call per message | prompt tokens, call per message |',
      '|---|---:|---:|---:|---:|---|---:|---:|',
      ...rows,
      '',
      `Heuristic observer publish throughput (no model): claim → propose → validate → publish in one SQLite`,
      `transaction (WAL, synchronous=FULL, temp file), ingest not included; ${cpu}, ${availableParallelism()} threads, Node ${process.versions.node}.`,
      '',
      '| stream | events | batches | memories | seconds | events/s | memories/s |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...throughput,
      '',
      'Reproduce: `npx tsx bench/observe.ts [--events 1000] [--throughput 10000]`.',
      '',
    ].join('\n'),
  );
}

await main();
