import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { createLocalClient, type LocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { irregularForms } from './irregular.js';
import { planQuery } from './query.js';

describe('irregularForms', () => {
  it("adds the other forms of the query's irregular verbs as index terms, none it holds", () => {
    expect(irregularForms(['draw', 'pictur'])).toEqual(['drew', 'drawn']);
    expect(irregularForms(['bought'])).toEqual(['buy']);
    expect(irregularForms(['went', 'go'])).toEqual(['gone']);
    // Regular verbs are the stemmer's: walked and walk already meet on one term.
    expect(irregularForms(['walk', '画画'])).toEqual([]);
  });

  it('is part of the query plan, apart from its own terms', () => {
    const plan = planQuery('What did Caroline draw for the show?', { at: 0 });
    expect(plan.terms).toContain('draw');
    expect(plan.terms).not.toContain('drew');
    expect(plan.variants).toEqual(['drew', 'drawn', 'shown']);
  });
});

describe.each(ENGINES)('recall: a query verb meets its irregular forms (issue 11) on %s', (engine) => {
  let handle: TestService;
  let client: LocalClient;
  beforeEach(async () => {
    handle = await openTestService(engine);
    client = createLocalClient(createMethodTable(handle.service));
    const T = Date.parse('2026-09-01T09:00:00Z');
    const ev = (id: string, minute: number, text: string) => ({
      event_id: id,
      kind: 'user_message',
      role: 'user',
      at: T + minute * 60_000,
      text,
    });
    await client.call('memory.events.ingest', {
      owner: 'me',
      events: [
        ev('drew', 0, 'I drew it myself: a sunflower for the show.'),
        ev('other', 1, 'The weather was grey all week.'),
        ev('bought', 2, '我昨天 bought 了一台新的咖啡机。'),
      ],
    });
  });
  afterEach(() => handle.close());

  it('finds "I drew it" for "what did I draw", and 咖啡机 text for "buy"', async () => {
    const ask = (query: string) =>
      client.call<{ items: Array<{ id: string }> }>('memory.recall', {
        owner: 'me',
        query,
        kinds: ['event'],
        wait_ms: 60_000,
      });
    expect((await ask('what did I draw')).items[0]?.id).toBe('drew');
    expect((await ask('when did I buy it')).items.map((i) => i.id)).toContain('bought');
  });
});
