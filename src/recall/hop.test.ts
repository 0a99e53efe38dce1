import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, openTestService, type TestService } from '../../test/helpers/engines.js';
import { ingestEvents } from '../ingest/ingest.js';
import { splitHop } from './hop.js';
import { recallMemory } from './recall.js';
import { RecallParamsSchema } from './schema.js';

describe('splitHop: a question that describes its subject by a clause (issue 11)', () => {
  it.each([
    ['老郑批的那笔招待费，饭桌上客户那边都有谁？', '老郑批 招待费', '招待费 饭桌上客户那边都有谁?'],
    ['双十一最先卖断货的那款茶，表弟当初给备了多少？', '双十一最先卖断货 茶', '茶 表弟当初给备了多少?'],
    ['婆婆来家里照看满满的那几天，我住的酒店房间在几楼？', '婆婆来家里照看满满 ', ' 我住的酒店房间在几楼?'],
    ['去上海见客户那次，酒店订的是什么房型？', '去上海见客户 ', ' 酒店订的是什么房型?'],
    [
      'Priya 说要一起来开会的那位 IT 同事，后来发的文档里写了什么？',
      'Priya 说要一起来开会  IT 同事',
      ' IT 同事 后来发的文档里写了什么?',
    ],
  ])('%s', (query, anchor, rest) => {
    expect(splitHop(query)).toEqual({ anchor, rest });
  });

  it('leaves a question without such a clause alone, in Chinese and English', () => {
    expect(splitHop('桌面助手现在装的是哪个版本？')).toBeUndefined();
    expect(splitHop('那张单子是什么时候交的？')).toBeUndefined(); // no clause before 那张
    expect(splitHop('我爸的那台手术')).toBeUndefined(); // nothing is asked after it
    expect(splitHop('Which hotel did I book, and for how many nights?')).toBeUndefined();
  });
});

describe.each(ENGINES)('the hop channel on %s', (engine) => {
  let handle: TestService;
  const day = (d: string) => Date.parse(`2026-${d}T12:00:00+08:00`);
  beforeEach(async () => {
    handle = await openTestService(engine);
    const { service } = handle;
    const deps = { driver: service.driver, redactor: service.redactor, salt: service.salt };
    const event = (event_id: string, at: string, text: string) => ({
      event_id,
      kind: 'user_message',
      role: 'user',
      at: day(at),
      text,
    });
    await ingestEvents(deps, 'me', [
      event('k2', '10-27', '跟阿峰说好了：桂花龙井 40 罐，周五前送到。'),
      event('k3', '10-28', '明前的备了 60 罐。'),
      event('k4', '10-29', '雨前的备了 80 罐。'),
      {
        ...event('k1', '11-11', '有赞库存预警：桂花龙井 库存 0，商品已自动下架。'),
        kind: 'tool_result',
        role: 'tool',
      },
    ]);
    // Another owner's matching stock note is never a bridge nor a hit.
    await ingestEvents(deps, 'other', [event('x1', '10-26', '备货定了：桂花龙井 99 罐。')]);
  });
  afterEach(() => handle.close());

  const recall = async (query: string) =>
    (
      await recallMemory(
        handle.service.driver,
        RecallParamsSchema.parse({ owner: 'me', query, kinds: ['event'], wait_ms: 60_000 }),
      )
    ).items;

  it('asks the rest of the question with what the clause names: 自动下架的那款茶 is 桂花龙井', async () => {
    const items = await recall('自动下架的那款茶，当初给备了多少？');
    const ids = items.map((i) => i.id);
    expect(ids).not.toContain('x1');
    // The answer shares no word with the question: only the stock alert that answers the clause names the tea.
    expect(items.find((i) => i.id === 'k2')?.channels).toEqual({ hop: 1 });
    // Below the direct matches: k1, k3 and k4 share words with the question and are in both lists.
    expect(ids.slice(0, 3).sort()).toEqual(['k1', 'k3', 'k4']);
  });

  it('adds no hop channel to a question without a describing clause', async () => {
    const items = await recall('自动下架的桂花龙井当初备了多少？');
    expect(items.every((i) => i.channels.hop === undefined)).toBe(true);
  });
});
