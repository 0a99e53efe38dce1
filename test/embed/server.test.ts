// The embedding worker inside the server, and the real `mnemo serve` process configured by environment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { EmbeddingStatus } from '../../src/embed/embed.js';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import { silentLogger } from '../../src/log.js';
import type { RecallResult } from '../../src/recall/schema.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { openMemory } from '../../src/service.js';
import { runCli, spawnServer, type ServerProcess } from '../helpers/process.js';
import { startScriptedEmbeddings, type ScriptedEmbeddings } from '../helpers/scripted-embeddings.js';
import { createTempDirs } from '../helpers/temp.js';
import { sqlFirst, sqlRows } from '../helpers/sql.js';

const dirs = createTempDirs();
let server: RunningServer | undefined;
let proc: ServerProcess | undefined;
let embeddings: ScriptedEmbeddings | undefined;
afterEach(async () => {
  await server?.close();
  if (proc && proc.child.exitCode === null) {
    proc.child.kill('SIGTERM');
    await proc.exited;
  }
  await embeddings?.close();
  server = undefined;
  proc = undefined;
  embeddings = undefined;
  dirs.cleanup();
});

const EVENTS = [
  {
    event_id: 'e1',
    kind: 'user_message',
    role: 'user',
    at: 1_000,
    text: 'The mechanic will look at my sedan tomorrow.',
  },
  { event_id: 'e2', kind: 'user_message', role: 'user', at: 2_000, text: 'Remind me to buy dog food.' },
  { event_id: 'e3', kind: 'user_message', role: 'user', at: 3_000, text: '下周去医院体检' },
];

/** Polls until `check` holds; the deadline only bounds a hang, it does not time the work. */
async function eventually(check: () => Promise<boolean>, deadlineMs = 20_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const embedEnv = (url: string): Record<string, string> => ({
  MNEMO_EMBED_BASE_URL: url,
  MNEMO_EMBED_MODEL: 'concepts',
  MNEMO_EMBED_API_KEY: 'sk-embed-test',
});

async function start(env: Record<string, string>): Promise<{ client: LocalClient; dataDir: string }> {
  const dataDir = dirs.make();
  server = await startServer(
    loadConfig({ dataDir, http: false, observer: 'external' }, env),
    silentLogger(),
    { checkResults: true },
  );
  const client = createLocalClient(server.table, { checkResults: true });
  await client.call('memory.events.ingest', { owner: 'u', events: EVENTS });
  return { client, dataDir };
}

const status = async (client: LocalClient) =>
  (await client.call<{ embedding?: EmbeddingStatus }>('health')).embedding;

describe('the embedding worker in the server / 服务内的向量 worker', () => {
  it('embeds what was ingested in the background; recall then uses the vector channel', async () => {
    embeddings = await startScriptedEmbeddings();
    const { client } = await start(embedEnv(embeddings.url));
    await eventually(async () => (await status(client))?.pending === 0);
    expect(await status(client)).toMatchObject({
      model: 'concepts',
      dimensions: 32,
      embedded: 3,
      failures: 0,
    });
    expect(embeddings.requests[0]?.headers.authorization).toBe('Bearer sk-embed-test');
    const result = await client.call<RecallResult>('memory.recall', {
      owner: 'u',
      query: 'automobile repair',
      wait_ms: 60_000,
    });
    expect(result.items[0]).toMatchObject({ id: 'e1', channels: { vector: 1 } });
  });

  it('runs no embedding worker without a provider', async () => {
    const { client } = await start({});
    expect(server?.service.embedding).toBeUndefined();
    expect(await status(client)).toBeUndefined();
  });

  it('stops a worker stuck in an embedding call before the store closes; nothing is half-written', async () => {
    embeddings = await startScriptedEmbeddings([{ hang: true }]);
    const scripted = embeddings;
    const { dataDir } = await start(embedEnv(embeddings.url));
    await eventually(async () => scripted.requests.length === 1);
    await server?.close();
    server = undefined;
    const reopened = await openMemory({ config: { dataDir, redactEmails: true } });
    try {
      expect(await sqlFirst(reopened.driver, 'SELECT failures FROM embedding_state')).toEqual({
        failures: 0,
      });
      // The owner's cursor did not move and the worker gave its lease back when it stopped.
      const owners = await sqlRows(
        reopened.driver,
        'SELECT owner, last_doc_id, vectors, lease_token FROM embedding_owners',
      );
      expect(owners).toEqual([{ owner: 'u', last_doc_id: 0, vectors: 0, lease_token: null }]);
    } finally {
      await reopened.close();
    }
  });
});

describe('mnemo serve with MNEMO_EMBED_* / 真实进程', () => {
  it('embeds in the background, recalls by vector over HTTP and reports vectors in status', async () => {
    embeddings = await startScriptedEmbeddings();
    const dir = dirs.make();
    const env = { MNEMO_HOME: dir, MNEMO_OWNER: 'u', ...embedEnv(embeddings.url) };
    proc = await spawnServer(['--http', '127.0.0.1:0', '--observer', 'external'], env);
    const rpc = async <T>(method: string, params: unknown): Promise<T> => {
      const response = await fetch(`${proc?.httpUrl}/rpc`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${readFileSync(join(dir, 'http-token'), 'utf8').trim()}`,
        },
        body: JSON.stringify({ id: 1, method, params }),
      });
      const body = (await response.json()) as { ok: boolean; result: T };
      expect(body.ok).toBe(true);
      return body.result;
    };
    await rpc('memory.events.ingest', { owner: 'u', events: EVENTS });
    await eventually(
      async () => (await rpc<{ embedding?: EmbeddingStatus }>('health', {})).embedding?.pending === 0,
    );
    const result = await rpc<RecallResult>('memory.recall', {
      owner: 'u',
      query: 'physician',
      wait_ms: 60_000,
    });
    expect(result.items[0]).toMatchObject({ id: 'e3', channels: { vector: 1 } });
    const cli = await runCli(['status'], { env });
    expect(cli.stdout).toContain('vectors: 3 embedded, 0 pending (concepts, 32 dimensions)');
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });
});
