// Issue 10, recall uses the knowledge: objects and current facts as items, the alias and graph channels with
// the object each hit came through, and what recall never returns (superseded unless asked, revoked ever).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProposalInput } from '../observe/schema.js';
import { ENGINES } from '../../test/helpers/engines.js';
import { at, openFactsFixture, said, type FactsFixture } from '../../test/helpers/facts.js';
import type { RecallItem } from './schema.js';

const OWNER = 'user:lin';
type MemoryInput = ProposalInput['memories'][number];

const format = (object: string, sources: string[]): MemoryInput => ({
  kind: 'fact',
  fact_kind: 'project',
  subject: '会议纪要',
  predicate: '格式',
  object,
  text: `会议纪要用 ${object}`,
  sources,
});

describe.each(ENGINES)('recall over the knowledge layer on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  const recall = async (query: string, extra: Record<string, unknown> = {}) =>
    (
      await f.client.call<{ items: RecallItem[] }>('memory.recall', {
        owner: OWNER,
        query,
        wait_ms: 60_000,
        ...extra,
      })
    ).items;
  const upsert = (params: Record<string, unknown>) =>
    f.client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', { owner: OWNER, ...params });
  const ids = (items: RecallItem[]) => items.map((i) => i.id);

  const seedPeople = async () => {
    await f.ingest(OWNER, [
      said('李卫东发来报价单：总价 38 万，含三年维保', '2026-11-02 10:00', { event_id: 'z1' }),
      said('王芳说报价要等下周才能出', '2026-11-03 10:00', { event_id: 'z2' }),
      said('他下午去财务签字，周五前付款', '2026-11-04 10:00', { event_id: 'z3' }),
      said('唐志远 said the launch moves to March', '2026-11-05 10:00', { event_id: 'e1' }),
      said('The weather in Hangzhou is mild this week', '2026-11-06 10:00', { event_id: 'e2' }),
    ]);
    const li = await upsert({
      objects: [{ type: 'person', name: '李卫东', aliases: ['老李'], body: '供应商销售经理，负责报价' }],
      source_refs: ['z3'],
    });
    const tony = await upsert({
      objects: [{ type: 'person', name: '唐志远', aliases: ['Tony'] }],
      source_refs: ['e1'],
    });
    return { li: li.objects[0]?.id ?? '', tony: tony.objects[0]?.id ?? '' };
  };

  it('"老李上次说的报价" finds the events naming 李卫东 through the alias channel, with via', async () => {
    const { li } = await seedPeople();
    const items = await recall('老李上次说的报价');
    const z1 = items.find((i) => i.id === 'z1');
    expect(z1?.channels.alias).toBeDefined();
    expect(z1?.via).toEqual({ object_id: li, name: '李卫东' });
    // The event naming 李卫东 ranks above the other quote, which names nobody the query does.
    expect(ids(items).indexOf('z1')).toBeLessThan(ids(items).indexOf('z2'));
    // The object itself is an item, with its names and the head of its body.
    expect(items.find((i) => i.id === li)).toMatchObject({
      kind: 'object',
      name: '李卫东',
      type: 'person',
      aliases: ['老李'],
      source_refs: ['z3'],
      status: 'active',
    });
    expect(items.find((i) => i.id === li)?.text).toContain('供应商销售经理');
  });

  it('"what did Tony say" finds 唐志远\'s event in English', async () => {
    const { tony } = await seedPeople();
    const items = await recall('what did Tony say', { kinds: ['event'] });
    expect(items[0]).toMatchObject({ id: 'e1', via: { object_id: tony, name: '唐志远' } });
    expect(items[0]?.channels.alias).toBe(1);
    expect(items.every((i) => i.kind === 'event')).toBe(true);
  });

  it('the graph channel reaches what the object cites, one hop, at a lower weight', async () => {
    const { li } = await seedPeople();
    const items = await recall('老李', { kinds: ['event'] });
    // z3 names nobody; the object cites it.
    const z3 = items.find((i) => i.id === 'z3');
    expect(z3?.channels.graph).toBeDefined();
    expect(z3?.channels.bm25).toBeUndefined();
    expect(z3?.via).toEqual({ object_id: li, name: '李卫东' });
    expect(ids(items).indexOf('z1')).toBeLessThan(ids(items).indexOf('z3'));
  });

  it('the graph channel reaches a memory whose subject is the object, by any of its names', async () => {
    // Published before the other events are ingested: the batch holds only its own event.
    await f.publish(
      OWNER,
      [said('他下个月升任销售总监', '2026-11-07 10:00', { event_id: 'p1' })],
      [
        {
          kind: 'fact',
          fact_kind: 'profile',
          subject: '李卫东',
          predicate: '职位',
          object: '销售总监',
          text: '职位是销售总监',
          sources: ['p1'],
          quotes: [{ event_id: 'p1', text: '销售总监' }],
        },
      ],
    );
    const { li } = await seedPeople();
    const [fact] = await recall('老李', { kinds: ['fact'] });
    expect(fact).toMatchObject({ kind: 'fact', via: { object_id: li, name: '李卫东' } });
    expect(fact?.channels.graph).toBe(1);
  });

  it('kinds selects objects alone; an archived object comes back only when asked for', async () => {
    const { li } = await seedPeople();
    expect(ids(await recall('老李', { kinds: ['object'] }))).toEqual([li]);
    await upsert({ objects: [{ type: 'project', name: '潮汐计划', aliases: ['Tide'], status: 'archived' }] });
    expect(await recall('Tide', { kinds: ['object'] })).toEqual([]);
    const archived = await recall('Tide', { kinds: ['object'], include_archived: true });
    expect(archived.map((i) => [i.name, i.status])).toEqual([['潮汐计划', 'archived']]);
  });

  it('never returns a revoked object, nor the events it alone led to, even with include_archived', async () => {
    const { li } = await seedPeople();
    expect(ids(await recall('老李', { kinds: ['object'] }))).toEqual([li]);
    await f.client.call('memory.revoke', { owner: OWNER, id: li, reason: '认错人了' });
    expect(await recall('老李', { kinds: ['object'], include_archived: true })).toEqual([]);
    const items = await recall('老李上次说的报价');
    expect(items.some((i) => i.via?.object_id === li)).toBe(false);
    expect(ids(items)).not.toContain(li);
  });

  it('returns the current fact by default, the superseded one when asked, and what held at as_of', async () => {
    await f.publish(
      OWNER,
      [said('会议纪要用 Word', '2026-11-16 10:00', { event_id: 'w1' })],
      [format('Word', ['w1'])],
    );
    await f.publish(
      OWNER,
      [said('会议纪要改用 PDF', '2026-11-18 10:00', { event_id: 'w2' })],
      [format('PDF', ['w2'])],
    );
    const facts = (items: RecallItem[]) => items.map((i) => [i.text, i.status]);
    expect(facts(await recall('会议纪要', { kinds: ['fact'] }))).toEqual([['会议纪要用 PDF', 'candidate']]);
    const all = await recall('会议纪要', { kinds: ['fact'], include_superseded: true });
    expect(facts(all).sort()).toEqual([
      ['会议纪要用 PDF', 'candidate'],
      ['会议纪要用 Word', 'superseded'],
    ]);
    const then = await recall('会议纪要', { kinds: ['fact'], as_of: at('2026-11-17 09:00') });
    expect(facts(then)).toEqual([['会议纪要用 Word', 'superseded']]);
  });

  it('never returns a revoked memory, even with include_superseded or as_of', async () => {
    const receipt = await f.publish(
      OWNER,
      [said('from now on book aisle seats', '2026-11-16 10:00', { event_id: 'a1' })],
      [
        {
          kind: 'preference',
          text: 'books aisle seats',
          sources: ['a1'],
          quotes: [{ event_id: 'a1', text: 'aisle seats' }],
        },
      ],
    );
    const id = receipt.memory_ids[0] ?? '';
    expect(ids(await recall('aisle seats', { kinds: ['preference'] }))).toEqual([id]);
    await f.client.call('memory.revoke', { owner: OWNER, id, reason: 'wrong' });
    for (const extra of [{}, { include_superseded: true }, { as_of: at('2026-11-16 12:00') }])
      expect(await recall('aisle seats', { kinds: ['preference'], ...extra })).toEqual([]);
  });
});
