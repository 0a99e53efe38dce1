// The optional vector channel end to end on a real SQLite file: embedding worker, vec0 table, recall fusion,
// against a scripted embedding server over real HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClientActivity, createTurnGate, MAX_DEFER_MS, QUIET_MS } from '../../src/activity.js';
import {
  createEmbeddingWorker,
  EMBED_WORKER_DEFAULTS,
  createOpenAiEmbedder,
  type EmbedConfig,
  type EmbeddingStatus,
  type EmbeddingWorker,
  type EmbeddingWorkerOptions,
  type EmbedStep,
} from '../../src/embed/embed.js';
import type { EventInput } from '../../src/index.js';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import { silentLogger } from '../../src/log.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import { recallMemory } from '../../src/recall/recall.js';
import { RecallParamsSchema, type RecallResult } from '../../src/recall/schema.js';
import { openMemory, type MemoryService } from '../../src/service.js';
import { createObservationWorker } from '../../src/worker.js';
import { createManualTimers } from '../helpers/manual-timers.js';
import { startScriptedEmbeddings, type ScriptedEmbeddings } from '../helpers/scripted-embeddings.js';
import { createTempDirs } from '../helpers/temp.js';

const T0 = Date.parse('2026-09-01T09:00:00Z');
const minutes = (n: number) => T0 + n * 60_000;

const ALICE: EventInput[] = [
  {
    event_id: 'a1',
    session_id: 's1',
    kind: 'user_message',
    role: 'user',
    at: minutes(0),
    text: 'I parked the car in the garage near the office.',
  },
  {
    event_id: 'a2',
    session_id: 's2',
    kind: 'user_message',
    role: 'user',
    at: minutes(60),
    text: 'My puppy needs a walk every morning.',
  },
  {
    event_id: 'a3',
    session_id: 's2',
    kind: 'agent_reply',
    role: 'agent',
    at: minutes(61),
    text: 'Booked your flight to Shanghai for Friday.',
  },
  {
    event_id: 'a4',
    session_id: 's3',
    task_id: 't9',
    kind: 'user_message',
    role: 'user',
    at: minutes(120),
    text: '汽车保养预约在周六上午',
  },
  {
    event_id: 'a5',
    session_id: 's4',
    kind: 'user_message',
    role: 'user',
    at: minutes(180),
    text: 'I prefer a latte with oat milk.',
  },
  {
    event_id: 'a6',
    session_id: 's4',
    kind: 'task_result',
    role: 'system',
    at: minutes(181),
    text: 'Order placed.',
  },
] as EventInput[];

const BOB: EventInput[] = [
  {
    event_id: 'b1',
    kind: 'user_message',
    role: 'user',
    at: minutes(5),
    text: 'My automobile broke down on the highway.',
  },
] as EventInput[];

const dirs = createTempDirs();
let embeddings: ScriptedEmbeddings;
let service: MemoryService | undefined;
let client: LocalClient;
let dataDir: string;

beforeEach(async () => {
  embeddings = await startScriptedEmbeddings();
  dataDir = dirs.make();
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await embeddings.close();
  dirs.cleanup();
});

async function open(embed: Partial<EmbedConfig> | false = {}): Promise<MemoryService> {
  await service?.close();
  const config = {
    dataDir,
    redactEmails: true,
    ...(embed === false
      ? {}
      : { embed: { baseUrl: embeddings.url, model: 'concepts', timeoutMs: 2_000, weight: 1, ...embed } }),
  };
  service = await openMemory({ config });
  client = createLocalClient(createMethodTable(service), { checkResults: true });
  return service;
}

async function ingest(owner: string, events: EventInput[]): Promise<void> {
  const out = await client.call<{ rejected: unknown[] }>('memory.events.ingest', { owner, events });
  expect(out.rejected).toEqual([]);
}

/** Publishes the heuristic observer's memories (the terminal event a6 closes the batch). */
async function observe(svc: MemoryService): Promise<void> {
  const worker = createObservationWorker(svc, undefined);
  while ((await worker.step()) !== 'idle');
}

const workerOf = (
  svc: MemoryService,
  options: Partial<Omit<EmbeddingWorkerOptions, 'driver' | 'log'>> = {},
): EmbeddingWorker => {
  const provider = options.provider ?? svc.embedding?.provider;
  if (!provider) throw new Error('no embedding configured');
  return createEmbeddingWorker({ ...options, driver: svc.driver, provider, log: silentLogger() });
};

