import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { createLocalClient, type LocalClient } from '../local-client.js';
import { createMethodTable } from '../protocol/methods.js';
import { asksQuestion } from './replies.js';

const T = Date.parse('2026-09-01T09:00:00Z');
const turn = (id: string, session: string, role: string, minute: number, text: string) => ({
  event_id: id,
  session_id: session,
  kind: role === 'user' ? 'user_message' : 'agent_reply',
  role,
  at: T + minute * 60_000,
  text,
});
type Item = { id: string; channels: Record<string, number> };
type Recall = { items: Item[] };

describe('asksQuestion', () => {
  it('reads a turn whose last sentence asks, in English and Chinese', () => {
    expect(asksQuestion('Your turtles look great! How long have you had them?')).toBe(true);
    expect(asksQuestion('Wanna try it? 😊')).toBe(true);
    expect(asksQuestion('养了多久了？')).toBe(true);
    expect(asksQuestion('要我帮你订吗')).toBe(true);
    expect(asksQuestion('What a day? Anyway, I am home now.')).toBe(false);
    expect(asksQuestion('记下了：一天两次。')).toBe(false);
  });
});

describe.each(ENGINES)(
  'recall: the reply to a matching question scores with it (issue 11) on %s',
  (engine) => {
    let handle: TestService;
    let client: LocalClient;
    const ask = (query: string) =>
      client.call<Recall>('memory.recall', { owner: 'me', query, kinds: ['event'], wait_ms: 60_000 });
    beforeEach(async () => {
      handle = await openTestService(engine);
      client = createLocalClient(createMethodTable(handle.service));
      const filler = [
        'Turtles at the pond were sunbathing on a log all morning long.',
        'Saw a documentary on sea turtles and their long migrations.',
        'The pet shop sells turtle food and long tanks.',
        '湖边有很多乌龟在晒太阳，很久都不动。',
        '宠物店里的乌龟粮卖得很快，乌龟缸也很贵。',
        '纪录片讲海龟和乌龟的迁徙。',
      ];
      await client.call('memory.events.ingest', {
        owner: 'me',
        events: [
          ...filler.map((text, i) => turn(`f${i}`, `f${i}`, 'user', i, text)),
          turn('q', 's1', 'user', 10, 'Your turtles look adorable! How long have you had them?'),
          turn(
            'a',
            's1',
            'agent',
            11,
            'Three years now, and every evening I come home they cheer me right up.',
          ),
          turn('zq', 's2', 'user', 20, '你家的乌龟好可爱！养了多久了？'),
          turn('za', 's2', 'agent', 21, '三年了，每天下班回家看到它们心情就特别好，它们是我最好的朋友。'),
          turn('oq', 's3', 'agent', 30, 'Shall I order the turtle tank you looked at for a long time?'),
          turn('oa', 's3', 'user', 31, 'Yes.'),
        ],
      });
      await client.call('memory.events.ingest', {
        owner: 'other',
        events: [turn('x', 's1', 'agent', 12, 'Not yours: how long have you had the turtles?')],
      });
    });
    afterEach(() => handle.close());

    it('ranks the reply right after its question, with the reason in channels', async () => {
      const en = await ask('how long have you had the turtles');
      const ids = en.items.map((i) => i.id);
      expect(ids.indexOf('a')).toBe(ids.indexOf('q') + 1);
      expect(ids.indexOf('a')).toBeLessThan(3);
      expect(en.items.find((i) => i.id === 'a')?.channels.reply).toBeGreaterThan(0);
      const zh = await ask('乌龟养了多久');
      const zids = zh.items.map((i) => i.id);
      expect(zids.indexOf('za')).toBe(zids.indexOf('zq') + 1);
      expect(zids.indexOf('za')).toBeLessThan(3);
    });

    it('lifts no one-word confirmation and nothing of another owner', async () => {
      const r = await ask('order the turtle tank');
      expect(r.items.find((i) => i.id === 'oa')?.channels.reply).toBeUndefined();
      expect(r.items.map((i) => i.id)).not.toContain('x');
    });
  },
);
