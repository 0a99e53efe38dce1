// On PostgreSQL the vector channel needs pgvector, and nothing else does: with a provider configured a
// store without a usable extension is refused at start, saying what to do; without one, a server that
// has no pgvector (Debian's) serves everything, with no vector query. PGlite shows both sides; the real
// server (MNEMO_TEST_POSTGRES_URL, no pgvector) shows the refusal and the channel off.
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { vectorIndexOf } from '../../src/embed/embed.js';
import type { EventInput } from '../../src/index.js';
import { createLocalClient } from '../../src/local-client.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import type { RecallResult } from '../../src/recall/schema.js';
import { openMemory, type MemoryServiceOptions } from '../../src/service.js';
import { engineConfig, ENGINES } from '../helpers/engines.js';
import { createPgliteTemplate, pgliteDriver } from '../helpers/pglite.js';
import { startScriptedEmbeddings, type ScriptedEmbeddings } from '../helpers/scripted-embeddings.js';
import { createTempDirs } from '../helpers/temp.js';

const dirs = createTempDirs();
let embeddings: ScriptedEmbeddings;
beforeAll(async () => {
  embeddings = await startScriptedEmbeddings();
});
afterAll(() => embeddings.close());
afterEach(() => dirs.cleanup());

const embed = () => ({ baseUrl: embeddings.url, model: 'concepts', timeoutMs: 2_000, weight: 1 });
const EVENT = { event_id: 'e1', kind: 'note', role: 'user', at: 1_000, text: 'The sedan is at the garage.' };

/** Opens the store without a provider, ingests, recalls: no vector table and no embedding call. */
async function servesWithoutVectors(options: Omit<MemoryServiceOptions, 'config'>, config: object) {
  const requests = embeddings.requests.length;
  const service = await openMemory({
    ...options,
    config: { dataDir: dirs.make(), redactEmails: true, ...config },
  });
  try {
    const client = createLocalClient(createMethodTable(service), { checkResults: true });
    await client.call('memory.events.ingest', { owner: 'u', events: [EVENT as EventInput] });
    const result = await client.call<RecallResult>('memory.recall', {
      owner: 'u',
      query: 'sedan garage',
      wait_ms: 60_000,
    });
    expect(result.items.map((i) => [i.id, i.channels])).toEqual([['e1', { bm25: 1 }]]);
    expect(await vectorIndexOf(service.driver).count(service.driver)).toBeUndefined();
    expect(embeddings.requests.length).toBe(requests);
  } finally {
    await service.close();
  }
}

describe('on PGlite without the extension created', () => {
  let template: PGlite;
  beforeAll(async () => {
    template = await createPgliteTemplate({ pgvector: false });
  }, 120_000);
  afterAll(() => template.close());

  it('refuses the channel at start: the role may not create pgvector, an administrator must', async () => {
    const db = await template.clone();
    try {
      const config = { dataDir: dirs.make(), redactEmails: true, embed: embed() };
      const opening = openMemory({ config, driver: pgliteDriver(db) });
      await expect(opening).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringContaining('an administrator runs CREATE EXTENSION vector once'),
      });
      await servesWithoutVectors({ driver: pgliteDriver(db) }, {});
    } finally {
      await db.close();
    }
  });
});

describe.runIf(ENGINES.includes('postgres'))('on the PostgreSQL server (no pgvector)', () => {
  it('refuses the channel at start, and serves everything without it', async () => {
    const store = await engineConfig('postgres');
    try {
      const config = { dataDir: dirs.make(), redactEmails: true, ...store.config, embed: embed() };
      await expect(openMemory({ config })).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringContaining('the PostgreSQL server has no "vector" extension'),
      });
      await servesWithoutVectors({}, store.config);
    } finally {
      await store.drop();
    }
  });
});