/** Runs the worker until nothing is pending; returns the steps. */
async function drain(worker: EmbeddingWorker): Promise<EmbedStep[]> {
  const steps: EmbedStep[] = [];
  for (let i = 0; i < 50; i++) {
    const step = await worker.runOnce();
    steps.push(step);
    if (step.outcome === 'idle') return steps;
    if (step.outcome === 'failed') throw new Error(`embedding failed: ${step.message}`);
  }
  throw new Error('the worker did not settle');
}

const recall = (owner: string, query: string, extra: Record<string, unknown> = {}) =>
  client.call<RecallResult>('memory.recall', { owner, query, ...extra });
const ids = (r: RecallResult) => r.items.map((i) => i.id);
const health = () => client.call<{ embedding?: EmbeddingStatus }>('health');
const count = async (sql: string) => (await service?.driver.get<{ n: number }>(sql))?.n ?? 0;

async function seeded(embed: Partial<EmbedConfig> = {}): Promise<MemoryService> {
  const svc = await open(embed);
  await ingest('alice', ALICE);
  await ingest('bob', BOB);
  await observe(svc);
  await drain(workerOf(svc));
  return svc;
}

describe('vector channel: off by default / 默认关闭', () => {
  it('creates no vector table, calls no server and recalls exactly as before', async () => {
    const svc = await open(false);
    await ingest('alice', ALICE);
    await observe(svc);
    expect(svc.embedding).toBeUndefined();
    const result = await recall('alice', 'car garage');
    expect(result.items[0]?.id).toBe('a1');
    expect(result.items.every((i) => i.channels.vector === undefined)).toBe(true);
    expect(result).not.toHaveProperty('degraded');
    const direct = await recallMemory(
      svc.driver,
      RecallParamsSchema.parse({ owner: 'alice', query: 'car garage' }),
    );
    expect(ids(direct)).toEqual(ids(result));
    expect(await count(`SELECT count(*) AS n FROM sqlite_master WHERE name LIKE 'vec_%'`)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM embedding_state')).toBe(0);
    expect(await health()).not.toHaveProperty('embedding');
    expect(embeddings.requests).toHaveLength(0);
  });
});

describe('vector channel: worker and recall / 向量召回', () => {
  it('embeds events and memories in the background, in batches, with the stored (redacted) text', async () => {
    const svc = await open();
    await ingest('alice', [
      ...ALICE,
      {
        event_id: 'k1',
        kind: 'note',
        role: 'system',
        at: minutes(200),
        text: 'key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789AB',
      },
    ] as EventInput[]);
    await observe(svc);
    const before = (await health()).embedding;
    expect(before).toMatchObject({ model: 'concepts', dimensions: null, embedded: 0, failures: 0 });
    expect(before?.pending).toBeGreaterThan(ALICE.length);
    // Nothing to search yet: recall makes no embedding call.
    expect((await recall('alice', 'carro')).items).toEqual([]);
    expect(embeddings.requests).toHaveLength(0);

    const worker = workerOf(svc, { batchSize: 4 });
    const steps = await drain(worker);
    expect(steps[0]).toEqual({ outcome: 'reset', reason: 'first run' });
    expect(steps.filter((s) => s.outcome === 'embedded').length).toBeGreaterThan(1);
    const after = (await health()).embedding;
    expect(after).toMatchObject({ dimensions: 32, pending: 0, failures: 0, last_error: null });
    expect(after?.embedded).toBe(before?.pending);
    const inputs = embeddings.inputs();
    expect(inputs).toContain('I prefer a latte with oat milk.');
    expect(inputs.filter((t) => t === 'I prefer a latte with oat milk.').length).toBeGreaterThan(1); // event + memory
    expect(inputs.join('\n')).not.toContain('sk-proj-');
    expect(embeddings.requests.every((r) => r.body.input.length <= 4)).toBe(true);
    expect(await count('SELECT count(*) AS n FROM vec_docs')).toBe(after?.embedded);
  });

  it('finds a paraphrase that BM25 alone misses and reports its vector rank', async () => {
    const svc = await seeded();
    const plain = await recallMemory(
      svc.driver,
      RecallParamsSchema.parse({ owner: 'alice', query: 'carro' }),
    );
    expect(plain.items).toEqual([]);
    // Nearest first: the two car events ("car", "汽车") before the others, with only a vector rank.
    const result = await recall('alice', 'carro', { kinds: ['event'] });
    expect(ids(result).slice(0, 2).sort()).toEqual(['a1', 'a4']);
    expect(result.items.slice(0, 2).map((i) => i.channels)).toEqual([{ vector: 1 }, { vector: 2 }]);
    expect(result).not.toHaveProperty('degraded');
    // A memory, found by a word it does not contain / 记忆也有向量
    const preference = await recall('alice', 'espresso', { kinds: ['preference'] });
    expect(preference.items[0]).toMatchObject({
      kind: 'preference',
      source_refs: ['a5'],
      channels: { vector: 1 },
    });
    // Both channels agree: fused near the top (the Chinese car event comes in too, through translation).
    const both = await recall('alice', 'car');
    expect(ids(both).slice(0, 2)).toContain('a1');
    expect(both.items.find((i) => i.id === 'a1')?.channels).toMatchObject({
      bm25: expect.any(Number),
      vector: expect.any(Number),
    });
  });

  it("never returns another owner's vectors / 不跨用户", async () => {
    await seeded();
    const alice = await recall('alice', 'automobile broke down highway');
    expect(ids(alice)).not.toContain('b1');
    const bob = await recall('bob', '汽车');
    expect(ids(bob)).toEqual(['b1']);
    // 汽车 finds "automobile" by vector, and by its translation too.
    expect(bob.items[0]?.channels.vector).toBe(1);
    expect((await recall('nobody', 'carro')).items).toEqual([]);
  });

  it('applies the same filters as the other channels / 过滤条件一致', async () => {
    await seeded();
    const events = { kinds: ['event'] };
    expect(ids(await recall('alice', 'carro', { ...events, session_id: 's3' }))).toEqual(['a4']);
    expect(ids(await recall('alice', 'carro', { ...events, task_id: 't9' }))).toEqual(['a4']);
    const from = new Date(minutes(100)).toISOString();
    expect(ids(await recall('alice', 'carro', { ...events, from })).sort()).toEqual(['a4', 'a5', 'a6']);
    const to = new Date(minutes(30)).toISOString();
    expect(ids(await recall('alice', 'carro', { ...events, to }))).toEqual(['a1']);
    const kinds = await recall('alice', 'carro', { kinds: ['fact', 'procedure'] });
    expect(kinds.items.every((i) => i.kind === 'fact' || i.kind === 'procedure')).toBe(true);
    expect(ids(await recall('alice', 'carro', { kinds: ['event'], limit: 2 })).sort()).toEqual(['a1', 'a4']);
  });

  it('embeds each query once while it stays in the cache', async () => {
    await seeded();
    const calls = embeddings.requests.length;
    await recall('alice', 'carro');
    await recall('alice', 'carro', { limit: 3 });
    expect(embeddings.requests.length).toBe(calls + 1);
    expect(embeddings.requests.at(-1)?.body.input).toEqual(['carro']);
  });
});

describe('vector channel: failures / 故障', () => {
  it('retries 429 and 5xx, then backs off with the error kept; nothing is lost / 重试与退避', async () => {
    const svc = await open();
    await ingest('alice', ALICE);
    const delays: number[] = [];
    const provider = createOpenAiEmbedder({
      baseUrl: embeddings.url,
      model: 'concepts',
      sleep: async (ms) => void delays.push(ms),
    });
    const worker = workerOf(svc, { provider });
    expect(await worker.runOnce()).toMatchObject({ outcome: 'reset' });
    embeddings.push({ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 });
    expect(await worker.runOnce()).toMatchObject({
      outcome: 'failed',
      code: 'EMBEDDING_FAILED',
      failures: 1,
      retryInMs: 10_000,
    });
    expect(delays).toEqual([1_000, 2_000, 4_000]);
    embeddings.push({ status: 429 }, { status: 429 }, { status: 429 }, { status: 429 });
    expect(await worker.runOnce()).toMatchObject({ outcome: 'failed', failures: 2, retryInMs: 20_000 });
    expect((await health()).embedding).toMatchObject({
      embedded: 0,
      pending: ALICE.length,
      failures: 2,
      last_error: 'EMBEDDING_FAILED: the embedding endpoint answered HTTP 429',
    });
    embeddings.push({ status: 429, headers: { 'retry-after': '7' } });
    expect(await worker.runOnce()).toMatchObject({ outcome: 'embedded', docs: ALICE.length });
    expect(delays.at(-1)).toBe(7_000);
    expect((await health()).embedding).toMatchObject({
      embedded: ALICE.length,
      failures: 0,
      last_error: null,
    });
  });

  it('answers recall from the other channels when the embedding call fails, and says so', async () => {
    await seeded();
    embeddings.push({ status: 500 });
    const result = await recall('alice', 'car garage');
    expect(result.status).toBe('ready');
    expect(result.items[0]).toMatchObject({ id: 'a1', channels: { bm25: 1 } });
    expect(result.items.every((i) => i.channels.vector === undefined)).toBe(true);
    expect(result.degraded).toEqual([
      { channel: 'vector', code: 'EMBEDDING_FAILED', message: expect.stringContaining('HTTP 500') },
    ]);
    expect(embeddings.requests.at(-1)?.body.input).toEqual(['car garage']);
    // A failure is not cached: the next call embeds again.
    expect(await recall('alice', 'car garage')).not.toHaveProperty('degraded');
  });

  it('regression for issue 8: shows no provider answer to clients, redacts the query, caches per owner', async () => {
    await seeded();
    embeddings.push({ status: 500, raw: 'upstream trace: db=prod-embeddings pass=Pr0v1der!' });
    const failed = await recall('alice', 'car garage');
    expect(failed.degraded).toEqual([
      { channel: 'vector', code: 'EMBEDDING_FAILED', message: 'the embedding endpoint answered HTTP 500' },
    ]);
    expect(JSON.stringify(failed)).not.toContain('upstream');
    const key = `sk-proj-${'Qm4Nv8Tx'.repeat(4)}`;
    const before = embeddings.requests.length;
    await recall('alice', `car garage ${key}`);
    expect(embeddings.requests.at(-1)?.body.input).toEqual(['car garage [redacted:api_key]']);
    // The same text for another owner is embedded again: cached vectors are one owner's own.
    await recall('bob', `car garage ${key}`);
    await recall('alice', `car garage ${key}`);
    expect(embeddings.requests.length - before).toBe(2);
  });

  it('waits for the query embedding no longer than its timeout / 超时', async () => {
    await seeded({ timeoutMs: 150 });
    embeddings.push({ hang: true });
    const result = await recall('alice', 'car garage');
    expect(result.items[0]?.id).toBe('a1');
    expect(result.degraded).toEqual([
      {
        channel: 'vector',
        code: 'EMBEDDING_TIMEOUT',
        message: 'the embedding endpoint did not answer in time',
      },
    ]);
  });

  it('refuses a malformed answer with a clear error and writes nothing / 响应格式错误', async () => {
    const svc = await open();
    await ingest('alice', ALICE);
    const worker = workerOf(svc);
    await worker.runOnce();
    embeddings.push({ raw: '{"data":[{"index":0,"embedding":[0.1,0.2]}]}' });
    const step = await worker.runOnce();
    expect(step).toMatchObject({ outcome: 'failed', code: 'EMBEDDING_FAILED' });
    expect(step.outcome === 'failed' && step.message).toMatch(/not usable: 1 vectors for 6 inputs/);
    expect((await health()).embedding).toMatchObject({
      embedded: 0,
      pending: ALICE.length,
      dimensions: null,
    });
    expect(await count(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'vec_docs'`)).toBe(0);
  });
});

describe('vector channel: rebuilds and restarts / 重建与重启', () => {
  it('keeps vectors across a restart and embeds only what is new', async () => {
    await seeded();
    const embedded = (await health()).embedding?.embedded ?? 0;
    const calls = embeddings.requests.length;
    const texts = embeddings.inputs().length;
    const svc = await open();
    expect((await health()).embedding).toMatchObject({ embedded, pending: 0, dimensions: 32 });
    expect(await workerOf(svc).runOnce()).toEqual({ outcome: 'idle' });
    expect(embeddings.requests.length).toBe(calls);
    await ingest('alice', [
      { event_id: 'a7', kind: 'note', role: 'system', at: minutes(300), text: 'The physician called back.' },
    ] as EventInput[]);
    expect(await drain(workerOf(svc))).toEqual([
      { outcome: 'embedded', docs: 1, vectors: 1 },
      { outcome: 'idle' },
    ]);
    expect(embeddings.inputs().slice(texts)).toEqual(['The physician called back.']);
    expect((await recall('alice', 'doctor')).items[0]).toMatchObject({ id: 'a7', channels: { vector: 1 } });
  });

  it('keeps working with the channel switched off, and catches up when it is back on / 关闭后再开启', async () => {
    await seeded();
    const embedded = (await health()).embedding?.embedded ?? 0;
    // The store now holds a vec0 table, but without a provider sqlite-vec is not even loaded.
    await open(false);
    await ingest('alice', [
      { event_id: 'a9', kind: 'note', role: 'system', at: minutes(500), text: 'Espresso machine descaled.' },
    ] as EventInput[]);
    const off = await recall('alice', 'espresso');
    expect(off.items[0]).toMatchObject({ id: 'a9', channels: { bm25: 1 } });
    expect(off.items.every((i) => i.channels.vector === undefined)).toBe(true);
    const svc = await open();
    expect((await health()).embedding).toMatchObject({ embedded, pending: 1 });
    await drain(workerOf(svc));
    expect((await health()).embedding).toMatchObject({ embedded: embedded + 1, pending: 0 });
  });

  it('rebuilds when the model or the dimension changes, never mixing vectors / 模型变更重建', async () => {
    await seeded();
    const embedded = (await health()).embedding?.embedded ?? 0;
    // Another dimension: the old vectors are unusable at once and are not searched.
    let svc = await open({ dimensions: 16 });
    expect((await health()).embedding).toMatchObject({ embedded: 0, pending: embedded, dimensions: null });
    const calls = embeddings.requests.length;
    expect((await recall('alice', 'carro')).items).toEqual([]);
    expect(embeddings.requests.length).toBe(calls);
    const steps = await drain(workerOf(svc));
    expect(steps[0]).toMatchObject({
      outcome: 'reset',
      reason: expect.stringContaining('concepts/native → concepts/16'),
    });
    expect((await health()).embedding).toMatchObject({ embedded, pending: 0, dimensions: 16 });
    expect(embeddings.requests.slice(calls).every((r) => r.body.dimensions === 16)).toBe(true);
    const events = { kinds: ['event'] };
    expect(
      ids(await recall('alice', 'carro', events))
        .slice(0, 2)
        .sort(),
    ).toEqual(['a1', 'a4']);

    // Another model.
    svc = await open({ model: 'concepts-v2' });
    await drain(workerOf(svc));
    expect((await health()).embedding).toMatchObject({ model: 'concepts-v2', embedded, dimensions: 32 });
    expect(await count('SELECT count(*) AS n FROM vec_docs')).toBe(embedded);
    expect(
      ids(await recall('alice', 'carro', events))
        .slice(0, 2)
        .sort(),
    ).toEqual(['a1', 'a4']);
  });

  it('starts over when the same model suddenly answers another dimension', async () => {
    const svc = await seeded();
    await ingest('alice', [
      { event_id: 'a8', kind: 'note', role: 'system', at: minutes(400), text: 'Concert tickets for Sunday.' },
    ] as EventInput[]);
    embeddings.push({ dimensions: 24 });
    const worker = workerOf(svc);
    expect(await worker.runOnce()).toMatchObject({
      outcome: 'reset',
      reason: expect.stringContaining('24 dimensions'),
    });
    expect((await health()).embedding).toMatchObject({ embedded: 0, dimensions: null });
    expect(await count(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'vec_docs'`)).toBe(0);
    await drain(worker);
    expect((await recall('alice', 'piano')).items[0]).toMatchObject({ id: 'a8', channels: { vector: 1 } });
  });
});

describe('vector channel: yielding to client writes / 让路给客户端写入', () => {
  it('embeds nothing while a client write runs or within the quiet window, then catches up', async () => {
    const svc = await open();
    await ingest('alice', ALICE);
    const timers = createManualTimers();
    const activity = createClientActivity({ now: timers.now });
    const gate = createTurnGate({ activity, name: 'embedding', sleep: timers.sleep });
    const worker = workerOf(svc, { gate, sleep: timers.sleep });
    const end = activity.begin();
    let next = timers.nextSleep();
    worker.start();
    try {
      expect(await next).toBe(MAX_DEFER_MS);
      expect(embeddings.requests).toHaveLength(0);
      next = timers.nextSleep();
      end();
      expect(await next).toBe(QUIET_MS);
      next = timers.nextSleep();
      timers.advance(QUIET_MS);
      expect(await next).toBe(EMBED_WORKER_DEFAULTS.idleMs);
      expect(embeddings.requests).toHaveLength(1);
      expect((await health()).embedding).toMatchObject({ embedded: ALICE.length, pending: 0 });
    } finally {
      await worker.stop();
    }
  });
});
