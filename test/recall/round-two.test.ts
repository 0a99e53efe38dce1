// Regression for issue 11: an agent's own questions in Chinese and English, over a small hand-written log
// (not the dev set), through the method table as a client calls it, on the Beijing calendar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalClient, type LocalClient } from '../../src/local-client.js';
import { createMethodTable } from '../../src/protocol/methods.js';
import type { RecallResult } from '../../src/recall/schema.js';
import { openMemory, type MemoryService } from '../../src/service.js';

const OWNER = 'device:fixture';
const at = (iso: string) => Date.parse(`${iso}+08:00`);
const turn = (id: string, session: string, kind: string, role: string, when: string, text: string) => ({
  event_id: id,
  session_id: session,
  kind,
  role,
  at: at(when),
  text,
});

const EVENTS = [
  turn(
    'b1',
    's-trip',
    'user_message',
    'user',
    '2026-10-28T09:00:00',
    '下周去北京出差，帮我订两晚住的地方，离国贸近一点。',
  ),
  turn(
    'b2',
    's-trip',
    'tool_result',
    'tool',
    '2026-10-28T09:03:00',
    '携程：已预订北京国贸大酒店 豪华大床房 2 晚（11/3 入住），订单号 88120931。',
  ),
  turn('b3', 's-food', 'user_message', 'user', '2026-10-20T12:00:00', '晚饭订一家北京烤鸭，六点半，四个人。'),
  turn('d1', 's-boat', 'user_message', 'user', '2026-06-19T15:00:00', '今天带孩子去西湖划船了，玩得很开心。'),
  turn('d2', 's-boat2', 'user_message', 'user', '2026-05-10T15:00:00', '今天带孩子去西湖划船了，风有点大。'),
  turn('v1', 's-v1', 'note', 'system', '2026-09-01T23:00:00', '桌面助手自动更新：2.2.0 → 2.3.0，更新完成。'),
  turn('v2', 's-v2', 'note', 'system', '2026-10-18T23:00:00', '桌面助手自动更新：2.3.0 → 2.4.0，更新完成。'),
  turn('v3', 's-v3', 'note', 'system', '2026-11-07T23:30:00', '桌面助手自动更新：2.4.0 → 2.4.2，更新完成。'),
  turn(
    'h1',
    's-sg',
    'tool_result',
    'tool',
    '2026-10-24T10:28:00',
    'Agoda confirmed: Novena Garden Inn, Singapore. Check-out: Sat 31 Oct 2026 (until 12:00).',
  ),
  turn(
    'w1',
    's-review',
    'user_message',
    'user',
    '2026-10-08T10:00:00',
    '评审会定了：提测 10/20，灰度 11/2。',
  ),
  turn(
    'w2',
    's-review2',
    'user_message',
    'user',
    '2026-10-15T10:00:00',
    '评审会定了：提测 10/23，灰度 11/9。',
  ),
  turn(
    'm1',
    's-mail',
    'user_message',
    'user',
    '2026-10-26T09:00:00',
    '邮件分拣又失败了，以后第一次失败就告诉我。',
  ),
  turn('m2', 's-mail', 'agent_reply', 'agent', '2026-10-26T09:01:00', '好的，马上改。'),
  turn('m3', 's-mail', 'tool_result', 'tool', '2026-10-26T09:02:00', 'rule saved: MailBridge notify = first'),
];

let service: MemoryService;
let client: LocalClient;

beforeAll(async () => {
  service = await openMemory({
    config: { dataDir: 'unused', redactEmails: true, timezone: 'Asia/Shanghai' },
    databasePath: ':memory:',
  });
  client = createLocalClient(createMethodTable(service), { checkResults: true });
  const out = await client.call<{ rejected: unknown[] }>('memory.events.ingest', {
    owner: OWNER,
    events: EVENTS,
  });
  expect(out.rejected).toEqual([]);
});
afterAll(() => service.close());

const recall = (query: string, when = '2026-11-17T09:00:00', extra: Record<string, unknown> = {}) =>
  client.call<RecallResult>('memory.recall', { owner: OWNER, query, at: at(when), ...extra });
const ids = (r: RecallResult) => r.items.map((i) => i.id);

describe('issue 11: recall, round two', () => {
  it('finds the Chinese booking for an English question whose words never occur in the log', async () => {
    const r = await recall('Which hotel did I book for the Beijing trip?');
    expect(ids(r)[0]).toBe('b2');
    // Its own English words miss, and no stop word stands in for them.
    expect(r.terms.selected).not.toEqual(expect.arrayContaining(['which', 'did', 'the', 'for']));
    expect(r.terms.selected).toEqual(expect.arrayContaining(['酒店', '北京']));
  });

  it('finds English evidence for a Chinese question', async () => {
    const r = await recall('新加坡那家酒店最晚几点得退房？');
    // The Beijing booking shares 酒店 with the question; the English confirmation has what it asks.
    expect(ids(r).slice(0, 2)).toContain('h1');
    expect(r.terms.selected).toEqual(expect.arrayContaining(['singapor', 'check']));
  });

  it('never selects a fragment of a question word or particle', async () => {
    const r = await recall('桌面助手是什么时候更新的？是哪个版本呢');
    for (const fragment of ['什', '么', '哪', '哪个', '是哪', '的是', '呢', '的']) {
      expect(r.terms.selected).not.toContain(fragment);
      expect(r.terms.dropped).not.toContain(fragment);
    }
  });

  it('reads 端午节那天 as 19 June 2026 and ranks that day first', async () => {
    const r = await recall('端午节那天带孩子去哪儿划船了？', '2026-07-01T09:00:00');
    expect(ids(r)[0]).toBe('d1');
    expect(r.items[0]?.channels.time).toBe(1);
  });

  it('reads 国庆后第一个工作日 and 上个月第一个工作日 on the 2026 holiday arrangement (8 October)', async () => {
    const after = await recall('国庆后第一个工作日的评审会定了什么');
    expect(ids(after)[0]).toBe('w1');
    const first = await recall('上个月第一个工作日的评审会定了什么');
    expect(ids(first)[0]).toBe('w1');
  });

  it('ranks the newest value first for a question about the present (现在)', async () => {
    const r = await recall('桌面助手现在用的是哪个版本？');
    expect(ids(r)[0]).toBe('v3');
    expect(r.items[0]?.channels.current).toBe(1);
  });

  it("brings a turn's session neighbours (the reply, the tool result) as candidates with their anchor", async () => {
    const r = await recall('邮件分拣失败以后怎么办');
    expect(ids(r)[0]).toBe('m1');
    // The tool result shares no word with the question, nor with the turn before it.
    const tool = r.items.find((i) => i.id === 'm3');
    expect(tool?.channels).toEqual({ neighbour: 1 });
    expect(ids(r).indexOf('m3')).toBeLessThan(5);
  });

  it('keeps ids and time windows', async () => {
    const r = await recall('88120931');
    expect(r.items[0]?.id).toBe('b2');
    const windowed = await recall('桌面助手 更新', '2026-11-17T09:00:00', {
      from: at('2026-10-01T00:00:00'),
      to: at('2026-10-31T00:00:00'),
    });
    expect(ids(windowed)[0]).toBe('v2');
    expect(windowed.items.every((i) => i.at >= '2026-09-30T16:00' && i.at <= '2026-10-30T16:00')).toBe(true);
  });
});
