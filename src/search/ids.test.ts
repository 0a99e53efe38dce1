// The exact id channel ranks alike on every engine.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { tokenize } from '../text/tokenize.js';
import { searchIds } from './channels.js';
import { indexDocuments, type IndexDoc } from './store.js';

describe.each(ENGINES)('searchIds on %s', (engine) => {
  let handle: TestService;
  beforeEach(async () => {
    handle = await openTestService(engine);
    // Six documents at one time (the turns of one session share its date), each naming the same id.
    const docs: IndexDoc[] = Array.from({ length: 6 }, (_, i) => ({
      owner: 'o',
      kind: 'event',
      ref: `d${i}`,
      at: 1_000,
      sessionId: 'sess-1',
      taskId: null,
      body: tokenize(`invoice inv-2041 line ${i}`),
    }));
    await handle.service.driver.transaction((tx) => indexDocuments(tx, docs));
  });
  afterEach(() => handle.close());

  it('regression for issue 9: breaks ties of score and time by the later document, also at the limit', async () => {
    const db = handle.service.driver;
    const byText = await searchIds(db, ['inv-2041'], [], { owner: 'o' }, 3);
    expect(byText.map((h) => h.ref)).toEqual(['d5', 'd4', 'd3']);
    const bySession = await searchIds(db, [], ['sess-1'], { owner: 'o' }, 4);
    expect(bySession.map((h) => h.ref)).toEqual(['d5', 'd4', 'd3', 'd2']);
  });
});
