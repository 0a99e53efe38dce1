// The optional vector channel end to end on each engine's vector index (SQLite: sqlite-vec in a real file;
// PostgreSQL: pgvector on PGlite): embedding worker, vector table, recall fusion, against a scripted
// embedding server over real HTTP.
import { describe, expect, it } from 'vitest';
import { createOpenAiEmbedder } from '../../src/embed/embed.js';
import type { EventInput } from '../../src/index.js';
import { recallMemory } from '../../src/recall/recall.js';
import { RecallParamsSchema } from '../../src/recall/schema.js';
import { withOwnerScope } from '../../src/storage/scope.js';
import { sqlFirst } from '../helpers/sql.js';
import {
  ALICE,
  currentEngine,
  drain,
  embeddings,
  health,
  ids,
  ingest,
  minutes,
  observe,
  open,
  recall,
  seeded,
  service,
  storedVectors,
  useVectorEngine,
  VECTOR_ENGINES,
  workerOf,
} from './harness.js';

const count = async (sql: string) =>
  service ? ((await sqlFirst<{ n: number }>(service.driver, sql))?.n ?? 0) : 0;

describe.each(VECTOR_ENGINES)('on %s', (engine) => {
  useVectorEngine(engine);

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
      expect(await storedVectors()).toBeUndefined();
      if (currentEngine() === 'sqlite')
        await expect(count('SELECT vec_version() AS n')).rejects.toThrow(/no such function/);
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
      expect(await storedVectors()).toBe(after?.embedded);
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
      // On PostgreSQL row-level security is a second wall: a scope without alice sees none of her vectors.
      if (currentEngine() === 'pglite') {
        const all = (await storedVectors()) ?? 0;
        expect(all).toBeGreaterThan(1);
        expect(await withOwnerScope(['nobody'], storedVectors)).toBe(0);
        expect(await withOwnerScope(['bob'], storedVectors)).toBeLessThan(all);
      }
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
      expect(ids(await recall('alice', 'carro', { kinds: ['event'], limit: 2 })).sort()).toEqual([
        'a1',
        'a4',
      ]);
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
      expect(await storedVectors()).toBeUndefined();
    });
  });
});
