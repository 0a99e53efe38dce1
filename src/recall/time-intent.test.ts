import { describe, expect, it } from 'vitest';
import { parseTimeIntent } from './time-intent.js';

// Tuesday 30 May 2023, 10:00 UTC.
const AT = Date.parse('2023-05-30T10:00:00Z');

/** Each span as `from..to` calendar days (UTC), the last millisecond of a day read as that day. */
const days = (query: string, at = AT, timeZone?: string): string[] =>
  parseTimeIntent(query, at, timeZone).spans.map(
    (s) => `${new Date(s.from).toISOString().slice(0, 10)}..${new Date(s.to).toISOString().slice(0, 10)}`,
  );

describe('parseTimeIntent: English, relative to the reference time', () => {
  it.each([
    ['What did I eat yesterday?', '2023-05-29..2023-05-29'],
    ['the day before yesterday', '2023-05-28..2023-05-28'],
    ['What did I buy two days ago?', '2023-05-28..2023-05-28'],
    ['How many hours did I jog last week?', '2023-05-22..2023-05-28'],
    ['Who did I meet last Saturday?', '2023-05-27..2023-05-27'],
    ['What did I do last weekend?', '2023-05-27..2023-05-28'],
    ['What did I read last month?', '2023-04-01..2023-04-30'],
    ['Where did I travel last year?', '2022-01-01..2022-12-31'],
    ['How much did I spend this year?', '2023-01-01..2023-05-30'],
    ['trips in the past three months', '2023-02-28..2023-05-30'],
    ['the investment four weeks ago', '2023-04-29..2023-05-05'],
    ['on the Wednesday two months ago', '2023-03-15..2023-04-14'],
  ])('%s → %s', (query, span) => {
    expect(days(query)).toEqual([span]);
  });

  it('reads absolute dates with and without a year, and months relative to the reference', () => {
    expect(days('What did Nate make on 9 November, 2022?')).toEqual(['2022-11-09..2022-11-09']);
    expect(days('the painting she showed on October 13, 2023')).toEqual(['2023-10-13..2023-10-13']);
    expect(days('in May 2023')).toEqual(['2023-05-01..2023-05-31']);
    expect(days('camping in June')).toEqual(['2022-06-01..2022-06-30']);
    expect(days('early May')).toEqual(['2023-05-01..2023-05-10']);
    expect(days('what happened in 2022')).toEqual(['2022-01-01..2022-12-31']);
    expect(days('novels finished in January and March')).toEqual([
      '2023-01-01..2023-01-31',
      '2023-03-01..2023-03-31',
    ]);
    expect(days('rides from July to October')).toEqual(['2022-07-01..2022-10-31']);
    expect(days('2023-04-02')).toEqual(['2023-04-02..2023-04-02']);
  });

  it('stretches a date to the unit named before or after it', () => {
    expect(days('the week before August 3, 2023')).toEqual(['2023-07-27..2023-08-03']);
    expect(days('last weekend before April 10, 2023')).toEqual(['2023-04-03..2023-04-10']);
  });

  it('names no day for habits, modal verbs or plain numbers', () => {
    expect(days('the rotation on a Sunday')).toEqual([]);
    expect(days('I wake up on Tuesdays and Thursdays')).toEqual([]);
    expect(days('every Friday')).toEqual([]);
    expect(days('I may go to the gym')).toEqual([]);
    expect(days('I ran 2000 meters')).toEqual([]);
    expect(days('How many weeks ago did I start?')).toEqual([]);
  });
});

