// The observation worker yields to client writes: a quiet window after each, at most 5 s of deferral.
// The loop runs on a real store; its clock and sleeps are manual, so nothing depends on machine speed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClientActivity, createTurnGate, MAX_DEFER_MS, QUIET_MS } from '../../src/activity.js';
import { loadConfig } from '../../src/config.js';
import { createLocalClient } from '../../src/local-client.js';
import { silentLogger } from '../../src/log.js';
import { createHeuristicObserver } from '../../src/observe/heuristic.js';
import type { ObservationStatus } from '../../src/observe/observe.js';
import type { Observer } from '../../src/observe/observer.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createWorker, type Worker } from '../../src/worker.js';
import { createManualTimers, type ManualTimers } from '../helpers/manual-timers.js';
import { createTempDirs } from '../helpers/temp.js';
import { event, openFixture, type ObserveFixture } from './fixture.js';
import { ENGINES, engineConfig } from '../helpers/engines.js';

describe.each(ENGINES)('on %s', (engine) => {
  const IDLE_MS = 1_000;

  let f: ObserveFixture;
  let timers: ManualTimers;
  let worker: Worker | undefined;
  beforeEach(async () => {
    f = await openFixture({ engine });
    timers = createManualTimers();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await f.close();
  });

  /** The heuristic observer, counting its batches. */
  function countingObserver(): Observer & { batches: string[] } {
    const heuristic = createHeuristicObserver();
    const batches: string[] = [];
    return {
      name: 'counting',
      batches,
      propose(batch, signal) {
        batches.push(batch.batch_id);
        return heuristic.propose(batch, signal);
      },
    };
  }

  function startWorker(observer: Observer) {
    const activity = createClientActivity({ now: timers.now });
    const gate = createTurnGate({ activity, name: 'observation', sleep: timers.sleep });
    worker = createWorker({
      observation: f.observation,
      observer,
      log: silentLogger(),
      idleMs: IDLE_MS,
      gate,
      sleep: timers.sleep,
    });
    return activity;
  }

  /** Batches closed at once: each ends with a terminal event. */
  async function ingestTurns(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      await f.ingest('u', [
        event(`I prefer tea, turn ${i}.`),
        event('done', { kind: 'task_result', role: 'system' }),
      ]);
    }
  }

  describe('the observation worker yields to client writes / 让路给客户端写入', () => {
    it('runs every ready batch at once when no client writes, then pauses as before', async () => {
      await ingestTurns(3);
      const observer = countingObserver();
      startWorker(observer);
      const idle = timers.nextSleep();
      worker?.start();
      expect(await idle).toBe(IDLE_MS);
      expect(observer.batches).toHaveLength(3);
      expect(timers.sleeps).toEqual([IDLE_MS]);
    });

    it('defers while a write is in flight and within the quiet window, then runs', async () => {
      await ingestTurns(1);
      const observer = countingObserver();
      const activity = startWorker(observer);
      const end = activity.begin();
      let next = timers.nextSleep();
      worker?.start();
      expect(await next).toBe(MAX_DEFER_MS);
      expect(observer.batches).toEqual([]);

      timers.advance(1_000);
      next = timers.nextSleep();
      end();
      expect(await next).toBe(QUIET_MS);
      timers.advance(QUIET_MS - 1);
      next = timers.nextSleep();
      timers.advance(1);
      expect(await next).toBe(IDLE_MS);
      expect(observer.batches).toHaveLength(1);
      expect((await f.observation.status('u')).owners[0]).toMatchObject({
        pending_events: 0,
        publish_seq: 1,
      });
    });

    it('runs one batch per maximum deferral under continuous writes, and catches up once they stop', async () => {
      await ingestTurns(3);
      const observer = countingObserver();
      const activity = startWorker(observer);
      const end = activity.begin();
      let next = timers.nextSleep();
      worker?.start();
      expect(await next).toBe(MAX_DEFER_MS);
      for (const expected of [1, 2]) {
        next = timers.nextSleep();
        timers.advance(MAX_DEFER_MS);
        expect(await next).toBe(MAX_DEFER_MS);
        expect(observer.batches).toHaveLength(expected);
      }
      next = timers.nextSleep();
      end();
      expect(await next).toBe(QUIET_MS);
      next = timers.nextSleep();
      timers.advance(QUIET_MS);
      expect(await next).toBe(IDLE_MS);
      expect(observer.batches).toHaveLength(3);
    });

    it('stops while deferring, before the store closes', async () => {
      await ingestTurns(1);
      const observer = countingObserver();
      const activity = startWorker(observer);
      activity.begin();
      const next = timers.nextSleep();
      worker?.start();
      await next;
      await worker?.stop();
      expect(observer.batches).toEqual([]);
      expect((await f.observation.status('u')).leased).toEqual([]);
    });
  });

  describe('client writes through the server’s method table / 经由方法表', () => {
    const dirs = createTempDirs();
    let server: RunningServer | undefined;
    let drop: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await server?.close();
      await drop?.();
      server = undefined;
      drop = undefined;
      dirs.cleanup();
    });

    it('marks memory.events.ingest and timeline.append as client writes; reads are not', async () => {
      const store = await engineConfig(engine);
      const config = loadConfig({ dataDir: dirs.make(), http: false, observer: 'external' }, {});
      server = await startServer({ ...config, ...store.config }, silentLogger(), { checkResults: true });
      drop = store.drop;
      const client = createLocalClient(server.table, { checkResults: true });
      let settled = 0;
      server.activity.onSettled(() => settled++);
      await client.call('memory.events.ingest', { owner: 'u', events: [event('hello')] });
      expect(settled).toBe(1);
      await client.call('timeline.append', { owner: 'u', id: 't1', kind: 'note', text: 'a note' });
      expect(settled).toBe(2);
      await client.call('memory.recall', { owner: 'u', query: 'hello' });
      await client.call('memory.observation.claim', { owner: 'u' });
      expect(settled).toBe(2);
      expect(server.activity.snapshot().inFlight).toBe(0);
      // With --observer external mnemo runs no worker, so the status does not speak of one.
      const status = await client.call<ObservationStatus>('memory.observation.status', {});
      expect(status.deferring_to_clients).toBeUndefined();
    });
  });
});
