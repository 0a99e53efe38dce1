// mnemo's own organize worker in the server: it compacts by itself, leaves everything to external workers
// with --organizer external, gives a lease back before the store closes, and a job killed mid-run (SIGKILL
// of a real `mnemo serve`) is claimed again after its lease and commits once.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSocketClient } from '../../src/client.js';
import { loadConfig } from '../../src/config.js';
import { createLocalClient } from '../../src/local-client.js';
import { silentLogger } from '../../src/log.js';
import type { ChainStatus } from '../../src/organize/organize.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { openMemory } from '../../src/service.js';
import { spawnServer } from '../helpers/process.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';
import { createTempDirs } from '../helpers/temp.js';
import { conversation } from './fixture.js';

const dirs = createTempDirs();
let server: RunningServer | undefined;
let model: ScriptedModel | undefined;
afterEach(async () => {
  await server?.close();
  await model?.close();
  server = undefined;
  model = undefined;
  dirs.cleanup();
});

/** Polls until `check` holds; the deadline only bounds a hang, it does not time the work. */
async function eventually(check: () => Promise<boolean> | boolean, deadlineMs = 30_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function start(organizer: 'builtin' | 'external', env: Record<string, string> = {}) {
  const dataDir = dirs.make();
  const config = loadConfig({ dataDir, http: false, observer: 'external', organizer }, env);
  server = await startServer(config, silentLogger(), { checkResults: true });
  const client = createLocalClient(server.table, { checkResults: true });
  return { client, dataDir };
}

const summaryOf = () => ({ json: { summary: '用户整理了九月份的发票，并预订了下午三点的会议室。' } });

describe('the organize worker in the server / 服务内置整理 worker', () => {
  it('compacts by itself once a tick finds the threshold passed', async () => {
    const { client } = await start('builtin');
    await client.call('memory.events.ingest', { owner: 'alice', events: conversation(300) });
    const status = () => client.call<ChainStatus>('memory.chain.status', { owner: 'alice' });
    expect((await client.call<{ queued: unknown[] }>('memory.chain.tick', {})).queued).toHaveLength(1);
    await eventually(async () => (await status()).queue.queued + (await status()).queue.leased === 0);
    const [alice] = (await status()).owners;
    expect(alice?.levels[0]?.nodes).toBeGreaterThan(0);
    expect(alice?.ready).toBe(true);
    expect((await status()).organizer).toBe('builtin');
  });

  it('claims nothing with --organizer external / 外部整理模式', async () => {
    const { client } = await start('external');
    await client.call('memory.events.ingest', { owner: 'alice', events: conversation(20) });
    await client.call('memory.organize.request', { owner: 'alice', kind: 'compact', keep_recent_tokens: 0 });
    const status = await client.call<ChainStatus>('memory.chain.status', {});
    expect(status.organizer).toBe('external');
    expect(status.deferring_to_clients).toBeUndefined();
    expect(status.queue).toMatchObject({ queued: 1, leased: 0 });
    expect((await client.call<{ job_id: string | null }>('memory.organize.claim', {})).job_id).not.toBeNull();
  });

  it('gives the lease of a step stuck in a model call back before the store closes / 关停顺序', async () => {
    model = await startScriptedModel([{ hang: true }]);
    const scripted = model;
    const { client, dataDir } = await start('builtin', {
      MNEMO_MODEL_BASE_URL: model.url,
      MNEMO_MODEL: 'scripted',
    });
    await client.call('memory.events.ingest', { owner: 'alice', events: conversation(20) });
    await client.call('memory.organize.request', { owner: 'alice', kind: 'compact', keep_recent_tokens: 0 });
    await eventually(() => scripted.requests.length === 1);
    await server?.close();
    server = undefined;
    const reopened = await openMemory({ config: { dataDir, redactEmails: true } });
    try {
      const local = createLocalClient(createMethodTable(reopened));
      const status = await local.call<ChainStatus>('memory.chain.status', {});
      expect(status.queue).toMatchObject({ queued: 1, leased: 0, retrying: 0 });
      expect(
        (await local.call<{ job_id: string | null }>('memory.organize.claim', {})).job_id,
      ).not.toBeNull();
    } finally {
      await reopened.close();
    }
  });

  it('a job killed mid-run (SIGKILL) is claimed again after its lease and commits once / 进程被杀后重领', async () => {
    model = await startScriptedModel([{ hang: true }], { fallback: summaryOf });
    const scripted = model;
    const dataDir = dirs.make();
    const env = {
      MNEMO_MODEL_BASE_URL: model.url,
      MNEMO_MODEL: 'scripted',
      MNEMO_OBSERVER: 'external',
      MNEMO_ORGANIZE_LEASE_MS: '1500',
    };
    const first = await spawnServer(['--data-dir', dataDir, '--no-http'], env);
    const conn = createSocketClient(first.socketPath);
    await conn.call('memory.events.ingest', { owner: 'alice', events: conversation(12) });
    await conn.call('memory.organize.request', { owner: 'alice', kind: 'compact', keep_recent_tokens: 0 });
    await eventually(() => scripted.requests.length === 1);
    await conn.close().catch(() => undefined);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await spawnServer(['--data-dir', dataDir, '--no-http'], env);
    const again = createSocketClient(second.socketPath);
    const status = () => again.call<ChainStatus>('memory.chain.status', { owner: 'alice' });
    await eventually(async () => {
      const s = await status();
      return s.queue.queued + s.queue.leased === 0 && (s.owners[0]?.raw_events ?? -1) === 0;
    });
    await again.close();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    expect(scripted.requests).toHaveLength(3);
    const db = new Database(join(dataDir, 'mnemo.sqlite3'), { readonly: true });
    try {
      const nodes = db
        .prepare('SELECT first_seq, last_seq, events FROM memory_nodes ORDER BY first_seq')
        .all();
      expect(nodes.map((n) => (n as { events: number }).events)).toEqual([8, 4]);
      const job = db.prepare('SELECT state, steps, claims FROM organize_jobs').get();
      expect(job).toEqual({ state: 'done', steps: 2, claims: 3 });
      const failures = db.prepare('SELECT code FROM organize_failures').all();
      expect(failures).toEqual([{ code: 'LEASE_EXPIRED' }]);
      expect(db.prepare('SELECT count(*) AS n FROM organize_receipts').get()).toEqual({ n: 2 });
      expect(db.prepare('SELECT count(*) AS n FROM organize_archive').get()).toEqual({ n: 2 });
    } finally {
      db.close();
    }
  }, 60_000);
});
