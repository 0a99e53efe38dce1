// An object's vector follows its document: embedded from its name, aliases and body; replaced when they
// change (on SQLite also when the re-indexed document gets its old doc id back); gone when the object is
// revoked or forgotten. Scripted concept vectors over real HTTP, on sqlite-vec and pgvector (PGlite).
import { describe, expect, it } from 'vitest';
import type { EventInput } from '../index.js';
import type { RecallResult } from '../recall/schema.js';
import {
  client,
  currentEngine,
  drain,
  ingest,
  minutes,
  open,
  recall,
  service,
  storedVectors,
  useVectorEngine,
  VECTOR_ENGINES,
  workerOf,
} from '../../test/embed/harness.js';
import { int, row } from '../storage/rows.js';
import type { ForgetResult } from './forget-schema.js';

const db = () => {
  if (!service) throw new Error('no service');
  return service.driver;
};

/** Objects the vector channel found for `query`, nearest first. */
async function vectorObjects(query: string): Promise<string[]> {
  const found: RecallResult = await recall('alice', query, { kinds: ['object'] });
  return found.items
    .filter((i) => i.channels.vector !== undefined)
    .sort((a, b) => (a.channels.vector ?? 0) - (b.channels.vector ?? 0))
    .map((i) => i.id);
}

/** Whether the object's current document has a vector. */
async function hasVector(id: string): Promise<boolean> {
  const found = await db().one(
    row({ n: int }),
    currentEngine() === 'sqlite'
      ? `SELECT count(*) AS n FROM vec_docs v JOIN search_docs d ON d.doc_id = v.rowid
          WHERE d.kind = 'object' AND d.ref = ?`
      : `SELECT count(*)::int AS n FROM vec_docs v JOIN search_docs d ON d.doc_id = v.doc_id
          WHERE d.kind = 'object' AND d.ref = ?`,
    [id],
  );
  return (found?.n ?? 0) > 0;
}

/** Vectors whose document is gone. */
async function orphans(): Promise<number> {
  const found = await db().one(
    row({ n: int }),
    currentEngine() === 'sqlite'
      ? 'SELECT count(*) AS n FROM vec_docs v WHERE NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.doc_id = v.rowid)'
      : 'SELECT count(*)::int AS n FROM vec_docs v WHERE NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.doc_id = v.doc_id)',
  );
  return found?.n ?? 0;
}

async function upsert(object: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const out = await client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
    owner: 'alice',
    objects: [object],
    ...extra,
  });
  const id = out.objects[0]?.id;
  if (!id) throw new Error('no object written');
  return id;
}

describe.each(VECTOR_ENGINES)('object vectors on %s', (engine) => {
  useVectorEngine(engine);

  it('follow a change of body and aliases: the new text is found by vector, the old one no more', async () => {
    const svc = await open();
    const kestrel = await upsert({ type: 'knowledge', name: 'Kestrel', body: '轿车 sedan' });
    const fleet = await upsert({ type: 'knowledge', name: 'Fleet', body: 'the vehicle pool' });
    const cafe = await upsert({ type: 'knowledge', name: 'Cafe', body: 'latte espresso' });
    await drain(workerOf(svc));
    // "automobile" shares no word with either body: only the vector channel finds them.
    expect((await vectorObjects('automobile')).slice(0, 2).sort()).toEqual([kestrel, fleet].sort());

    await upsert({
      id: kestrel,
      type: 'knowledge',
      name: 'Kestrel',
      aliases: ['小提琴'],
      body: '钢琴 piano',
    });
    await drain(workerOf(svc));
    expect(await orphans()).toBe(0);
    expect(await hasVector(kestrel)).toBe(true);
    expect((await vectorObjects('automobile'))[0]).toBe(fleet);
    expect((await vectorObjects('violin concert'))[0]).toBe(kestrel);
    expect((await vectorObjects('音乐'))[0]).toBe(kestrel);
    expect(await vectorObjects('coffee')).toContain(cafe);
  });

  it('a project decision indexes the project again and it keeps a vector (SQLite reuses the doc id)', async () => {
    const svc = await open();
    await ingest('alice', [
      { event_id: 'e1', kind: 'user_message', role: 'user', at: minutes(0), text: 'Kestrel 项目确认启动' },
    ] as EventInput[]);
    // Cited sources: no note event is written, so the project's document is the last one.
    const project = await upsert(
      { type: 'project', name: 'Kestrel', body: 'sedan fleet 汽车' },
      { source_refs: ['e1'] },
    );
    await drain(workerOf(svc));
    expect(await hasVector(project)).toBe(true);
    const vectors = await storedVectors();

    await client.call('memory.chain.project_decision', {
      owner: 'alice',
      id: project,
      decision: 'confirm',
      event_id: 'e1',
      quote: '项目确认启动',
    });
    await drain(workerOf(svc));
    expect(await orphans()).toBe(0);
    expect(await hasVector(project)).toBe(true);
    expect(await storedVectors()).toBe(vectors);
    expect((await vectorObjects('automobile'))[0]).toBe(project);
  });

  it('revoking or forgetting an object removes its vector', async () => {
    const svc = await open();
    const kestrel = await upsert({ type: 'knowledge', name: 'Kestrel', body: '轿车 sedan' });
    const fleet = await upsert({ type: 'knowledge', name: 'Fleet', body: 'the vehicle pool' });
    await drain(workerOf(svc));
    const before = (await storedVectors()) ?? 0;

    await client.call('memory.revoke', { owner: 'alice', id: kestrel, reason: 'wrong' });
    expect(await storedVectors()).toBe(before - 1);
    const out = await client.call<ForgetResult>('memory.forget', { owner: 'alice', ids: [fleet] });
    expect(out.counts.vectors).toBe(1);
    expect(await storedVectors()).toBe(before - 2);
    expect(await orphans()).toBe(0);
    await drain(workerOf(svc));
    expect(await vectorObjects('automobile')).toEqual([]);
  });
});
