import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../service.js';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { tokenize } from '../text/tokenize.js';
import { searchBm25, selectTerms } from './channels.js';
import { indexOf } from './index.js';
import { indexDocuments, type IndexDoc } from './store.js';
import { sqlRows } from '../../test/helpers/sql.js';

describe.each(ENGINES)('on %s', (engine) => {
  let handle: TestService;
  let service: MemoryService;

  const doc = (
    owner: string,
    ref: string,
    at: number,
    text: string,
    extra: Partial<IndexDoc> = {},
  ): IndexDoc => ({
    owner,
    kind: 'event',
    ref,
    at,
    sessionId: null,
    taskId: null,
    body: tokenize(text),
    ...extra,
  });

  beforeEach(async () => {
    handle = await openTestService(engine);
    service = handle.service;
    const docs: IndexDoc[] = [];
    // Interleaved owners: "big" holds most of the index, "small" a few documents spread among them.
    for (let i = 0; i < 60; i++) {
      docs.push(doc('big', `b${i}`, i, i % 3 === 0 ? `garden tomato note ${i}` : `garden note ${i}`));
      if (i % 10 === 0) docs.push(doc('small', `s${i}`, i, i % 20 === 0 ? 'garden tomato' : 'garden'));
    }
    await service.driver.transaction((tx) => indexDocuments(tx, docs));
  });
  afterEach(() => handle.close());

  const search = async (owner: string, terms: string[], extra: Record<string, unknown> = {}, limit = 100) =>
    (
      await searchBm25(
        service.driver,
        await selectTerms(service.driver, owner, terms),
        { owner, ...extra },
        { limit },
      )
    ).hits;
  const refs = async (owner: string, terms: string[], extra: Record<string, unknown> = {}, limit = 100) =>
    (await search(owner, terms, extra, limit)).map((h) => h.ref);

  describe('searchBm25', () => {
    it("returns only the owner's documents, best first, whichever way it plans the search", async () => {
      const small = await refs('small', ['tomato', 'garden']);
      expect(small.slice(0, 3).sort()).toEqual(['s0', 's20', 's40']);
      expect(small).toHaveLength(6);
      // "big" ranks first then joins; a span filter over all time makes it join first: same answer.
      const ranked = await refs('big', ['tomato', 'garden']);
      const joined = await refs('big', ['tomato', 'garden'], { spans: [{ from: 0, to: 1_000 }] });
      expect(joined).toEqual(ranked);
      expect(ranked).toHaveLength(60);
    });

    it('keeps the documents inside the spans', async () => {
      const inside = await refs('big', ['garden'], {
        spans: [
          { from: 10, to: 12 },
          { from: 50, to: 50 },
        ],
      });
      expect(inside.sort()).toEqual(['b10', 'b11', 'b12', 'b50']);
    });

    it("counts each owner's documents, tokens and ordinals as they are indexed", async () => {
      const rows = await sqlRows(
        service.driver,
        'SELECT owner, owner_key AS key, docs, tokens, last_ord AS ord FROM search_owners ORDER BY owner',
      );
      expect(rows).toEqual([
        { owner: 'big', key: 1, docs: 60, tokens: 60 * 3 + 20, ord: 60 },
        { owner: 'small', key: 2, docs: 6, tokens: 3 * 2 + 3 * 1, ord: 6 },
      ]);
      expect(await refs('nobody', ['garden'])).toEqual([]);
    });

    it('returns session and role with each hit, and weighs the context field below the body', async () => {
      await service.driver.transaction((tx) =>
        indexDocuments(tx, [
          doc('c', 'body', 1, 'violin lesson', { sessionId: 's', role: 'user' }),
          doc('c', 'ctx', 2, 'sure thing', {
            sessionId: 's',
            role: 'agent',
            context: tokenize('violin lesson'),
          }),
        ]),
      );
      const hits = await search('c', ['violin'], {}, 5);
      expect(hits.map((h) => [h.ref, h.sessionId, h.role])).toEqual([
        ['body', 's', 'user'],
        ['ctx', 's', 'agent'],
      ]);
    });
  });

  describe('BM25 scoring', () => {
    it('reads every occurrence of a term per field, and the lengths BM25 needs', async () => {
      const db = service.driver;
      await db.transaction((tx) =>
        indexDocuments(tx, [
          doc('w', 'w1', 1, 'apple apple pear', { cues: tokenize('apple'), context: tokenize('apple tree') }),
          doc('w', 'w2', 2, '苹果 apple'),
        ]),
      );
      const index = indexOf(db);
      const owner = await index.ownerStats(db, 'w');
      if (!owner) throw new Error('no owner');
      const [apple = '', han = ''] = tokenize('apple 苹');
      const postings = await index.postings(db, owner, [apple, han, 'absent']);
      const ids = [...(postings.get(apple)?.keys() ?? [])];
      expect([...(postings.get(apple)?.values() ?? [])]).toEqual([
        [2, 1, 1, 0],
        [1, 0, 0, 0],
      ]);
      expect([...(postings.get(han)?.values() ?? [])]).toEqual([[0, 0, 0, 1]]);
      expect(postings.get('absent')?.size).toBe(0);
      const lengths = await index.lengths(db, ids, { owner: 'w' });
      expect([...lengths.values()]).toEqual([
        { len: 3 + 1 + 2, at: 1 },
        { len: tokenize('苹果 apple').length + 2, at: 2 },
      ]);
      expect(await index.lengths(db, ids, { owner: 'w', from: 2 })).toEqual(
        new Map([[ids[1], { len: 4, at: 2 }]]),
      );
    });

    it('scores a term over the budget by the fields it is in, over its newest matches', async () => {
      const selection = await selectTerms(service.driver, 'big', ['garden']);
      const { hits } = await searchBm25(
        service.driver,
        selection,
        { owner: 'big' },
        { limit: 5, maxPostings: 10 },
      );
      // Every "garden" document is alike but for its length: the shortest (no tomato) of the newest ten win.
      expect(hits.map((h) => h.ref)).toEqual(['b59', 'b58', 'b56', 'b55', 'b53']);
    });

    it("selects at most `perSource` translations of one query word, the owner's rarest it holds", async () => {
      // 菜园 offers garden, tomato, note, plot; "small" holds garden and tomato only.
      const translations = new Map(['garden', 'tomato', 'note', 'plot'].map((t) => [t, '菜园']));
      const terms = ['菜园', 'garden', 'tomato', 'note', 'plot'];
      const one = await selectTerms(service.driver, 'small', terms, { translations, perSource: 1 });
      expect(one.selected.map((t) => t.term)).toEqual(['tomato']);
      const two = await selectTerms(service.driver, 'small', terms, { translations, perSource: 2 });
      expect(two.selected.map((t) => t.term)).toEqual(['tomato', 'garden']);
      // Without the option every term is taken, rarest first.
      const all = await selectTerms(service.driver, 'big', terms);
      expect(all.selected.map((t) => t.term)).toEqual(['tomato', 'garden', 'note']);
    });
  });
});
