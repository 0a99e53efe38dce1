// memory.chain.* through the method table on both engines: upsert with merging, revisions and redaction,
// find by name, alias and mention, read with relations, sources and paged expansion, browse, node, and
// project decisions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { sqlRows } from '../../test/helpers/sql.js';
import { createLocalClient, type LocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { rebuildIndex } from '../reindex.js';

const T0 = Date.parse('2026-11-02T09:00:00Z');
const OWNER = 'user:alice';

interface Upserted {
  objects: Array<{ id: string; revision: number; created: boolean; merged: boolean }>;
  relations: Array<{ id: string; created: boolean }>;
  source_refs: string[];
}
interface Summary {
  id: string;
  type: string;
  name: string;
  aliases: string[];
  status: string;
  revision: number;
}
interface Found {
  items: Array<Summary & { match: string; matched: string | null }>;
}
interface Read {
  object: Summary & { body: string; sources: Array<{ event_id: string; quote: string | null }> };
  objects: Array<Summary & { depth: number }>;
  relations: Array<{
    id: string;
    type: string;
    from: string;
    to: string;
    from_name: string;
    sources: string[];
  }>;
  facts: unknown[];
  sources: Array<{ event_id: string; role: string; head: string }>;
  next_cursor: string | null;
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

describe.each(ENGINES)('memory.chain on %s', (engine) => {
  let store: TestService;
  let client: LocalClient;
  let t = T0;
  beforeEach(async () => {
    t = T0;
    store = await openTestService(engine, { now: () => t });
    client = createLocalClient(createMethodTable(store.service), { checkResults: true });
  });
  afterEach(() => store.close());

  const upsert = (params: Record<string, unknown>) =>
    client.call<Upserted>('memory.chain.upsert', { owner: OWNER, ...params });
  const find = (query: string, extra: Record<string, unknown> = {}) =>
    client.call<Found>('memory.chain.find', { owner: OWNER, query, ...extra });
  const read = (id: string, extra: Record<string, unknown> = {}) =>
    client.call<Read>('memory.chain.read', { owner: OWNER, id, ...extra });
  const ingest = (events: Array<Record<string, unknown>>) =>
    client.call('memory.events.ingest', {
      owner: OWNER,
      events: events.map((e, i) => ({ kind: 'user_message', role: 'user', at: T0 + i * 1000, ...e })),
    });
  const count = async (table: string) =>
    Number((await sqlRows<{ n: number }>(store.service.driver, `SELECT count(*) AS n FROM ${table}`))[0]?.n);

  it('"老李" finds 李卫东 in Chinese, by alias and by mention', async () => {
    await upsert({ objects: [{ type: 'person', name: '李卫东', aliases: ['老李'], body: '财务部经理' }] });
    await upsert({ objects: [{ type: 'person', name: '李明', body: '设计师' }] });
    const exact = await find('老李');
    expect(exact.items[0]).toMatchObject({
      name: '李卫东',
      aliases: ['老李'],
      match: 'alias',
      matched: '老李',
    });
    const mention = await find('老李下周几回来？');
    expect(mention.items[0]).toMatchObject({ name: '李卫东', match: 'mention', matched: '老李' });
    expect((await find('财务部')).items.map((i) => [i.name, i.match])).toEqual([['李卫东', 'text']]);
    // Another owner sees none of it.
    const other = await client.call<Found>('memory.chain.find', { owner: 'user:bob', query: '老李' });
    expect(other.items).toEqual([]);
  });

  it('"Tony" finds 唐志远 in English; a longer word holding the name is no mention', async () => {
    await upsert({ objects: [{ type: 'person', name: '唐志远', aliases: ['Tony'], body: 'tech lead' }] });
    expect((await find('Tony')).items[0]).toMatchObject({ name: '唐志远', match: 'alias', matched: 'Tony' });
    expect((await find('what did tony say about the launch?')).items[0]).toMatchObject({
      name: '唐志远',
      match: 'mention',
    });
    expect((await find('Antony Gormley')).items).toEqual([]);
  });

  it('merges duplicates: the same name written differently, a name that is an alias, an alias that is a name', async () => {
    const first = await upsert({ objects: [{ type: 'person', name: 'Li Weidong', aliases: ['老李'] }] });
    const id = first.objects[0]?.id;
    expect(first.objects[0]).toMatchObject({ created: true, merged: false, revision: 1 });
    const respelled = await upsert({
      objects: [{ type: 'person', name: '  li  WEIDONG ', aliases: ['Weidong'] }],
    });
    expect(respelled.objects[0]).toMatchObject({ id, created: false, merged: true, revision: 2 });
    const byAlias = await upsert({ objects: [{ type: 'person', name: '老李', body: '财务' }] });
    expect(byAlias.objects[0]).toMatchObject({ id, merged: true, revision: 3 });
    const byName = await upsert({ objects: [{ type: 'person', name: '李卫东', aliases: ['Li Weidong'] }] });
    expect(byName.objects[0]).toMatchObject({ id, merged: true, revision: 4 });
    // Another type with the same name is another object.
    const project = await upsert({ objects: [{ type: 'project', name: 'Li Weidong' }] });
    expect(project.objects[0]?.id).not.toBe(id);
    expect(await count('objects')).toBe(2);
    const view = await read(id ?? '');
    expect(view.object).toMatchObject({ name: 'Li Weidong', body: '财务' });
    expect(view.object.aliases.sort()).toEqual(['Weidong', '李卫东', '老李'].sort());
    // Every write cited its own note: the merged object cites all four.
    expect(view.object.sources).toHaveLength(4);
    // The same statement again changes nothing: no new revision.
    const again = await upsert({ objects: [{ type: 'person', name: '李卫东' }] });
    expect(again.objects[0]).toMatchObject({ id, revision: 4, merged: true });
  });

  it('keeps every revision; an update by id renames and keeps the old name as an alias', async () => {
    const { objects } = await upsert({
      objects: [{ type: 'knowledge', name: '报销规则', body: '低于 300 元直接提交' }],
    });
    const id = objects[0]?.id ?? '';
    t += 60_000;
    const renamed = await upsert({
      objects: [{ id, type: 'knowledge', name: '报销制度', body: '低于 500 元直接提交' }],
    });
    expect(renamed.objects[0]).toMatchObject({ id, revision: 2, created: false, merged: false });
    const revisions = await sqlRows<{ revision: number; name: string; body: string; aliases: string }>(
      store.service.driver,
      'SELECT revision, name, body, aliases FROM object_revisions WHERE object_id = ? ORDER BY revision',
      [id],
    );
    expect(revisions.map((r) => [Number(r.revision), r.name, r.body, JSON.parse(r.aliases)])).toEqual([
      [1, '报销规则', '低于 300 元直接提交', []],
      [2, '报销制度', '低于 500 元直接提交', ['报销规则']],
    ]);
    // The index follows: the new body is found, the old one no longer.
    expect((await find('500 元')).items.map((i) => i.id)).toEqual([id]);
    expect((await find('300')).items).toEqual([]);
    expect((await find('报销规则')).items[0]).toMatchObject({ id, match: 'alias' });
    expect(await codeOf(upsert({ objects: [{ id, type: 'person', name: 'x' }] }))).toBe('INVALID_PARAMS');
    expect(await codeOf(upsert({ objects: [{ id: 'obj_missing', type: 'knowledge', name: 'x' }] }))).toBe(
      'NOT_FOUND',
    );
  });

  it('refuses a credential value in a credential_ref and stores nothing; redacts a secret in a body', async () => {
    const refused = upsert({
      objects: [{ type: 'credential_ref', name: 'GitHub deploy token', body: 'password=Tr0ub4dor-3xyz' }],
    });
    await expect(refused).rejects.toMatchObject({
      code: 'CREDENTIAL_VALUE_REFUSED',
      data: { issues: [{ path: 'objects.0.body' }] },
    });
    const inName = upsert({
      objects: [{ type: 'credential_ref', name: 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEF' }],
    });
    expect(await codeOf(inName)).toBe('CREDENTIAL_VALUE_REFUSED');
    expect(await count('objects')).toBe(0);
    expect(await count('events')).toBe(0);

    const ok = await upsert({
      objects: [
        {
          type: 'credential_ref',
          name: 'GitHub deploy token',
          body: '在 1Password 的 Work 保险库，条目 GitHub token',
        },
      ],
    });
    expect(ok.objects[0]?.created).toBe(true);
    const person = await upsert({
      objects: [
        {
          type: 'person',
          name: 'Kevin',
          body: 'his api key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEF',
        },
      ],
    });
    const view = await read(person.objects[0]?.id ?? '');
    expect(view.object.body).toBe('his api key is [redacted:api_key]');
    const stored = JSON.stringify(await sqlRows(store.service.driver, 'SELECT * FROM object_revisions'));
    expect(stored).not.toContain('sk-proj-');
  });

  it('refuses a body past 16,000 characters', async () => {
    const long = upsert({ objects: [{ type: 'knowledge', name: 'long', body: 'x'.repeat(16_001) }] });
    await expect(long).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    const fits = await upsert({ objects: [{ type: 'knowledge', name: 'long', body: 'x'.repeat(16_000) }] });
    expect(fits.objects[0]?.created).toBe(true);
  });

  it('cites a note event for a write without source_refs, and the given events otherwise', async () => {
    const noted = await upsert({ objects: [{ type: 'person', name: '小赵', body: '行政' }] });
    const [note] = noted.source_refs;
    expect(note).toMatch(/^write:/);
    const node = await client.call<{
      kind: string;
      role: string;
      text: string;
      cited_by: { objects: string[] };
    }>('memory.chain.node', { owner: OWNER, id: note });
    expect(node).toMatchObject({
      kind: 'note',
      role: 'system',
      cited_by: { objects: [noted.objects[0]?.id] },
    });
    expect(node.text).toContain('person 小赵');

    await ingest([{ event_id: 'u1', text: '小赵是行政，负责报销和订会议室' }]);
    const cited = await upsert({ objects: [{ type: 'person', name: '小赵' }], source_refs: ['u1'] });
    expect(cited.source_refs).toEqual(['u1']);
    expect((await read(cited.objects[0]?.id ?? '')).object.sources.map((s) => s.event_id)).toEqual([
      note,
      'u1',
    ]);
    expect(await codeOf(upsert({ objects: [{ type: 'person', name: '小赵' }], source_refs: ['nope'] }))).toBe(
      'NOT_FOUND',
    );
    // An event of another owner is no source of this one.
    await client.call('memory.events.ingest', {
      owner: 'user:bob',
      events: [{ event_id: 'b1', kind: 'note', role: 'user', at: T0, text: 'bob' }],
    });
    expect(await codeOf(upsert({ objects: [{ type: 'person', name: '小赵' }], source_refs: ['b1'] }))).toBe(
      'NOT_FOUND',
    );
  });

  it('refuses a source of another owner at the storage level too', async () => {
    const { objects } = await upsert({ objects: [{ type: 'person', name: '小赵' }] });
    await client.call('memory.events.ingest', {
      owner: 'user:bob',
      events: [{ event_id: 'b1', kind: 'note', role: 'user', at: T0, text: 'bob' }],
    });
    await expect(
      store.service.driver.run('INSERT INTO object_sources (owner, object_id, event_id) VALUES (?, ?, ?)', [
        OWNER,
        objects[0]?.id ?? '',
        'b1',
      ]),
    ).rejects.toThrow();
  });

  it('a new project is a candidate unless the write says otherwise; a decision needs the user’s verbatim words', async () => {
    await ingest([
      { event_id: 'u1', text: '潮汐这个项目我们正式立项吧，下周一开工' },
      { event_id: 'a1', kind: 'agent_reply', role: 'agent', text: '好的，潮汐正式立项' },
    ]);
    const { objects } = await upsert({
      objects: [
        { type: 'project', name: '潮汐', aliases: ['Project Tide'] },
        { type: 'project', name: '溪上茶事', status: 'active' },
      ],
    });
    const [tide, shop] = objects.map((o) => o.id);
    expect((await read(tide ?? '')).object.status).toBe('candidate');
    expect((await read(shop ?? '')).object.status).toBe('active');

    const decide = (extra: Record<string, unknown>) =>
      client.call<{ status: string; revision: number }>('memory.chain.project_decision', {
        owner: OWNER,
        id: tide,
        decision: 'confirm',
        event_id: 'u1',
        quote: '正式立项吧',
        ...extra,
      });
    await expect(decide({ quote: '正式立项了' })).rejects.toMatchObject({
      code: 'PROPOSAL_INVALID',
      data: { issues: [{ code: 'quote_not_verbatim' }] },
    });
    await expect(decide({ event_id: 'a1', quote: '正式立项' })).rejects.toMatchObject({
      code: 'PROPOSAL_INVALID',
      data: { issues: [{ code: 'user_quote_required' }] },
    });
    expect(await codeOf(decide({ event_id: 'zzz' }))).toBe('PROPOSAL_INVALID');
    const person = await upsert({ objects: [{ type: 'person', name: '老周' }] });
    expect(await codeOf(decide({ id: person.objects[0]?.id }))).toBe('INVALID_PARAMS');
    expect((await read(tide ?? '')).object.status).toBe('candidate');

    expect(await decide({})).toMatchObject({ status: 'active', revision: 2 });
    expect(await decide({})).toMatchObject({ status: 'active', revision: 2 });
    const view = await read(tide ?? '');
    expect(view.object.sources).toContainEqual({ event_id: 'u1', quote: '正式立项吧' });
    expect(await decide({ decision: 'reject', quote: '潮汐' })).toMatchObject({
      status: 'archived',
      revision: 3,
    });
    expect((await find('Project Tide')).items).toEqual([]);
    expect((await find('Project Tide', { include_archived: true })).items[0]).toMatchObject({ id: tide });
  });

  it('reads relations with their source events; restating a relation adds sources, not a second relation', async () => {
    await ingest([
      { event_id: 'u1', text: '老李负责潮汐项目的财务' },
      { event_id: 'u2', text: '潮汐的预算也是老李在管' },
    ]);
    const first = await upsert({
      objects: [
        { ref: 'li', type: 'person', name: '李卫东', aliases: ['老李'] },
        { ref: 'tide', type: 'project', name: '潮汐', status: 'active' },
      ],
      relations: [{ from: 'li', to: 'tide', type: 'works_on' }],
      source_refs: ['u1'],
    });
    const [li, tide] = first.objects.map((o) => o.id);
    expect(first.relations[0]?.created).toBe(true);
    const again = await upsert({
      objects: [],
      relations: [{ from: li, to: tide, type: 'works_on' }],
      source_refs: ['u2'],
    });
    expect(again.relations[0]).toEqual({ id: first.relations[0]?.id, created: false });
    const view = await read(li ?? '');
    expect(view.relations).toEqual([
      expect.objectContaining({
        type: 'works_on',
        from: li,
        to: tide,
        from_name: '李卫东',
        sources: ['u1', 'u2'],
      }),
    ]);
    expect(view.objects).toEqual([expect.objectContaining({ id: tide, name: '潮汐', depth: 1 })]);
    expect(view.sources.map((s) => [s.event_id, s.role, s.head])).toEqual([
      ['u1', 'user', '老李负责潮汐项目的财务'],
      ['u2', 'user', '潮汐的预算也是老李在管'],
    ]);
    expect(view.facts).toEqual([]);
    const bad = upsert({ objects: [], relations: [{ from: li, to: 'ghost', type: 'works_on' }] });
    await expect(bad).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      data: { issues: [{ path: 'relations.0.to' }] },
    });
    expect(await codeOf(upsert({ objects: [], relations: [{ from: li, to: li, type: 'knows' }] }))).toBe(
      'INVALID_PARAMS',
    );
    expect(await codeOf(upsert({ objects: [], relations: [{ from: li, to: tide, type: 'Works On' }] }))).toBe(
      'INVALID_PARAMS',
    );
  });

  it('expands to depth 2 a page at a time, in (depth, id) order', async () => {
    const people = ['甲一', '乙二', '丙三', '丁四', '戊五'];
    const objects = [
      { ref: 'hub', type: 'project', name: '枢纽', status: 'active' },
      ...people.map((name, i) => ({ ref: `p${i}`, type: 'person', name })),
      ...people.map((name, i) => ({ ref: `q${i}`, type: 'asset', name: `${name}的电脑` })),
    ];
    const relations = [
      ...people.map((_, i) => ({ from: `p${i}`, to: 'hub', type: 'works_on' })),
      ...people.map((_, i) => ({ from: `p${i}`, to: `q${i}`, type: 'uses' })),
    ];
    const written = await upsert({ objects, relations });
    const hub = written.objects[0]?.id ?? '';
    const ids = written.objects.map((o) => o.id);
    const level1 = ids.slice(1, 6).sort();
    const level2 = ids.slice(6).sort();

    expect((await read(hub, { depth: 0 })).objects).toEqual([]);
    expect((await read(hub, { depth: 0 })).relations).toHaveLength(5);
    expect((await read(hub, { depth: 1 })).objects.map((o) => o.id)).toEqual(level1);

    const seen: Array<[string, number]> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Read = await read(hub, { depth: 2, limit: 4, ...(cursor ? { cursor } : {}) });
      seen.push(...page.objects.map((o): [string, number] => [o.id, o.depth]));
      for (const r of page.relations)
        expect([r.from, r.to].some((id) => page.objects.some((o) => o.id === id) || id === hub)).toBe(true);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([
      ...level1.map((id): [string, number] => [id, 1]),
      ...level2.map((id): [string, number] => [id, 2]),
    ]);
    expect(await codeOf(read(hub, { depth: 3 }))).toBe('INVALID_PARAMS');
    expect(await codeOf(read('obj_nope'))).toBe('NOT_FOUND');
  });

  it('browses every object by stable id, archived included, a page at a time', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const written = await upsert({
      objects: names.map((name, i) => ({
        type: i % 2 === 0 ? 'task' : 'asset',
        name,
        ...(i === 3 ? { status: 'archived' } : {}),
      })),
    });
    const all: string[] = [];
    let after: string | null = null;
    do {
      const page: { items: Summary[]; next_after: string | null } = await client.call('memory.chain.browse', {
        owner: OWNER,
        limit: 3,
        ...(after ? { after } : {}),
      });
      expect(page.items.length).toBeLessThanOrEqual(3);
      all.push(...page.items.map((i) => i.id));
      after = page.next_after;
    } while (after);
    expect(all).toEqual(written.objects.map((o) => o.id).sort());
    const assets = await client.call<{ items: Summary[] }>('memory.chain.browse', {
      owner: OWNER,
      types: ['asset'],
    });
    expect(assets.items.map((i) => i.name).sort()).toEqual(['b', 'd', 'f']);
    expect(assets.items.find((i) => i.name === 'd')?.status).toBe('archived');
  });

  it('reads a range of a source event with chain.node', async () => {
    await ingest([{ event_id: 'u1', text: '0123456789'.repeat(3) }]);
    const node = await client.call<{ text: string; next_offset: number | null; length: number }>(
      'memory.chain.node',
      {
        owner: OWNER,
        id: 'u1',
        offset: 5,
        limit: 10,
      },
    );
    expect(node).toMatchObject({ text: '5678901234', next_offset: 15, length: 30 });
    expect(await codeOf(client.call('memory.chain.node', { owner: OWNER, id: 'nope' }))).toBe('NOT_FOUND');
  });

  it('keeps objects findable through an index rebuild', async () => {
    const { objects } = await upsert({
      objects: [{ type: 'person', name: '陶老师', body: '星河幼儿园大二班班主任' }],
    });
    await rebuildIndex(store.service.driver);
    expect((await find('幼儿园班主任')).items.map((i) => i.id)).toEqual([objects[0]?.id]);
  });
});
