import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, type MemoryService } from '../service.js';
import { tokenize } from '../text/tokenize.js';
import { searchBm25 } from './channels.js';
import { indexDocuments, type IndexDoc } from './store.js';

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
  service = await openMemory({ config: { dataDir: 'unused', redactEmails: true }, databasePath: ':memory:' });
  const docs: IndexDoc[] = [];
  // Interleaved owners: "big" holds most of the index, "small" a few documents spread among them.
  for (let i = 0; i < 60; i++) {
    docs.push(doc('big', `b${i}`, i, i % 3 === 0 ? `garden tomato note ${i}` : `garden note ${i}`));
    if (i % 10 === 0) docs.push(doc('small', `s${i}`, i, i % 20 === 0 ? 'garden tomato' : 'garden'));
  }
  await service.driver.transaction((tx) => indexDocuments(tx, docs));
});
afterEach(() => service.close());

const refs = async (owner: string, terms: string[], extra: Record<string, unknown> = {}, limit = 100) =>
  (await searchBm25(service.driver, terms, { owner, ...extra }, { limit })).map((h) => h.ref);

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

  it("counts each owner's documents and bounds as they are indexed", async () => {
    const rows = await service.driver.query(
      'SELECT owner, docs, first_doc < last_doc AS spread FROM search_owners ORDER BY owner',
    );
    expect(rows).toEqual([
      { owner: 'big', docs: 60, spread: 1 },
      { owner: 'small', docs: 6, spread: 1 },
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
    const hits = await searchBm25(service.driver, ['violin'], { owner: 'c' }, { limit: 5 });
    expect(hits.map((h) => [h.ref, h.sessionId, h.role])).toEqual([
      ['body', 's', 'user'],
      ['ctx', 's', 'agent'],
    ]);
  });
});