describe('parseTimeIntent: 中文相对时间 (Chinese)', () => {
  it.each([
    ['上周三我去了哪里', '2023-05-24..2023-05-24'],
    ['上周', '2023-05-22..2023-05-28'],
    ['上上周', '2023-05-15..2023-05-21'],
    ['这周末', '2023-06-03..2023-06-04'],
    ['昨天晚上吃了什么', '2023-05-29..2023-05-29'],
    ['前天', '2023-05-28..2023-05-28'],
    ['三天前', '2023-05-27..2023-05-27'],
    ['两个月前', '2023-03-15..2023-04-14'],
    ['过去三天', '2023-05-27..2023-05-30'],
    ['上个月', '2023-04-01..2023-04-30'],
    ['去年', '2022-01-01..2022-12-31'],
    ['今年三月', '2023-03-01..2023-03-31'],
    ['九月中旬', '2022-09-11..2022-09-20'],
    ['5月3日', '2023-05-03..2023-05-03'],
    ['2023年5月', '2023-05-01..2023-05-31'],
    ['星期五', '2023-05-26..2023-05-26'],
  ])('%s → %s', (query, span) => {
    expect(days(query)).toEqual([span]);
  });

  it('reads 最近 / 上次 as a wish for the latest, 第一次 for the earliest', () => {
    expect(parseTimeIntent('最近在忙什么', AT).order).toBe('recent');
    expect(parseTimeIntent('上次去的餐厅', AT).order).toBe('recent');
    expect(parseTimeIntent('第一次见面是在哪里', AT).order).toBe('earliest');
    expect(parseTimeIntent('我喜欢运动', AT).order).toBeUndefined();
  });
});

describe('parseTimeIntent: order and time zone', () => {
  it('reads "latest" / "currently" as recent and "initially" as earliest; both at once cancel', () => {
    expect(parseTimeIntent('What streaming service am I using lately?', AT).order).toBe('recent');
    expect(parseTimeIntent('Where did I initially keep my sneakers?', AT).order).toBe('earliest');
    expect(parseTimeIntent('first the earliest, now the latest', AT).order).toBeUndefined();
    expect(parseTimeIntent('knee surgery', AT).order).toBeUndefined();
  });

  it('counts days on the calendar of the given zone', () => {
    // 01:00 on 31 May in Shanghai is still 30 May in UTC.
    const at = Date.parse('2023-05-30T17:00:00Z');
    expect(days('yesterday', at)).toEqual(['2023-05-29..2023-05-29']);
    const [span] = parseTimeIntent('yesterday', at, 'Asia/Shanghai').spans;
    expect(span?.from).toBe(Date.parse('2023-05-30T00:00:00+08:00'));
    expect(span?.to).toBe(Date.parse('2023-05-31T00:00:00+08:00') - 1);
  });
});

describe('parseTimeIntent: the Chinese calendar (issue 11)', () => {
  // Tuesday 17 November 2026, 09:00 in Beijing.
  const at = Date.parse('2026-11-17T09:00:00+08:00');
  const zh = (query: string, when = at) =>
    parseTimeIntent(query, when, 'Asia/Shanghai').spans.map((s) => {
      const day = (t: number) => new Date(t + 8 * 3_600_000).toISOString().slice(0, 10);
      return `${day(s.from)}..${day(s.to)}`;
    });

  it.each([
    ['端午节那天我们去了哪里', '2026-06-19..2026-06-19'],
    ['双十一当天卖了多少', '2026-11-11..2026-11-11'],
    ['国庆假期去了哪', '2026-10-01..2026-10-07'],
    ['国庆第二天下午', '2026-10-02..2026-10-02'],
    ['国庆后上班第一天的会', '2026-10-08..2026-10-08'],
    ['国庆节后第一个工作日', '2026-10-08..2026-10-08'],
    ['上个月第一个工作日', '2026-10-08..2026-10-08'],
    ['十月第三个周四', '2026-10-15..2026-10-15'],
    ['十月最后一个周五', '2026-10-30..2026-10-30'],
    ['上个月 27 号的会', '2026-10-27..2026-10-27'],
    ['11 月 12 号', '2026-11-12..2026-11-12'],
    ['中秋节', '2026-09-25..2026-09-27'],
    ['去年中秋', '2025-10-01..2025-10-08'],
    ['万圣节那天晚上', '2026-10-31..2026-10-31'],
    ['调休上班那天', '2026-10-10..2026-10-10'],
    ['这周末', '2026-11-21..2026-11-22'],
    ['上周二', '2026-11-10..2026-11-10'],
  ])('%s → %s', (query, span) => {
    expect(zh(query)).toEqual([span]);
  });

  it('reads 节后第一个工作日 after the latest break that has ended', () => {
    expect(zh('节后第一个工作日', Date.parse('2026-10-12T09:00:00+08:00'))).toEqual([
      '2026-10-08..2026-10-08',
    ]);
  });

  it('does not read a festival out of another word', () => {
    expect(zh('周五一早出发')).toEqual(['2026-11-13..2026-11-13']);
  });
});
