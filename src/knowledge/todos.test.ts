// Issue 10, todos: objects of type todo across four tracks; a duplicate open todo adds nothing; each change
// is a revision; the smart view shows at most 8, overdue first, then due soonest, then most recently touched.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { errorOf } from '../../test/helpers/errors.js';
import { at, openFactsFixture, type FactsFixture } from '../../test/helpers/facts.js';
import { sqlRows } from '../../test/helpers/sql.js';

const OWNER = 'user:lin';
interface Todo {
  id: string;
  track: string;
  title: string;
  status: string;
  due: string | null;
  overdue: boolean;
  project_id: string | null;
  revision: number;
  touched_at: string;
}

describe.each(ENGINES)('todos on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  const add = (params: Record<string, unknown>) =>
    f.client.call<{ id: string; added: boolean }>('memory.todo.add', { owner: OWNER, ...params });
  const update = (params: Record<string, unknown>) =>
    f.client.call<Todo>('memory.todo.update', { owner: OWNER, ...params });
  const list = (params: Record<string, unknown> = {}) =>
    f.client.call<{ items: Todo[] }>('memory.todo.list', { owner: OWNER, ...params });
  const view = () =>
    f.client.call<{ items: Todo[]; open: number; overdue: number }>('memory.todo.view', { owner: OWNER });
  const later = (minutes = 1) => f.clock.set(f.clock.now() + minutes * 60_000);

  it('invariant: a duplicate open todo of the same track adds nothing; another track or a done one does', async () => {
    const milk = await add({ track: 'life', title: '买牛奶' });
    expect(milk.added).toBe(true);
    expect(await add({ track: 'life', title: ' 买牛奶。' })).toEqual({ id: milk.id, added: false });
    const work = await add({ track: 'work', title: '买牛奶' });
    expect(work).toMatchObject({ added: true });
    expect(work.id).not.toBe(milk.id);
    await update({ id: milk.id, status: 'done' });
    const again = await add({ track: 'life', title: '买牛奶' });
    expect(again.added).toBe(true);
    expect(again.id).not.toBe(milk.id);
    // Each todo is an object citing the note of its write.
    const rows = await sqlRows<{ type: string; status: string }>(
      f.service.driver,
      `SELECT o.type, o.status FROM objects o WHERE o.owner = ? ORDER BY o.created_at, o.object_id`,
      [OWNER],
    );
    expect(rows.map((r) => r.type)).toEqual(['todo', 'todo', 'todo']);
    const cited = await sqlRows<{ event_id: string }>(
      f.service.driver,
      'SELECT event_id FROM object_sources WHERE owner = ? AND object_id = ?',
      [OWNER, milk.id],
    );
    expect(cited.map((c) => c.event_id)).toEqual([
      expect.stringMatching(/^write:/),
      expect.stringMatching(/^write:/),
    ]);
  });

  it('an update is a new revision; title, due and status change; an unknown id is NOT_FOUND', async () => {
    const { id } = await add({ track: 'work', title: 'Send the Q3 deck', due: '2026-11-20' });
    later();
    const changed = await update({ id, title: 'Send the Q4 deck', due: '2026-11-21T18:00:00+08:00' });
    expect(changed).toMatchObject({
      title: 'Send the Q4 deck',
      due: '2026-11-21T18:00:00+08:00',
      revision: 2,
    });
    const done = await update({ id, status: 'done' });
    expect(done).toMatchObject({ status: 'done', revision: 3, overdue: false });
    const cleared = await update({ id, due: null, status: 'open' });
    expect(cleared).toMatchObject({ due: null, status: 'open', revision: 4 });
    const revisions = await sqlRows<{ revision: number; name: string; attrs: string }>(
      f.service.driver,
      'SELECT revision, name, attrs FROM object_revisions WHERE owner = ? AND object_id = ? ORDER BY revision',
      [OWNER, id],
    );
    expect(revisions.map((r) => [Number(r.revision), r.name, JSON.parse(r.attrs).todo_status])).toEqual([
      [1, 'Send the Q3 deck', 'open'],
      [2, 'Send the Q4 deck', 'open'],
      [3, 'Send the Q4 deck', 'done'],
      [4, 'Send the Q4 deck', 'open'],
    ]);
    expect(await errorOf(update({ id: 'obj_missing', status: 'done' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await errorOf(update({ id }))).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(await errorOf(add({ track: 'work', title: 'x', due: 'next friday' }))).toMatchObject({
      code: 'INVALID_PARAMS',
    });
  });

  it('a project todo belongs to its project; list filters by track and status', async () => {
    const { id } = await add({ track: 'project', title: '写发布说明', project: '阿波罗' });
    await add({ track: 'life', title: 'Renew the passport' });
    const [todo] = (await list({ track: 'project' })).items;
    expect(todo).toMatchObject({ id, title: '写发布说明', track: 'project' });
    const relation = await sqlRows<{ type: string; to_id: string }>(
      f.service.driver,
      'SELECT type, to_id FROM object_relations WHERE owner = ? AND from_id = ?',
      [OWNER, id],
    );
    expect(relation).toEqual([{ type: 'belongs_to', to_id: todo?.project_id }]);
    expect(await errorOf(add({ track: 'project', title: 'no project' }))).toMatchObject({
      code: 'INVALID_PARAMS',
    });
    await update({ id, status: 'dropped' });
    expect((await list({ status: 'open' })).items.map((t) => t.title)).toEqual(['Renew the passport']);
    expect((await list({ status: 'dropped' })).items.map((t) => t.title)).toEqual(['写发布说明']);
  });

  it('invariant: the view shows at most 8 open todos: overdue first, then due soonest, then most recently touched', async () => {
    f.clock.set(at('2026-11-16 09:00'));
    const ids = new Map<string, string>();
    const todo = async (title: string, due?: string) => {
      later();
      ids.set(title, (await add({ track: 'work', title, ...(due ? { due } : {}) })).id);
    };
    await todo('no due, oldest');
    await todo('due Friday', '2026-11-20');
    await todo('overdue by a week', '2026-11-09');
    await todo('due Wednesday 10:00', '2026-11-18T10:00:00+08:00');
    await todo('overdue since this morning', '2026-11-16T08:00:00+08:00');
    await todo('no due, newer');
    await todo('due today (this workday)', '2026-11-16');
    await todo('no due, newest');
    await todo('no due, touched last');
    await todo('a done one', '2026-11-01');
    await update({ id: ids.get('a done one'), status: 'done' });
    later();
    // Touching an old todo brings it up among those without a due date.
    await update({ id: ids.get('no due, oldest'), title: 'no due, oldest (touched)' });
    const v = await view();
    expect(v.items.map((t) => t.title)).toEqual([
      'overdue by a week',
      'overdue since this morning',
      'due today (this workday)',
      'due Wednesday 10:00',
      'due Friday',
      'no due, oldest (touched)',
      'no due, touched last',
      'no due, newest',
    ]);
    expect(v).toMatchObject({ open: 9, overdue: 2 });
    expect(v.items.filter((t) => t.overdue).map((t) => t.title)).toEqual([
      'overdue by a week',
      'overdue since this morning',
    ]);
    // A day is due until its workday ends (03:30 the next morning): tonight it is not overdue yet.
    f.clock.set(at('2026-11-17 03:29'));
    expect((await view()).overdue).toBe(2);
    f.clock.set(at('2026-11-17 03:30'));
    expect((await view()).items[2]).toMatchObject({ title: 'due today (this workday)', overdue: true });
  });
});
