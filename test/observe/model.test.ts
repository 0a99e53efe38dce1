// Issue 4: the model path end to end — worker, model observer, OpenAI-compatible provider, scripted HTTP model.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiProvider, loadPrompt } from '../../src/llm/llm.js';
import { silentLogger } from '../../src/log.js';
import { createHeuristicObserver } from '../../src/observe/heuristic.js';
import { createModelObserver } from '../../src/observe/model-observer.js';
import type { Observer } from '../../src/observe/observer.js';
import type { RecallResult } from '../../src/recall/schema.js';
import { createWorker } from '../../src/worker.js';
import { batchOf, startScriptedModel, type ChatBody, type ScriptedModel } from '../helpers/scripted-model.js';
import { createTempDirs } from '../helpers/temp.js';
import { event, openFixture, type ObserveFixture } from './fixture.js';
import { sqlRows } from '../helpers/sql.js';
import { ENGINES, engineConfig } from '../helpers/engines.js';

describe.each(ENGINES)('on %s', (engine) => {
  let f: ObserveFixture;
  let model: ScriptedModel;
  beforeEach(async () => {
    f = await openFixture({ engine });
    model = await startScriptedModel();
  });
  afterEach(async () => {
    await model.close();
    await f.close();
  });

  const modelObserver = (timeoutMs = 5_000): Observer =>
    createModelObserver(
      createOpenAiProvider({
        baseUrl: model.url,
        model: 'scripted',
        timeoutMs,
        sleep: async () => undefined,
      }),
    );

  const workerWith = (observer: Observer, fixture = f) =>
    createWorker({ observation: fixture.observation, observer, log: silentLogger() });

  /** A proposal the validator accepts: one preference quoting the user, everything else discarded. */
  function goodProposal(body: ChatBody) {
    const { events } = batchOf(body);
    const user = events.find((e) => e.role === 'user');
    return {
      dispositions: events.map((e) =>
        e === user
          ? { event_id: e.event_id, action: 'cited' }
          : { event_id: e.event_id, action: 'discarded', reason: 'no content' },
      ),
      memories: user
        ? [
            {
              kind: 'preference',
              text: 'Prefers dark mode in every editor.',
              sources: [user.event_id],
              quotes: [{ event_id: user.event_id, text: 'I prefer dark mode' }],
              cues: ['theme', '主题'],
            },
          ]
        : [],
    };
  }

  async function ingestTurn() {
    await f.ingest('u', [
      event('I prefer dark mode in every editor. 以后都用深色主题。', { event_id: 'u1', session_id: 's1' }),
      event('Switched VS Code to dark mode.', {
        event_id: 'a1',
        kind: 'task_result',
        role: 'agent',
        session_id: 's1',
      }),
    ]);
  }

  const lastFailure = async () => (await f.observation.status('u')).failed[0]?.last_failures[0];

  describe('model observer through the worker / 模型观察', () => {
    beforeEach(ingestTurn);

    it('publishes a good proposal; the model sees the versioned prompt and only the batch', async () => {
      model.push((body) => ({ json: goodProposal(body) }));
      expect(await workerWith(modelObserver()).step()).toBe('published');
      const [request] = model.requests;
      expect(request?.body.messages[0]).toEqual({ role: 'system', content: loadPrompt('observe', 1).text });
      expect(batchOf(request?.body as ChatBody).events.map((e) => e.event_id)).toEqual(['u1', 'a1']);
      expect(request?.body.messages[1]?.content).not.toContain('"owner"');
      const status = await f.observation.status('u');
      expect(status.usage).toEqual({ batches: 1, model_calls: 1, ...model.usage });
      const recall = await f.client.call<RecallResult>('memory.recall', {
        owner: 'u',
        query: 'dark mode',
        kinds: ['preference'],
        wait_ms: 60_000,
      });
      expect(recall.items[0]).toMatchObject({ kind: 'preference', status: 'active', source_refs: ['u1'] });
    });

    type Mutation = (p: ReturnType<typeof goodProposal>) => void;
    const invalid: Array<[string, Mutation, RegExp]> = [
      ['an uncovered event / 未覆盖', (p) => void p.dispositions.pop(), /neither cited nor discarded/],
      [
        'a source outside the batch / 来源越界',
        (p) => void p.memories[0]?.sources.push('e-from-elsewhere'),
        /not an event of this batch/,
      ],
      [
        'a quote that is not verbatim / 引文非原文',
        (p) => void (p.memories[0]?.quotes[0] && (p.memories[0].quotes[0].text = 'I like dark mode')),
        /not verbatim/,
      ],
      [
        'a preference without a user quote / 偏好无用户原话',
        (p) => void (p.memories[0] && (p.memories[0].quotes = [])),
        /verbatim quote from a user event/,
      ],
      [
        'an unknown kind / 未知类型',
        (p) => void (p.memories[0] && (p.memories[0].kind = 'belief')),
        /unknown memory kind/,
      ],
    ];

    it.each(invalid)('refuses %s and backs the batch off', async (_name, mutate, reason) => {
      model.push((body) => {
        const p = goodProposal(body);
        mutate(p);
        return { json: p };
      });
      expect(await workerWith(modelObserver()).step()).toBe('refused');
      expect(await lastFailure()).toMatchObject({
        code: 'PROPOSAL_INVALID',
        reason: expect.stringMatching(reason),
      });
      expect(await f.count('SELECT count(*) AS n FROM memories')).toBe(0);
      // Tokens spent on a refused proposal still count.
      expect((await f.observation.status('u')).usage.model_calls).toBe(1);
      expect(await f.observation.claim()).toBeNull();
      f.clock.advance(10_000);
      model.push((body) => ({ json: goodProposal(body) }));
      expect(await workerWith(modelObserver()).step()).toBe('published');
    });

    it('fails the batch on a model timeout / 模型超时', async () => {
      model.push({ hang: true });
      expect(await workerWith(modelObserver(100)).step()).toBe('failed');
      expect(await lastFailure()).toMatchObject({ code: 'MODEL_TIMEOUT' });
      expect((await f.observation.status('u')).usage.model_calls).toBe(1);
    });

    it('rides out a 429 / 限流后重试', async () => {
      model.push({ status: 429, headers: { 'retry-after': '1' } }, (body) => ({ json: goodProposal(body) }));
      expect(await workerWith(modelObserver()).step()).toBe('published');
      expect((await f.observation.status('u')).usage.model_calls).toBe(2);
    });

    it('fails the batch on malformed JSON and records the tokens / 非法 JSON', async () => {
      model.push({ content: '{"dispositions": [ oops' });
      expect(await workerWith(modelObserver()).step()).toBe('failed');
      expect(await lastFailure()).toMatchObject({
        code: 'MODEL_ERROR',
        reason: expect.stringMatching(/malformed JSON/),
      });
      const usage = (await f.observation.status('u')).usage;
      expect(usage.model_calls).toBe(1);
      expect(usage.prompt_tokens).toBeGreaterThan(0);
    });

    it('accepts JSON wrapped in a Markdown fence', async () => {
      model.push((body) => ({ content: `\`\`\`json\n${JSON.stringify(goodProposal(body))}\n\`\`\`` }));
      expect(await workerWith(modelObserver()).step()).toBe('published');
    });

    it('gives the lease back without a failure when stopped mid-call / 停止时归还租约', async () => {
      model.push({ hang: true });
      const worker = workerWith(modelObserver());
      worker.start();
      while (model.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
      await worker.stop();
      expect((await f.observation.status('u')).failed).toEqual([]);
      expect(await f.observation.claim()).not.toBeNull();
    });
  });

  describe('a crash between claim and commit / 领取后崩溃', () => {
    const dirs = createTempDirs();
    afterEach(() => dirs.cleanup());

    it('another worker commits after the lease expires; the crashed worker’s token is refused', async () => {
      const dir = dirs.make();
      const path = `${dir}/mnemo.sqlite3`;
      // Two processes on one store: the SQLite file, or one PostgreSQL schema.
      const shared = await engineConfig(engine);
      const a = await openFixture({ engine, store: shared.config, databasePath: path, dataDir: dir });
      await a.ingest('u', [
        event('I prefer dark mode in every editor.', { event_id: 'u1' }),
        event('done', { event_id: 'a1', kind: 'task_result', role: 'system' }),
      ]);
      const claimed = await a.observation.claim();
      if (!claimed) throw new Error('expected a batch');
      await a.close(); // the process dies holding the lease

      const b = await openFixture({ engine, store: shared.config, databasePath: path, dataDir: dir });
      try {
        b.clock.set(a.clock.now() + 60_000);
        model.push((body) => ({ json: goodProposal(body) }));
        expect(await workerWith(modelObserver(), b).step()).toBe('idle');
        b.clock.set(a.clock.now() + 120_000);
        expect(await workerWith(modelObserver(), b).step()).toBe('published');
        const late = b.observation.commit({
          batch_id: claimed.batch_id,
          token: claimed.token,
          proposal: goodProposal(model.requests[0]?.body as ChatBody),
        });
        await expect(late).rejects.toMatchObject({ code: 'LEASE_LOST' });
        expect(await b.count('SELECT count(*) AS n FROM memories')).toBe(1);
        expect((await b.observation.status('u')).owners[0]?.publish_seq).toBe(1);
      } finally {
        await b.close();
        await shared.drop();
      }
    });
  });

  describe('heuristic observer through the worker / 启发式观察', () => {
    it('publishes episodes, facts and preferences that pass the same validation', async () => {
      await f.ingest('u', [
        event('记住：周报每周五下午五点前发给王经理。', { event_id: 'z1', task_id: 't7' }),
        event('我喜欢简短的回答。', { event_id: 'z2', task_id: 't7' }),
        event('已设置周报提醒。', { event_id: 'z3', kind: 'task_result', role: 'agent', task_id: 't7' }),
      ]);
      expect(await workerWith(createHeuristicObserver()).step()).toBe('published');
      const kinds = await sqlRows<{ kind: string; status: string }>(
        f.service.driver,
        // In publication order: the order of their index documents.
        `SELECT m.kind, m.status FROM memories m
           JOIN search_docs d ON d.owner = m.owner AND d.kind = m.kind AND d.ref = m.memory_id ORDER BY d.doc_id`,
      );
      expect(kinds).toEqual([
        { kind: 'episode', status: 'active' },
        { kind: 'fact', status: 'candidate' },
        { kind: 'preference', status: 'active' },
      ]);
      const recall = await f.client.call<RecallResult>('memory.recall', {
        owner: 'u',
        query: '周报发给谁',
        kinds: ['fact'],
        wait_ms: 60_000,
      });
      expect(recall.items[0]?.source_refs).toEqual(['z1']);
      expect((await f.observation.status('u')).usage.model_calls).toBe(0);
    });
  });
});
