// Issue 10, suggestions await a person: pending and redacted until approved (published into the track with
// the approver recorded) or rejected; decided once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { errorOf } from '../../test/helpers/errors.js';
import { openFactsFixture, said, type FactsFixture } from '../../test/helpers/facts.js';
import { sqlFirst } from '../../test/helpers/sql.js';

const OWNER = 'user:lin';
interface Suggestion {
  id: string;
  track: string;
  text: string;
  reason: string | null;
  status: string;
  decided_by: string | null;
  memory_id: string | null;
  source_refs: string[];
  added?: boolean | null;
}

describe.each(ENGINES)('suggestions on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  const suggest = (params: Record<string, unknown>) =>
    f.client.call<{ id: string; status: string }>('memory.suggest', { owner: OWNER, ...params });
  const decide = (id: string, decision: string, by = '林晓') =>
    f.client.call<Suggestion>('memory.suggestions.decide', { owner: OWNER, id, decision, by });
  const list = (params: Record<string, unknown> = {}) =>
    f.client.call<{ items: Suggestion[] }>('memory.suggestions.list', { owner: OWNER, ...params });
  const track = (name: string) =>
    f.client.call<{
      items: Array<{ id: string; text: string; approved_by: string | null; source_refs: string[] }>;
    }>('memory.track.list', { owner: OWNER, track: name });

  it('a suggestion is pending and redacted; the same one again while it waits is that one', async () => {
    await f.ingest(OWNER, [said('部署前要先跑冒烟测试', '2026-11-16 10:00', { event_id: 'u1' })]);
    const s = await suggest({
      track: 'key',
      text: 'Deploys need a smoke test first; token ghp_abcdefghijklmnopqrstuvwxyz0123456789 is the CI one',
      reason: 'the user said so twice',
      source_refs: ['u1'],
    });
    expect(s).toEqual({ id: expect.stringMatching(/^sug_/), status: 'pending' });
    const [stored] = (await list()).items;
    expect(stored).toMatchObject({ id: s.id, track: 'key', status: 'pending', source_refs: ['u1'] });
    expect(stored?.text).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(stored?.text).toContain('[redacted:');
    const again = await suggest({ track: 'key', text: stored?.text ?? '' });
    expect(again.id).toBe(s.id);
    expect(await errorOf(suggest({ track: 'key', text: 'x', source_refs: ['nope'] }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    // Nothing reached the track yet.
    expect((await track('key')).items).toEqual([]);
  });

  it('invariant: approve publishes into its track with the approver recorded; reject publishes nothing', async () => {
    await f.ingest(OWNER, [said('以后报销单都抄送财务', '2026-11-16 10:00', { event_id: 'u1' })]);
    const key = await suggest({ track: 'key', text: '报销单抄送财务', source_refs: ['u1'] });
    const approved = await decide(key.id, 'approve');
    expect(approved).toMatchObject({ status: 'approved', decided_by: '林晓', added: true });
    const [entry] = (await track('key')).items;
    expect(entry).toMatchObject({ id: approved.memory_id, text: '报销单抄送财务', approved_by: '林晓' });
    // It cites the note of the approval and the suggestion's sources.
    expect(entry?.source_refs).toEqual([expect.stringMatching(/^write:/), 'u1']);
    const note = await sqlFirst<{ text: string }>(
      f.service.driver,
      'SELECT text FROM events WHERE event_id = ?',
      [entry?.source_refs[0] ?? ''],
    );
    expect(note?.text).toContain(`approved by 林晓: ${key.id}`);
    const daily = await suggest({ track: 'daily', text: 'Spent the afternoon on the invoice export' });
    const rejected = await decide(daily.id, 'reject', 'Lin');
    expect(rejected).toMatchObject({ status: 'rejected', decided_by: 'Lin', memory_id: null, added: null });
    expect((await track('daily')).items).toEqual([]);
    expect((await list({ status: 'pending' })).items).toEqual([]);
    expect((await list({ status: 'approved' })).items.map((s) => s.id)).toEqual([key.id]);
  });

  it('invariant: a second decision is refused, whichever it is', async () => {
    const s = await suggest({ track: 'memory', text: 'The printer on floor 3 needs A4 only' });
    await decide(s.id, 'approve');
    expect(await errorOf(decide(s.id, 'approve'))).toMatchObject({ code: 'ALREADY_DECIDED' });
    expect(await errorOf(decide(s.id, 'reject'))).toMatchObject({ code: 'ALREADY_DECIDED' });
    expect((await track('memory')).items).toHaveLength(1);
    const r = await suggest({ track: 'memory', text: 'Lunch is at noon' });
    await decide(r.id, 'reject');
    expect(await errorOf(decide(r.id, 'approve'))).toMatchObject({ code: 'ALREADY_DECIDED' });
    expect(await errorOf(decide('sug_missing', 'approve'))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('an approved text its track holds already adds nothing; a failed publication leaves it pending', async () => {
    const { id: entry } = await f.client.call<{ id: string }>('memory.track.add', {
      owner: OWNER,
      track: 'memory',
      text: 'Invoices go to finance@corp',
    });
    const s = await suggest({ track: 'memory', text: 'invoices go to finance@corp' });
    expect(await decide(s.id, 'approve')).toMatchObject({ added: false, memory_id: entry });
    // A project named by id that is no project: the approval fails and the suggestion still waits.
    const { objects } = await f.client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      owner: OWNER,
      objects: [{ type: 'person', name: '王伟' }],
    });
    const p = await suggest({ track: 'project', project: objects[0]?.id, text: '王伟负责验收' });
    expect(await errorOf(decide(p.id, 'approve'))).toMatchObject({ code: 'INVALID_PARAMS' });
    expect((await list({ status: 'pending' })).items.map((x) => x.id)).toEqual([p.id]);
  });
});
