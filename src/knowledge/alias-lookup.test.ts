// The recall hooks: which objects a query names (by name or alias, Chinese and English), and the events
// linked to them through their sources and relations.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { createLocalClient, type LocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { linkedEvents, mentionCandidates, namesOf, objectsForQuery } from './alias-lookup.js';

describe('mentionCandidates', () => {
  it('spans Han characters one by one and other words only whole', () => {
    const spans = mentionCandidates('问老李 Tony Tang 的事');
    expect(spans).toEqual(
      expect.arrayContaining(['老李', '问老李', 'tony', 'tang', 'tonytang', '李tonytang']),
    );
    expect(spans).not.toContain('ton');
    expect(spans).not.toContain('李');
    expect(mentionCandidates(['老李', 'tony'])).toEqual(expect.arrayContaining(['老李', 'tony']));
  });
});

describe.each(ENGINES)('objectsForQuery and linkedEvents on %s', (engine) => {
  let store: TestService;
  let client: LocalClient;
  const OWNER = 'user:alice';
  beforeEach(async () => {
    store = await openTestService(engine);
    client = createLocalClient(createMethodTable(store.service), { checkResults: true });
    await client.call('memory.events.ingest', {
      owner: OWNER,
      events: [
        {
          event_id: 'u1',
          kind: 'user_message',
          role: 'user',
          at: 1_780_000_000_000,
          text: '李卫东（老李）负责潮汐的预算',
        },
        {
          event_id: 'u2',
          kind: 'user_message',
          role: 'user',
          at: 1_780_000_001_000,
          text: 'Tony (唐志远) leads Tide',
        },
      ],
    });
  });
  afterEach(() => store.close());

  const upsert = (params: Record<string, unknown>) =>
    client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', { owner: OWNER, ...params });

  it('finds the objects a query names, with the name or alias matched, longest first', async () => {
    const { objects } = await upsert({
      objects: [
        { ref: 'li', type: 'person', name: '李卫东', aliases: ['老李'] },
        { ref: 'tony', type: 'person', name: '唐志远', aliases: ['Tony'] },
        { ref: 'tide', type: 'project', name: '潮汐', aliases: ['Project Tide'], status: 'active' },
      ],
      source_refs: ['u1'],
    });
    const [li, tony, tide] = objects.map((o) => o.id);
    const zh = await objectsForQuery(store.service.driver, OWNER, '老李上次说潮汐的预算多少？');
    // Matches of one length: a name before an alias.
    expect(zh.map((n) => [n.object.object_id, n.matched, n.via])).toEqual([
      [tide, '潮汐', 'name'],
      [li, '老李', 'alias'],
    ]);
    expect(namesOf({ name: zh[1]?.object.name ?? '', aliases: zh[1]?.aliases ?? [] })).toEqual([
      '李卫东',
      '老李',
    ]);
    const en = await objectsForQuery(store.service.driver, OWNER, 'What did Tony say about project tide?');
    expect(en.map((n) => [n.object.object_id, n.matched])).toEqual([
      [tide, 'Project Tide'],
      [tony, 'Tony'],
    ]);
    expect(await objectsForQuery(store.service.driver, OWNER, 'Antony and the tides')).toEqual([]);
    expect(await objectsForQuery(store.service.driver, 'user:bob', '老李')).toEqual([]);
    expect((await objectsForQuery(store.service.driver, OWNER, '老李', { types: ['project'] })).length).toBe(
      0,
    );
  });

  it('leaves archived objects out unless asked', async () => {
    const { objects } = await upsert({ objects: [{ type: 'project', name: '旧项目', status: 'archived' }] });
    expect(await objectsForQuery(store.service.driver, OWNER, '旧项目怎么样了')).toEqual([]);
    const all = await objectsForQuery(store.service.driver, OWNER, '旧项目怎么样了', {
      includeArchived: true,
    });
    expect(all.map((n) => n.object.object_id)).toEqual([objects[0]?.id]);
  });

  it('links the events an object and its relations cite, one hop', async () => {
    const { objects } = await upsert({
      objects: [
        { ref: 'li', type: 'person', name: '李卫东', aliases: ['老李'] },
        { ref: 'tide', type: 'project', name: '潮汐', status: 'active' },
      ],
      source_refs: ['u1'],
    });
    const [li, tide] = objects.map((o) => o.id);
    await upsert({ objects: [], relations: [{ from: li, to: tide, type: 'works_on' }], source_refs: ['u2'] });
    const links = await linkedEvents(store.service.driver, OWNER, [li ?? '']);
    expect(links).toEqual(
      expect.arrayContaining([
        { event_id: 'u1', object_id: li, via: 'object' },
        { event_id: 'u2', object_id: li, via: { relation_id: expect.any(String), other_id: tide } },
      ]),
    );
    expect(links).toHaveLength(2);
    expect(await linkedEvents(store.service.driver, 'user:bob', [li ?? ''])).toEqual([]);
  });
});
