// The model path of compaction, against a scripted OpenAI-compatible model over real HTTP: one call per step,
// the owner's pieces only, usage recorded; a refused or malformed answer halves the next step's batch.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../src/llm/llm.js';
import { createModelSummarizer, type ChainStatus } from '../../src/organize/organize.js';
import { ENGINES } from '../helpers/engines.js';
import { sqlRows } from '../helpers/sql.js';
import { startScriptedModel, type ChatBody, type ScriptedModel } from '../helpers/scripted-model.js';
import { conversation, openOrganizeFixture, type OrganizeFixture } from './fixture.js';

const piecesOf = (body: ChatBody): Array<{ ref: string; text: string }> =>
  (
    JSON.parse(body.messages.find((m) => m.role === 'user')?.content ?? '{}') as {
      pieces: Array<{ ref: string; text: string }>;
    }
  ).pieces;

describe.each(ENGINES)('compaction with a model on %s', (engine) => {
  let f: OrganizeFixture;
  let model: ScriptedModel;
  beforeEach(async () => {
    f = await openOrganizeFixture(engine);
    await f.ingest('alice', conversation(16));
    await f.ingest(
      'bob',
      conversation(16, { prefix: 'bob-' }).map((e) => ({ ...e, text: `bob secret plan ${e.event_id}` })),
    );
    await f.client.call('memory.organize.request', {
      owner: 'alice',
      kind: 'compact',
      keep_recent_tokens: 0,
    });
  });
  afterEach(async () => {
    await f.close();
    await model.close();
  });

  const modelWorker = () =>
    f.worker(
      createModelSummarizer(createOpenAiProvider({ baseUrl: model.url, model: 'scripted', retries: 0 }), 800),
    );

  it('writes one node per step from the model’s summary of the owner’s own pieces', async () => {
    model = await startScriptedModel([], {
      fallback: (body) => ({ json: { summary: `${piecesOf(body).length} 条：用户整理发票并预订会议室。` } }),
    });
    expect(await f.drain(modelWorker())).toBe(2);
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) {
      expect(request.body.messages[0]?.content).toContain('You compact the timeline');
      expect(request.body.response_format).toEqual({ type: 'json_object' });
      expect(JSON.stringify(request.body)).not.toContain('bob');
    }
    const nodes = await sqlRows<{ text: string; summarizer: string; events: number }>(
      f.service.driver,
      'SELECT text, summarizer, events FROM memory_nodes ORDER BY first_seq',
    );
    expect(nodes).toEqual([
      {
        text: '8 条：用户整理发票并预订会议室。',
        summarizer: 'model:openai-compatible:scripted:compact-v1',
        events: 8,
      },
      {
        text: '8 条：用户整理发票并预订会议室。',
        summarizer: 'model:openai-compatible:scripted:compact-v1',
        events: 8,
      },
    ]);
    const status = await f.client.call<ChainStatus>('memory.chain.status', { owner: 'alice' });
    expect(status.usage.model_calls).toBe(2);
    expect(status.usage.prompt_tokens).toBe(model.usage.prompt_tokens);
  });

  it('halves the batch after a refused or malformed answer, and loses no piece', async () => {
    model = await startScriptedModel([
      { json: { summary: '太长'.repeat(1_500) } },
      { content: 'this is not JSON' },
      { json: { summary: '两条：发票、会议。' } },
    ]);
    const worker = modelWorker();
    expect(await worker.step()).toBe('refused');
    f.clock.advance(10_000);
    expect(await worker.step()).toBe('failed');
    f.clock.advance(20_000);
    expect(await worker.step()).toBe('committed');
    expect(model.requests.map((r) => piecesOf(r.body).length)).toEqual([8, 4, 2]);
    expect(model.requests.map((r) => piecesOf(r.body)[0]?.ref)).toEqual([
      'event:e00000',
      'event:e00000',
      'event:e00000',
    ]);
    const failures = await sqlRows<{ code: string; batch_limit: number }>(
      f.service.driver,
      'SELECT code, batch_limit FROM organize_failures ORDER BY failure_id',
    );
    expect(failures).toEqual([
      { code: 'PROPOSAL_INVALID', batch_limit: 8 },
      { code: 'MODEL_ERROR', batch_limit: 4 },
    ]);
    const [node] = await sqlRows<{ events: number }>(f.service.driver, 'SELECT events FROM memory_nodes');
    expect(node?.events).toBe(2);
  });
});
