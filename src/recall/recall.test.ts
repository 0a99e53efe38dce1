import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestEvents } from '../ingest/ingest.js';
import type { MemoryService } from '../service.js';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { recallMemory } from './recall.js';
import { RecallParamsSchema } from './schema.js';

describe.each(ENGINES)('on %s', (engine) => {
  let handle: TestService;
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
    handle = await openTestService(engine);
    service = handle.service;
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
  afterEach(() => handle.close());

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
      expect(r.terms.selected).toContain('knee');
      expect(r.terms.selected).not.toEqual(expect.arrayContaining(['what']));
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
      expect(late.items[0]?.id).toBe('t2');
      expect(late.items.map((i) => i.id)).not.toContain('t1');
    });

    it('never falls back to stop words when the content words all miss (issue 11)', async () => {
      const r = await recall('What is the zebra doing with the giraffe?');
      expect(r.terms.selected).toEqual([]);
      expect(r.items).toEqual([]);
    });

    it('returns nothing, not an error, when no term is known', async () => {
      const r = await recall('zzzqqq');
      expect(r).toMatchObject({ status: 'ready', items: [] });
    });
  });

  describe('recallMemory: context, characters, time and priors', () => {
    let svcHandle: TestService;
    let svc: MemoryService;
    const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`);
    const turn = (id: string, session: string, role: 'user' | 'agent', at: number, text: string) => ({
      event_id: id,
      session_id: session,
      kind: role === 'user' ? 'user_message' : 'agent_reply',
      role,
      at,
      text,
    });

    beforeEach(async () => {
      svcHandle = await openTestService(engine);
      svc = svcHandle.service;
      const deps = { driver: svc.driver, redactor: svc.redactor, salt: svc.salt };
      await ingestEvents(deps, 'me', [
        // Monday 15 May 2023
        turn('a1', 's1', 'agent', day('2023-05-15'), 'How are your pets doing these days?'),
        turn('u1', 's1', 'user', day('2023-05-15'), 'They are fine, we adopted another cat named Bailey.'),
        // Saturday 27 May 2023
        turn('u2', 's2', 'user', day('2023-05-27'), 'I went to a jazz concert downtown with Rachel.'),
        turn(
          'a2',
          's2',
          'agent',
          day('2023-05-27'),
          'A jazz concert sounds lovely, I hope the band played well.',
        ),
        // Saturday 13 May 2023
        turn('u3', 's3', 'user', day('2023-05-13'), 'I saw a jazz concert at the park with my brother.'),
        turn('z1', 's4', 'user', day('2023-05-01'), '我有一条狗，叫贝贝'),
      ]);
    });
    afterEach(() => svcHandle.close());

    const ask = (query: string, extra: Record<string, unknown> = {}) =>
      recallMemory(svc.driver, RecallParamsSchema.parse({ owner: 'me', query, ...extra }));

    it('finds the answer that follows the question through the context field', async () => {
      const r = await ask('What pets do they have?');
      expect(r.items.slice(0, 2).map((i) => i.id)).toContain('u1');
    });

    it('matches a Chinese word through the single characters of a memory (遛狗 → 狗)', async () => {
      const r = await ask('我就去遛狗');
      expect(r.items[0]?.id).toBe('z1');
      expect(r.terms.selected).toContain('狗');
    });

    it('ranks the turns inside the time the query names first, through the time channel', async () => {
      const at = day('2023-05-30');
      const last = await ask('Which jazz concert did I go to last Saturday?', { at });
      expect(last.items[0]?.id).toBe('u2');
      expect(last.items[0]?.channels.time).toBe(1);
      const earlier = await ask('Which jazz concert did I go to on 13 May?', { at });
      expect(earlier.items[0]?.id).toBe('u3');
      // The same words with no time named: no time channel.
      const plain = await ask('jazz concert', { at });
      expect(plain.items.every((i) => i.channels.time === undefined)).toBe(true);
    });

    it('ranks by time only when the query asks for the latest', async () => {
      const plain = await ask('jazz concert');
      expect(plain.items.every((i) => i.channels.recency === undefined)).toBe(true);
      const recent = await ask('my most recent jazz concert');
      expect(recent.items.some((i) => i.channels.recency === 1)).toBe(true);
      // "latest", "now", "still": a question about the present, ordered by the current channel instead.
      const latest = await ask('my latest jazz concert');
      expect(latest.items[0]).toMatchObject({ id: 'u2', channels: { current: 1 } });
      expect(latest.items.every((i) => i.channels.recency === undefined)).toBe(true);
    });

    it('finds an id in the turn that holds it, not in the reply that has it as context', async () => {
      const deps = { driver: svc.driver, redactor: svc.redactor, salt: svc.salt };
      await ingestEvents(deps, 'me', [
        turn('o1', 's5', 'user', day('2023-05-20'), 'Where is order ORD-55120?'),
        turn('o2', 's5', 'agent', day('2023-05-21'), 'It left the warehouse this morning.'),
      ]);
      const r = await ask('ORD-55120');
      expect(r.items[0]).toMatchObject({ id: 'o1', channels: { id: 1 } });
      expect(r.items.find((i) => i.id === 'o2')?.channels.id).toBeUndefined();
    });

    it("prefers the user's own turns when the query speaks as the user", async () => {
      const mine = await ask('jazz concert I heard', { at: day('2023-05-30') });
      expect(mine.items.slice(0, 2).map((i) => i.id)).not.toContain('a2');
    });
  });
});

describe('matchOf', () => {
  it("gives the share of the query's term weight a text holds", async () => {
    const { matchOf } = await import('./recall.js');
    const weights = new Map([
      ['knee', 3],
      ['surgeri', 1],
    ]);
    expect(matchOf('My knee surgery went well', weights)).toBe(1);
    expect(matchOf('The knee is fine', weights)).toBe(0.75);
    expect(matchOf('nothing here', weights)).toBe(0);
  });
});
