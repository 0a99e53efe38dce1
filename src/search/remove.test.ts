// SearchIndex.remove on both engines: a removed document is found by no channel and leaves its owner's
// statistics as they were before it was written.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import type { Driver } from '../storage/driver.js';
import { tokenize } from '../text/tokenize.js';
import { searchBm25, selectTerms } from './channels.js';
import { indexOf } from './index.js';
import { indexDocuments, removeDocument, type IndexDoc } from './store.js';

const doc = (owner: string, ref: string, text: string): IndexDoc => ({
  owner,
  kind: 'object',
  ref,
  at: 1_780_000_000_000,
  sessionId: null,
  taskId: null,
  body: tokenize(text),
});

describe.each(ENGINES)('SearchIndex.remove on %s', (engine) => {
  let store: TestService;
  let db: Driver;
  beforeEach(async () => {
    store = await openTestService(engine);
    db = store.service.driver;
  });
  afterEach(() => store.close());

  const write = (docs: IndexDoc[]) =>
    db.transaction(async (tx) => {
      await tx.lockOwner('alice');
      await indexDocuments(tx, docs);
    });
  const remove = (owner: string, ref: string) =>
    db.transaction(async (tx) => {
      await tx.lockOwner(owner);
      return removeDocument(tx, owner, 'object', ref);
    });
  const found = async (query: string) => {
    const selection = await selectTerms(db, 'alice', tokenize(query));
    const { hits } = await searchBm25(db, selection, { owner: 'alice' }, { limit: 10 });
    return hits.map((h) => h.ref);
  };
  const stats = async () => {
    const s = await indexOf(db).ownerStats(db, 'alice');
    return { docs: s?.docs, tokens: s?.tokens };
  };

  it('removes a document: no longer found, the owner’s statistics back to what they were', async () => {
    await write([doc('alice', 'keep', '李卫东 老李 财务部'), doc('bob', 'keep', '李卫东 Tony 唐志远')]);
    const before = await stats();
    await write([doc('alice', 'gone', 'Tony 唐志远 tech lead')]);
    expect(await found('唐志远')).toEqual(['gone']);
    expect((await stats()).docs).toBe((before.docs ?? 0) + 1);

    expect(await remove('alice', 'gone')).toBe(true);
    expect(await found('唐志远')).toEqual([]);
    expect(await found('Tony')).toEqual([]);
    expect(await found('老李')).toEqual(['keep']);
    expect(await stats()).toEqual(before);
    // Another owner's document of the same kind and ref is untouched.
    expect(await remove('alice', 'gone')).toBe(false);
    const bob = await selectTerms(db, 'bob', tokenize('Tony'));
    expect(bob.selected.map((t) => t.term)).toEqual(tokenize('Tony'));
  });

  it('writes a removed document again under the same ref', async () => {
    await write([doc('alice', 'obj', '李卫东')]);
    const before = await stats();
    await remove('alice', 'obj');
    await write([doc('alice', 'obj', '李卫东 老李')]);
    expect(await found('老李')).toEqual(['obj']);
    expect((await stats()).docs).toBe(before.docs);
  });
});
