import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestEvents } from '../ingest/ingest.js';
import { openMemory, type MemoryService } from '../service.js';
import { recallMemory } from './recall.js';
import { RecallParamsSchema } from './schema.js';

let service: MemoryService;

const turns = [
  ['t1', 'What did the doctor say about my knee surgery recovery?'],
  ['t2', 'The doctor said the knee needs six weeks of physical therapy.'],
  ['t3', 'I booked a table at the Italian restaurant for Friday.'],
  ['t4', '我下周三要去医院复查膝盖'],
  ['t5', '周五晚上在意大利餐厅订了位子'],
  ['t6', 'What is the weather like today?'],
  ['t7', 'Order ORD-88213 shipped with tracking code ZX-4471.'],
] as const;

beforeEach(async () => {
  service = await openMemory({ config: { dataDir: 'unused', redactEmails: true }, databasePath: ':memory:' });
  const deps = { driver: service.driver, redactor: service.redactor, salt: service.salt };
  await ingestEvents(
    deps,
    'me',
    turns.map(([id, text], i) => ({
      event_id: id,
      kind: 'user_message',
      role: 'user',
      at: 1_000_000 + i * 60_000,
      text,
    })),
  );
  await ingestEvents(deps, 'someone-else', [
    { event_id: 'x1', kind: 'user_message', role: 'user', at: 1, text: 'knee surgery 膝盖 ORD-88213' },
  ]);
});
afterEach(() => service.close());

const recall = (query: string, extra: Record<string, unknown> = {}) =>
  recallMemory(service.driver, RecallParamsSchema.parse({ owner: 'me', query, ...extra }));

describe('recallMemory', () => {
  it('ranks the turns that share the rare words first, in English and Chinese', async () => {
    const en = await recall('knee physical therapy');
    expect(en.items[0]?.id).toBe('t2');
    const zh = await recall('膝盖复查');
    expect(zh.items[0]?.id).toBe('t4');
    const mixed = await recall('意大利 restaurant');
    expect(
      mixed.items
        .slice(0, 2)
        .map((i) => i.id)
        .sort(),
    ).toEqual(['t3', 't5']);
  });

  it('drops stop words from the scored terms and says so', async () => {
    const r = await recall('what is the knee');
    expect(r.terms.selected).toEqual(['knee']);
    expect(r.terms.dropped).toEqual(expect.arrayContaining(['what', 'the']));
  });

  it('finds identifiers whole through the id channel', async () => {
    const r = await recall('zx-4471');
    expect(r.items[0]).toMatchObject({ id: 't7', channels: { id: 1 } });
    const byEventId = await recall('t3 please');
    expect(byEventId.items.map((i) => i.id)).toContain('t3');
  });

  it('never crosses owners', async () => {
    const r = await recall('knee surgery 膝盖 ORD-88213');
    expect(r.items.map((i) => i.id)).not.toContain('x1');
    const other = await recallMemory(
      service.driver,
      RecallParamsSchema.parse({ owner: 'someone-else', query: 'knee' }),
    );
    expect(other.items.map((i) => i.id)).toEqual(['x1']);
  });

  it('respects limit and time windows', async () => {
    expect((await recall('the doctor knee restaurant', { limit: 1 })).items).toHaveLength(1);
    const late = await recall('doctor knee', { from: 1_000_000 + 60_000 });
    expect(late.items.map((i) => i.id)).toEqual(['t2']);
  });

  it('returns nothing, not an error, when no term is known', async () => {
    const r = await recall('zzzqqq');
    expect(r).toMatchObject({ status: 'ready', items: [] });
  });
});
