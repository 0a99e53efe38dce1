// Regression (issue 8): term selection and BM25 statistics depend on the caller's own owner only. Before,
// `terms.selected` of bob's query revealed which words occur only in alice's events, and bob could inflate
// a term's frequency so that alice's queries dropped it.
import { afterEach, describe, expect, it } from 'vitest';
import { ingestEvents } from '../ingest/ingest.js';
import type { MemoryService } from '../service.js';
import { ENGINES, openTestService, type Engine, type TestService } from '../../test/helpers/engines.js';
import { recallMemory } from './recall.js';
import { RecallParamsSchema } from './schema.js';

const handles: TestService[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

const open = async (engine: Engine) => {
  const handle = await openTestService(engine);
  handles.push(handle);
  return handle.service;
};

const event = (id: string, text: string, i: number) => ({
  event_id: id,
  session_id: `s${i % 4}`,
  kind: i % 2 === 0 ? 'user_message' : 'agent_reply',
  role: i % 2 === 0 ? 'user' : 'agent',
  at: 1_780_000_000_000 + i * 60_000,
  text,
});

const ALICE = [
  'The plumber fixed the kitchen sink on Tuesday',
  'Remind me to renew the passport before the Lisbon trip',
  '护照续签需要带两张照片',
  'Invoice INV-2231 from the plumber is due Friday',
  'The kitchen tiles are cracked near the sink',
  '下周二去里斯本出差，记得订酒店',
  'My passport photo appointment is at 10am',
  'The Lisbon hotel confirmation is HX-77812',
].map((text, i) => event(`a${i}`, text, i));

/** Bob's data is built to disturb alice: her words, many times over, in long documents. */
const BOB = Array.from({ length: 60 }, (_, i) =>
  event(
    `b${i}`,
    `${'kitchen sink plumber passport Lisbon 护照 里斯本 '.repeat(1 + (i % 7))} padding words ${i} ${'filler '.repeat(i)}`,
    i,
  ),
);

const QUERIES = [
  'kitchen sink plumber',
  'passport Lisbon trip',
  '护照照片',
  '里斯本酒店',
  'INV-2231 invoice',
];

async function ingest(service: MemoryService, owner: string, events: unknown[]) {
  const deps = { driver: service.driver, redactor: service.redactor, salt: service.salt };
  await ingestEvents(deps, owner, events);
}

const answers = async (service: MemoryService, owner: string, queries: readonly string[]) =>
  Promise.all(
    queries.map(async (query) => {
      const r = await recallMemory(service.driver, RecallParamsSchema.parse({ owner, query, limit: 8 }));
      return { items: r.items.map((i) => [i.id, i.score, i.channels]), terms: r.terms };
    }),
  );

describe.each(ENGINES)('per-owner statistics on %s', (engine) => {
  it('gives alice the same results and terms whatever bob stores, interleaved or not', async () => {
    const alone = await open(engine);
    await ingest(alone, 'alice', ALICE);
    const shared = await open(engine);
    // Interleaved calls: bob's documents sit between alice's, and bob writes first.
    await ingest(shared, 'bob', BOB.slice(0, 30));
    await ingest(shared, 'alice', ALICE.slice(0, 4));
    await ingest(shared, 'bob', BOB.slice(30));
    await ingest(shared, 'alice', ALICE.slice(4));
    const expected = await answers(alone, 'alice', QUERIES);
    expect(expected.every((a) => a.items.length > 0)).toBe(true);
    expect(await answers(shared, 'alice', QUERIES)).toEqual(expected);
  });

  it("never lets bob's terms reveal words that occur only in alice's events", async () => {
    const service = await open(engine);
    await ingest(service, 'alice', ALICE);
    await ingest(service, 'bob', [event('b0', 'my own notes about gardening', 0)]);
    const r = await recallMemory(
      service.driver,
      RecallParamsSchema.parse({ owner: 'bob', query: 'plumber INV-2231 gardening 护照' }),
    );
    expect(r.terms.selected).toEqual(['garden']);
    expect(r.terms.dropped).toEqual([]);
    expect(r.items.map((i) => i.id)).toEqual(['b0']);
  });
});
