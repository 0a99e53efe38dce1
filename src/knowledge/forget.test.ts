// Issue 10: memory.forget deletes for real. Unknown ids (another owner's too) are NOT_FOUND and nothing
// goes; without events the events stay; with events what rests only on them goes too, what has another
// source stays; a forgotten fact gives its place back; cached answers naming it go; the hook sees the ids;
// on PostgreSQL no row of any table of the store holds the marker.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { openFactsFixture, said, type FactsFixture } from '../../test/helpers/facts.js';
import { markerRows } from '../../test/helpers/marker-rows.js';
import { createTempDirs } from '../../test/helpers/temp.js';
import { isMemoryError } from '../errors.js';
import { createLocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import type { ForgetResult } from './forget-schema.js';

const OWNER = 'user:qian';
const MARK = 'zq9火烈鸟密语';
const temp = createTempDirs();

describe.each(ENGINES)('memory.forget on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(async () => {
    await f.close();
    temp.cleanup();
  });

  const forget = (params: Record<string, unknown>) =>
    f.client.call<ForgetResult>('memory.forget', { owner: OWNER, ...params });
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => (isMemoryError(e) ? { code: e.code, data: e.data } : e),
    );
  const episode = (text: string, sources: string[]) => ({ kind: 'episode' as const, text, sources });
  const events = async (ids: string[]) =>
    (
      await f.client.call<{ items: Array<{ id: string }>; missing: string[] }>('memory.evidence.get', {
        owner: OWNER,
        ids,
      })
    ).missing;

  it('answers NOT_FOUND for unknown ids and another owner’s alike, and deletes nothing then', async () => {
    const [mine] = (
      await f.publish(
        OWNER,
        [said(`暗号是 ${MARK}`, '2026-11-16 10:00', { event_id: 'q1' })],
        [episode(`暗号 ${MARK}`, ['q1'])],
      )
    ).memory_ids;
    const [theirs] = (
      await f.publish(
        'user:zhao',
        [said('the code word is heron', '2026-11-16 10:00', { event_id: 'z1' })],
        [episode('code word heron', ['z1'])],
      )
    ).memory_ids;
    const other = await failure(forget({ ids: [mine, theirs] }));
    const unknown = await failure(forget({ ids: [mine, 'mem_nope'] }));
    expect(other).toEqual({ code: 'NOT_FOUND', data: { ids: [theirs] } });
    expect(unknown).toEqual({ code: 'NOT_FOUND', data: { ids: ['mem_nope'] } });
    expect((await f.rows(OWNER)).map((r) => r.memory_id)).toEqual([mine]);
    expect((await f.rows('user:zhao')).map((r) => r.memory_id)).toEqual([theirs]);
  });

  it('without events deletes the memory and keeps its events; forgetting again is NOT_FOUND', async () => {
    const [id] = (
      await f.publish(
        OWNER,
        [said('报销单抄送财务部 cc finance', '2026-11-16 10:00', { event_id: 'r1' })],
        [episode('报销单抄送财务部 cc finance', ['r1'])],
      )
    ).memory_ids;
    const out = await forget({ ids: [id] });
    expect(out.forgotten).toEqual({ memories: [id], objects: [], events: [] });
    expect(out.counts).toMatchObject({ memories: 1, events: 0, index_entries: 1 });
    expect(await f.rows(OWNER)).toEqual([]);
    expect(await events(['r1'])).toEqual([]);
    expect(await failure(forget({ ids: [id] }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('with events deletes what rests only on them; a memory with another source keeps it', async () => {
    const receipt = await f.publish(
      OWNER,
      [
        said(`会议室密码 ${MARK}`, '2026-11-16 10:00', { event_id: 'w1' }),
        said('meeting room booked for Friday', '2026-11-16 10:01', { event_id: 'w2' }),
      ],
      [
        episode(`会议室密码 ${MARK}`, ['w1']),
        episode(`only from the first: ${MARK}`, ['w1']),
        episode('room and password', ['w1', 'w2']),
      ],
    );
    const [target, alone, shared] = receipt.memory_ids;
    const out = await forget({ ids: [target], with_events: true });
    expect(out.forgotten.memories.sort()).toEqual([target, alone].sort());
    expect(out.forgotten.events).toEqual(['w1']);
    expect((await f.rows(OWNER)).map((r) => r.memory_id)).toEqual([shared]);
    expect(await f.sources(OWNER, shared ?? '')).toEqual(['w2']);
    expect(await events(['w1', 'w2'])).toEqual(['w1']);
    if (engine === 'postgres') {
      // The same store's every table, searched row by row as text.
      expect(await markerRows(f.service.driver, [MARK])).toEqual([]);
    }
  });

  it('forgets a fact: the version it had superseded is current again', async () => {
    const fact = (object: string, source: string) => ({
      kind: 'fact' as const,
      fact_kind: 'project' as const,
      subject: '羽毛球课',
      predicate: '时间',
      object,
      text: `羽毛球课在${object}`,
      sources: [source],
    });
    const [saturday] = (
      await f.publish(
        OWNER,
        [said('羽毛球课改到周六', '2026-11-16 10:00', { event_id: 'f1' })],
        [fact('周六', 'f1')],
      )
    ).memory_ids;
    const [sunday] = (
      await f.publish(
        OWNER,
        [said('羽毛球课改到周日', '2026-11-17 10:00', { event_id: 'f2' })],
        [fact('周日', 'f2')],
      )
    ).memory_ids;
    expect((await f.rows(OWNER)).find((r) => r.memory_id === saturday)?.lifecycle).toBe('superseded');
    await forget({ ids: [sunday] });
    expect(await f.rows(OWNER)).toEqual([expect.objectContaining({ memory_id: saturday, valid_to: null })]);
    expect((await f.rows(OWNER))[0]?.lifecycle).not.toBe('superseded');
  });

  it('forgets an object with its aliases and relations; the hook gets the ids and drops its file', async () => {
    const dir = temp.make();
    const hook = vi.fn(async (owner: string, ids: { memories: string[]; objects: string[] }) => {
      for (const id of ids.objects) rmSync(join(dir, 'objects', 'person', `${id}.md`), { force: true });
      void owner;
    });
    const client = createLocalClient(createMethodTable(f.service, { afterForget: hook }));
    const { objects } = await client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      owner: OWNER,
      objects: [
        { ref: 'li', type: 'person', name: '李卫东', aliases: ['老李'] },
        { ref: 'ap', type: 'project', name: 'Apollo', status: 'active' },
      ],
      relations: [{ from: 'li', to: 'ap', type: 'works_on' }],
    });
    const [li, apollo] = objects.map((o) => o.id);
    mkdirSync(join(dir, 'objects', 'person'), { recursive: true });
    const file = join(dir, 'objects', 'person', `${li}.md`);
    writeFileSync(file, '# 李卫东\n');
    const out = await client.call<ForgetResult>('memory.forget', { owner: OWNER, ids: [li] });
    expect(out.counts).toMatchObject({ objects: 1, relations: 1 });
    expect(hook).toHaveBeenCalledWith(OWNER, { memories: [], objects: [li] });
    expect(existsSync(file)).toBe(false);
    const found = await client.call<{ items: Array<{ id: string }> }>('memory.chain.find', {
      owner: OWNER,
      query: '老李',
    });
    expect(found.items).toEqual([]);
    const read = await client.call<{ relations: unknown[] }>('memory.chain.read', {
      owner: OWNER,
      id: apollo,
    });
    expect(read.relations).toEqual([]);
  });

  it('drops a cached recall answer that names a forgotten memory', async () => {
    const [id] = (
      await f.publish(
        OWNER,
        [said(`备用钥匙在 ${MARK} 盒子里`, '2026-11-16 10:00', { event_id: 'c1' })],
        [episode(`备用钥匙在 ${MARK} 盒子里`, ['c1'])],
      )
    ).memory_ids;
    const pending = await f.client.call<{ status: string; request_id: string }>('memory.recall', {
      owner: OWNER,
      query: '备用钥匙',
      wait_ms: 0,
    });
    expect(pending.status).toBe('pending');
    const get = () =>
      f.client.call<{ status: string }>('memory.requests.get', {
        owner: OWNER,
        request_id: pending.request_id,
      });
    await vi.waitFor(async () => expect((await get()).status).toBe('ready'), {
      timeout: 30_000,
      interval: 20,
    });
    const out = await forget({ ids: [id], with_events: true });
    expect(out.counts.cached_answers).toBe(1);
    expect(await failure(get())).toMatchObject({ code: 'NOT_FOUND' });
  });
});
