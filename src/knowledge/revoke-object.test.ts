// Issue 10: memory.revoke withdraws an object too: it keeps its rows but no reader reaches it (find by name
// or alias, browse, read, todo lists, the index recall reads), not even with include_archived; a
// restatement of its name merges into it and it stays revoked.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/helpers/engines.js';
import { openFactsFixture, type FactsFixture } from '../../test/helpers/facts.js';
import { isMemoryError } from '../errors.js';
import { row, str } from '../storage/rows.js';
import { objectVisibility, visibleObject } from './visibility.js';

const OWNER = 'user:sun';

describe.each(ENGINES)('memory.revoke of an object on %s', (engine) => {
  let f: FactsFixture;
  beforeEach(async () => {
    f = await openFactsFixture(engine);
  });
  afterEach(() => f.close());

  const call = <T>(method: string, params: Record<string, unknown>) =>
    f.client.call<T>(method, { owner: OWNER, ...params });
  const ids = (r: { items: Array<{ id: string }> }) => r.items.map((i) => i.id);
  /** The note event an upserted object cites. */
  const noteOf = async (id: string) =>
    (
      await f.service.driver.all(
        row({ event_id: str }),
        'SELECT event_id FROM object_sources WHERE object_id = ?',
        [id],
      )
    )[0]?.event_id ?? '';

  it('hides a revoked object from find, browse, read, todos and recall; revoking again keeps the reason', async () => {
    const { objects } = await call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      objects: [
        { type: 'person', name: '唐志远', aliases: ['Tony'], body: 'Tony runs the Lisbon office' },
        { type: 'person', name: '林晓', aliases: ['晓晓'] },
      ],
    });
    const [tony, lin] = objects.map((o) => o.id);
    const todo = await call<{ id: string }>('memory.todo.add', { track: 'work', title: '给 Tony 回邮件' });
    expect(ids(await call('memory.chain.find', { query: 'Tony' }))).toContain(tony);

    const revoked = await call<Record<string, unknown>>('memory.revoke', {
      id: tony,
      reason: '认错人了 wrong person',
    });
    expect(revoked).toMatchObject({
      id: tony,
      kind: 'object',
      status: 'revoked',
      reason: '认错人了 wrong person',
    });
    await call('memory.revoke', { id: todo.id, reason: 'not mine' });
    const again = await call<Record<string, unknown>>('memory.revoke', {
      id: tony,
      reason: 'another reason',
    });
    expect(again).toEqual(revoked);

    for (const query of ['Tony', '唐志远', 'Lisbon office'])
      expect(ids(await call('memory.chain.find', { query, include_archived: true })), query).not.toContain(
        tony,
      );
    expect(ids(await call('memory.chain.browse', {}))).toEqual([lin]);
    const read = await call('memory.chain.read', { id: tony }).then(
      () => undefined,
      (e: unknown) => (isMemoryError(e) ? e.code : e),
    );
    expect(read).toBe('NOT_FOUND');
    expect(ids(await call('memory.todo.list', {}))).toEqual([]);
    const note = await noteOf(tony ?? '');
    const node = await call<{ cited_by: { objects: string[] } }>('memory.chain.node', { id: note });
    expect(node.cited_by.objects).toEqual([lin]);
    const recalled = await call<{ items: Array<{ id: string }> }>('memory.recall', {
      query: 'Tony Lisbon office',
      wait_ms: 60_000,
    });
    expect(ids(recalled)).not.toContain(tony);
    // Recall's channels read the index: the object's document is gone from it.
    const docs = await f.service.driver.all(
      row({ ref: str }),
      `SELECT ref FROM search_docs WHERE owner = ? AND kind = 'object'`,
      [OWNER],
    );
    expect(docs.map((d) => d.ref)).toEqual([lin]);

    const seen = await objectVisibility(f.service.driver, OWNER, [tony ?? '', lin ?? '']);
    expect([...seen.values()].map((o) => [o.object_id, visibleObject(o)])).toEqual(
      expect.arrayContaining([
        [tony, false],
        [lin, true],
      ]),
    );
    // The name stays taken: a restatement merges into the revoked object, which stays hidden.
    const restated = await call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      objects: [{ type: 'person', name: '唐志远', aliases: ['志远'] }],
    });
    expect(restated.objects[0]?.id).toBe(tony);
    expect(ids(await call('memory.chain.find', { query: '志远' }))).not.toContain(tony);
  });

  it('answers NOT_FOUND for an object of another owner', async () => {
    const { objects } = await f.client.call<{ objects: Array<{ id: string }> }>('memory.chain.upsert', {
      owner: 'user:zhou',
      objects: [{ type: 'asset', name: '蓝色文件夹' }],
    });
    const out = await call('memory.revoke', { id: objects[0]?.id, reason: 'probe' }).then(
      () => undefined,
      (e: unknown) => (isMemoryError(e) ? e.code : e),
    );
    expect(out).toBe('NOT_FOUND');
  });
});
