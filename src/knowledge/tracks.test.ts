// Issue 10, the maestro tracks: entries as memories citing a note, duplicates that add nothing, the key
// track only through an approved suggestion, lists and expansion, archiving that moves and never drops.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { errorOf } from '../../test/helpers/errors.js';
import { heuristically, openFactsFixture, said, type FactsFixture } from '../../test/helpers/facts.js';
import { sqlFirst } from '../../test/helpers/sql.js';

const OWNER = 'user:lin';
interface Added {
  id: string;
  added: boolean;
  status: string;
}
interface Entry {
  id: string;
  track: string | null;
  kind: string;
  text: string;
  summary: string | null;
  status: string;
  project_id: string | null;
  approved_by: string | null;
  source_refs: string[];
}

describe.each(ENGINES)('tracks on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  const add = (params: Record<string, unknown>) =>
    f.client.call<Added>('memory.track.add', { owner: OWNER, ...params });
  const list = (params: Record<string, unknown>) =>
    f.client.call<{ items: Entry[]; next_cursor: string | null }>('memory.track.list', {
      owner: OWNER,
      ...params,
    });
  const expand = (id: string) =>
    f.client.call<Entry & { sources: Array<{ event_id: string; role: string; text: string }> }>(
      'memory.track.expand',
      { owner: OWNER, id },
    );
  const memory = (id: string) =>
    sqlFirst<Record<string, unknown>>(f.service.driver, 'SELECT * FROM memories WHERE memory_id = ?', [id]);
  const tick = () => f.clock.set(f.clock.now() + 60_000);
  const events = async () =>
    Number((await sqlFirst<{ n: number }>(f.service.driver, 'SELECT count(*) AS n FROM events'))?.n);

  it('adds an entry to each track as the memory its track makes it, citing a note stored first', async () => {
    const mem = await add({ track: 'memory', text: '发票抬头用公司全称', summary: '发票抬头' });
    expect(mem).toMatchObject({ added: true, status: 'active' });
    expect(await memory(mem.id)).toMatchObject({
      kind: 'fact',
      subject: null,
      track: 'memory',
      status: 'active',
      summary: '发票抬头',
    });
    const entry = await expand(mem.id);
    expect(entry.sources).toHaveLength(1);
    expect(entry.sources[0]?.event_id).toMatch(/^write:/);
    expect(entry.sources[0]?.text).toContain('发票抬头用公司全称');
    // The user's own words make a preference quoting them; the host's, a fact about the user.
    const mine = await add({ track: 'user', text: 'I prefer aisle seats on long flights', role: 'user' });
    expect(await memory(mine.id)).toMatchObject({ kind: 'preference', track: 'user', origin: 'user' });
    expect(JSON.parse(String((await memory(mine.id))?.quotes))[0].text).toBe(
      'I prefer aisle seats on long flights',
    );
    const hosts = await add({ track: 'user', text: '用户在上海工作' });
    expect(await memory(hosts.id)).toMatchObject({ kind: 'fact', track: 'user', origin: 'host' });
    const daily = await add({ track: 'daily', text: 'Shipped the invoice export today' });
    expect(await memory(daily.id)).toMatchObject({ kind: 'episode', track: 'daily' });
    // A project entry is a fact about the project: an unknown name becomes a candidate project.
    const proj = await add({ track: 'project', project: 'Apollo', text: 'Staging runs on port 8443' });
    const row = await memory(proj.id);
    expect(row).toMatchObject({ kind: 'fact', fact_kind: 'project', subject: 'Apollo', track: 'project' });
    const project = await sqlFirst<{ name: string; status: string; type: string }>(
      f.service.driver,
      'SELECT name, status, type FROM objects WHERE object_id = ?',
      [String(row?.project_id)],
    );
    expect(project).toEqual({ name: 'Apollo', status: 'candidate', type: 'project' });
    expect(await errorOf(add({ track: 'project', text: 'no project named' }))).toMatchObject({
      code: 'INVALID_PARAMS',
    });
  });

  it('a write that restates a live entry of its track adds nothing: added false, no note', async () => {
    const first = await add({ track: 'memory', text: 'Use pnpm, not npm, in this repo.' });
    const before = await events();
    const again = await add({ track: 'memory', text: '  use PNPM not npm in this repo ' });
    expect(again).toEqual({ id: first.id, added: false, status: 'active' });
    expect(await events()).toBe(before);
    // The same text in another track is another entry.
    expect((await add({ track: 'daily', text: 'Use pnpm, not npm, in this repo.' })).added).toBe(true);
    // An observed preference is in the user track already.
    const receipt = await f.publish(
      OWNER,
      [said('我喜欢靠窗的座位', '2026-11-16 10:00', { event_id: 'u1' })],
      [
        {
          kind: 'preference',
          text: '我喜欢靠窗的座位',
          sources: ['u1'],
          quotes: [{ event_id: 'u1', text: '靠窗' }],
        },
      ],
    );
    const restated = await add({ track: 'user', text: '我喜欢靠窗的座位。', role: 'user' });
    expect(restated).toMatchObject({ id: receipt.memory_ids[0], added: false });
  });

  it('observing the notes of writes restates nothing: no episode of them in the daily track', async () => {
    await add({ track: 'memory', text: 'The build cache lives in /var/cache/ci' });
    await add({ track: 'user', text: 'I prefer short answers', role: 'user' });
    await f.ingest(OWNER, [said('帮我查一下发票', '2026-11-16 09:30', { event_id: 'u1', session_id: 's1' })]);
    const receipt = await f.observe(OWNER, heuristically);
    expect((await list({ track: 'daily' })).items.map((e) => e.source_refs)).toEqual([['u1']]);
    expect((await list({ track: 'user' })).items.map((e) => e.text)).toEqual(['I prefer short answers']);
    expect(receipt.memory_ids).toHaveLength(1);
  });

  it('redacts what it stores: the entry and its note', async () => {
    const { id } = await add({
      track: 'memory',
      text: 'The staging password=Hunter2-Secret! is in 1Password',
    });
    const row = await memory(id);
    expect(String(row?.text)).not.toContain('Hunter2-Secret');
    expect(String(row?.text)).toContain('[redacted:');
    const note = (await expand(id)).sources[0];
    expect(note?.text).not.toContain('Hunter2-Secret');
  });

  it('key entries only through an approved suggestion: a direct write is APPROVAL_REQUIRED', async () => {
    const refused = await errorOf(add({ track: 'key', text: '生产库只读，改动走工单' }));
    expect(refused.code).toBe('APPROVAL_REQUIRED');
    expect((await list({ track: 'key' })).items).toEqual([]);
    const { id } = await f.client.call<{ id: string }>('memory.suggest', {
      owner: OWNER,
      track: 'key',
      text: '生产库只读，改动走工单',
    });
    await f.client.call('memory.suggestions.decide', { owner: OWNER, id, decision: 'approve', by: 'Lin' });
    const key = (await list({ track: 'key' })).items;
    expect(key.map((e) => [e.text, e.approved_by, e.status])).toEqual([
      ['生产库只读，改动走工单', 'Lin', 'active'],
    ]);
  });

  it('lists a track newest first, a page at a time, with the memories its kind gives it', async () => {
    const ids: string[] = [];
    for (const text of ['first note', 'second note', 'third note']) {
      tick();
      ids.push((await add({ track: 'memory', text })).id);
    }
    await f.publish(
      OWNER,
      [said('Remember that the VPN needs the hardware key', '2026-11-16 08:00', { event_id: 'r1' })],
      [
        {
          kind: 'fact',
          fact_kind: 'environment',
          subject: 'VPN',
          predicate: 'needs',
          object: 'the hardware key',
          text: 'The VPN needs the hardware key',
          sources: ['r1'],
        },
      ],
    );
    const page1 = await list({ track: 'memory', limit: 2 });
    expect(page1.items.map((e) => e.text)).toEqual(['third note', 'second note']);
    const page2 = await list({ track: 'memory', limit: 2, cursor: page1.next_cursor });
    expect(page2.items.map((e) => [e.text, e.track])).toEqual([
      ['first note', 'memory'],
      ['The VPN needs the hardware key', 'memory'],
    ]);
    expect(page2.next_cursor).toBeNull();
    // Projects by name or alias; an unknown project holds nothing.
    await f.client.call('memory.chain.upsert', {
      owner: OWNER,
      objects: [{ type: 'project', name: '阿波罗计划', aliases: ['Apollo'], status: 'active' }],
    });
    await add({ track: 'project', project: 'Apollo', text: '周五发布窗口 18:00' });
    expect((await list({ track: 'project', project: '阿波罗计划' })).items.map((e) => e.text)).toEqual([
      '周五发布窗口 18:00',
    ]);
    expect((await list({ track: 'project', project: 'Hermes' })).items).toEqual([]);
    // Another owner's tracks are not this one's.
    expect(
      (await f.client.call<{ items: [] }>('memory.track.list', { owner: 'user:bob', track: 'memory' })).items,
    ).toEqual([]);
    expect(await errorOf(expand('mem_missing'))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('invariant: archive: a dry run reports, confirm moves, nothing is dropped', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      tick();
      ids.push((await add({ track: 'memory', text: `entry ${i}` })).id);
    }
    const archive = (params: Record<string, unknown>) =>
      f.client.call<{ moved: number; entries: Array<{ id: string }>; kept: number; dry_run: boolean }>(
        'memory.track.archive',
        { owner: OWNER, track: 'memory', keep: 2, ...params },
      );
    const dry = await archive({});
    expect(dry).toMatchObject({ dry_run: true, moved: 0, kept: 2 });
    expect(dry.entries.map((e) => e.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect((await list({ track: 'memory' })).items).toHaveLength(5);
    expect(await errorOf(archive({ dry_run: false }))).toMatchObject({ code: 'INVALID_PARAMS' });
    expect((await list({ track: 'memory' })).items).toHaveLength(5);
    const moved = await archive({ dry_run: false, confirm: true });
    expect(moved).toMatchObject({ dry_run: false, moved: 3, kept: 2 });
    expect((await list({ track: 'memory' })).items.map((e) => e.text)).toEqual(['entry 5', 'entry 4']);
    const all = await list({ track: 'memory', include_archived: true });
    expect(all.items.map((e) => [e.text, e.status])).toEqual([
      ['entry 5', 'active'],
      ['entry 4', 'active'],
      ['entry 3', 'archived'],
      ['entry 2', 'archived'],
      ['entry 1', 'archived'],
    ]);
    const kept = await expand(ids[0] ?? '');
    expect(kept).toMatchObject({ text: 'entry 1', status: 'archived' });
    expect(kept.sources).toHaveLength(1);
    expect(await memory(ids[0] ?? '')).toMatchObject({ lifecycle: 'deprecated', status: 'deprecated' });
    // Moved once: the next run finds nothing more to move.
    expect((await archive({ dry_run: false, confirm: true })).moved).toBe(0);
    // Older than `before` moves too, whatever the budget.
    const old = await archive({ keep: 10, before: f.clock.now() + 1 });
    expect(old.entries.map((e) => e.id)).toEqual([ids[4], ids[3]]);
  });

  it('an archived fact stays archived when its key is settled again', async () => {
    const fact = (object: string, sources: string[]) => ({
      kind: 'fact',
      fact_kind: 'project' as const,
      subject: '会议纪要',
      predicate: '格式',
      object,
      text: `会议纪要用 ${object}`,
      sources,
    });
    const receipt = await f.publish(
      OWNER,
      [said('会议纪要用 Word', '2026-11-16 10:00', { event_id: 'w1' })],
      [fact('Word', ['w1'])],
    );
    const id = receipt.memory_ids[0] ?? '';
    await f.client.call('memory.track.archive', {
      owner: OWNER,
      track: 'memory',
      keep: 0,
      dry_run: false,
      confirm: true,
    });
    // An agent's newer value places the key again; the user's archived fact is not revived.
    const reply = said('会议纪要用 PDF', '2026-11-17 10:00', {
      event_id: 'a1',
      kind: 'agent_reply',
      role: 'agent',
    });
    await f.publish(OWNER, [reply], [fact('PDF', ['a1'])]);
    expect(await memory(id)).toMatchObject({ lifecycle: 'deprecated', status: 'deprecated' });
    expect((await memory(id))?.archived_at).not.toBeNull();
    expect((await list({ track: 'memory' })).items.map((e) => e.text)).toEqual(['会议纪要用 PDF']);
  });
});
