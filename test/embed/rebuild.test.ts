// The vector channel across restarts, model changes and client writes, on each engine's vector index
// (SQLite: sqlite-vec in a real file; PostgreSQL: pgvector on PGlite).
import { describe, expect, it } from 'vitest';
import { createClientActivity, createTurnGate, MAX_DEFER_MS, QUIET_MS } from '../../src/activity.js';
import { EMBED_WORKER_DEFAULTS } from '../../src/embed/embed.js';
import type { EventInput } from '../../src/index.js';
import { createManualTimers } from '../helpers/manual-timers.js';
import {
  ALICE,
  drain,
  embeddings,
  health,
  ids,
  ingest,
  minutes,
  open,
  recall,
  seeded,
  storedVectors,
  useVectorEngine,
  VECTOR_ENGINES,
  workerOf,
} from './harness.js';

describe.each(VECTOR_ENGINES)('on %s', (engine) => {
  useVectorEngine(engine);

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
        {
          event_id: 'a7',
          kind: 'note',
          role: 'system',
          at: minutes(300),
          text: 'The physician called back.',
        },
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
        {
          event_id: 'a9',
          kind: 'note',
          role: 'system',
          at: minutes(500),
          text: 'Espresso machine descaled.',
        },
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
      expect(await storedVectors()).toBe(embedded);
      expect(
        ids(await recall('alice', 'carro', events))
          .slice(0, 2)
          .sort(),
      ).toEqual(['a1', 'a4']);
    });

    it('starts over when the same model suddenly answers another dimension', async () => {
      const svc = await seeded();
      await ingest('alice', [
        {
          event_id: 'a8',
          kind: 'note',
          role: 'system',
          at: minutes(400),
          text: 'Concert tickets for Sunday.',
        },
      ] as EventInput[]);
      embeddings.push({ dimensions: 24 });
      const worker = workerOf(svc);
      expect(await worker.runOnce()).toMatchObject({
        outcome: 'reset',
        reason: expect.stringContaining('24 dimensions'),
      });
      expect((await health()).embedding).toMatchObject({ embedded: 0, dimensions: null });
      expect(await storedVectors()).toBeUndefined();
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
});
