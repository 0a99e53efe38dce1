// Issue 4: the server runs mnemo's own worker unless --observer external, and stops it before the store closes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLocalClient } from '../../src/local-client.js';
import { silentLogger } from '../../src/log.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { openMemory } from '../../src/service.js';
import type { ObservationStatus } from '../../src/observe/observe.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { createTempDirs } from '../helpers/temp.js';
import { ENGINES, engineConfig } from '../helpers/engines.js';
import type { Config } from '../../src/config.js';

const dirs = createTempDirs();
let server: RunningServer | undefined;
let model: ScriptedModel | undefined;
let drop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await server?.close();
  await model?.close();
  await drop?.();
  server = undefined;
  model = undefined;
  drop = undefined;
  dirs.cleanup();
});

const TURN = [
  { event_id: 'e1', kind: 'user_message', role: 'user', at: 1, text: 'I prefer short answers.' },
  { event_id: 'e2', kind: 'task_result', role: 'system', at: 2, text: 'done' },
];

describe.each(ENGINES)('the observation worker in the server on %s / 服务内置 worker', (engine) => {
  let store: Partial<Config>;
  beforeEach(async () => {
    const fresh = await engineConfig(engine);
    drop = fresh.drop;
    store = fresh.config;
  });

  async function start(observer: 'builtin' | 'external', env: Record<string, string> = {}) {
    const dataDir = dirs.make();
    const config = { ...loadConfig({ dataDir, http: false, observer }, env), ...store };
    server = await startServer(config, silentLogger(), { checkResults: true });
    const client = createLocalClient(server.table, { checkResults: true });
    await client.call('memory.events.ingest', { owner: 'u', events: TURN });
    return { client, dataDir };
  }

  /** Polls until `check` holds; the deadline only bounds a hang, it does not time the work. */
  async function eventually(check: () => Promise<boolean>, deadlineMs = 20_000): Promise<void> {
    const until = Date.now() + deadlineMs;
    while (!(await check())) {
      if (Date.now() > until) throw new Error('condition not reached');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('publishes with the builtin heuristic observer by default', async () => {
    const { client } = await start('builtin');
    const status = () => client.call<ObservationStatus>('memory.observation.status', { owner: 'u' });
    await eventually(async () => (await status()).owners[0]?.publish_seq === 1);
    expect((await status()).owners[0]).toMatchObject({ pending_events: 0, memories: 2 });
    // Reads are not client writes: with nothing written since, the worker defers to no one.
    expect((await status()).deferring_to_clients).toBe(false);
  });

  it('leaves every batch to external workers with --observer external / 外部 worker 模式', async () => {
    const { client } = await start('external');
    const status = await client.call<ObservationStatus>('memory.observation.status', {});
    expect(status.leased).toEqual([]);
    const batch = await client.call<{ batch_id: string | null }>('memory.observation.claim', { owner: 'u' });
    expect(batch.batch_id).not.toBeNull();
  });

  it('stops a worker stuck in a model call, giving its lease back before the store closes / 关停顺序', async () => {
    model = await startScriptedModel([{ hang: true }]);
    const scripted = model;
    const { dataDir } = await start('builtin', { MNEMO_MODEL_BASE_URL: model.url, MNEMO_MODEL: 'scripted' });
    await eventually(async () => scripted.requests.length === 1);
    await server?.close();
    server = undefined;
    const reopened = await openMemory({ config: { dataDir, redactEmails: true, ...store } });
    try {
      const client = createLocalClient(createMethodTable(reopened));
      const status = await client.call<ObservationStatus>('memory.observation.status', {});
      expect(status.leased).toEqual([]);
      expect(status.failed).toEqual([]);
      const batch = await client.call<{ batch_id: string | null }>('memory.observation.claim', {});
      expect(batch.batch_id).not.toBeNull();
    } finally {
      await reopened.close();
    }
  });
});
