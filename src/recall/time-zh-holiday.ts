// Chinese calendar expressions → spans: festivals and public holidays (端午节那天, 国庆假期, 国庆第二天),
// workdays that skip holidays (节后第一个工作日, 上个月第一个工作日), nth weekdays (十月第三个周四) and 调休.
import { DAY, monthSpan, startOfDay, startOfWeek, yearOf, type Span } from './calendar.js';
import {
  FESTIVAL_NAMES,
  festivalNamed,
  holidayBreak,
  isMakeUpWorkday,
  latestBreakBefore,
  latestFestivalDay,
  nextWorkday,
  previousWorkday,
  workdaysIn,
  type Festival,
} from './holidays.js';
import type { TimeRule } from './time-scan.js';

const S = '\\s*';
// Not a piece of 周五一早, 第五一, 5 月: a name stands on its own.
const NAME = `(?<!周|星期|礼拜|第|\\d)(${FESTIVAL_NAMES.join('|')})(?![\\d月号])`;
const YEAR = '(前年|去年|今年|明年|\\d{4}年)?';
const ORDINAL = '(?:第(\\d{1,2}|[一二两三四五六七八九十]{1,3})个?|(最后|头)一个)';
const MONTH = `(?:(上上|上|这|本|下)个?月|(1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])${S}月份?)`;
const WEEKDAY = '(?:周|星期|礼拜)([一二三四五六日天])';

const DIGITS = '〇一二三四五六七八九';
const WEEKDAY_INDEX: Record<string, number> = { 日: 0, 天: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6 };
const RELATIVE_YEAR: Record<string, number> = { 前年: -2, 去年: -1, 今年: 0, 明年: 1 };
const MONTHS_BACK: Record<string, number> = { 上上: 2, 上: 1, 这: 0, 本: 0, 下: -1 };

/** 3, 十, 十二, 二十三, 两 → a number. */
function count(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const m = /^([一二两三四五六七八九])?(十)?([一二三四五六七八九])?$/.exec(text);
  if (!m) return 0;
  const digit = (c: string | undefined) => (c === '两' ? 2 : c ? DIGITS.indexOf(c) : 0);
  if (!m[2]) return digit(m[1] ?? m[3]);
  return (m[1] ? digit(m[1]) : 1) * 10 + digit(m[3]);
}

const day = (t: number): Span => ({ from: t, to: t + DAY - 1 });

function yearOfPhrase(phrase: string | undefined, at: number): number | undefined {
  if (!phrase) return undefined;
  const relative = RELATIVE_YEAR[phrase];
  return relative !== undefined ? yearOf(at) + relative : Number(phrase.slice(0, 4));
}

/** The festival's latest day (or the one of the named year) and its public-holiday break. */
function occurrence(name: string | undefined, yearPhrase: string | undefined, at: number) {
  const festival: Festival | undefined = festivalNamed(name ?? '');
  if (!festival) return undefined;
  const date = latestFestivalDay(festival, at, yearOfPhrase(yearPhrase, at));
  if (date === undefined) return undefined;
  return { festival, date, span: holidayBreak(festival, date) };
}

function monthOf(back: string | undefined, month: string | undefined, at: number): Span {
  const year = yearOf(at);
  const current = new Date(at).getUTCMonth() + 1;
  if (back !== undefined) return monthSpan(year, current - (MONTHS_BACK[back] ?? 0));
  const m = count(month ?? '');
  // A month named alone is the latest one that has begun.
  return monthSpan(m > current ? year - 1 : year, m);
}

/** The nth (1-based; -1 the last) of the days that pass `keep` in the span. */
function nth(days: readonly number[], n: number): number | undefined {
  return n === -1 ? days.at(-1) : days[n - 1];
}

const ordinal = (numeral: string | undefined, word: string | undefined): number =>
  word === '最后' ? -1 : word === '头' ? 1 : count(numeral ?? '');

export const HOLIDAY_RULES: TimeRule[] = [
  // 国庆后第一个工作日, 国庆节后上班第一天, 春节后开工第一天
  [
    new RegExp(
      `${YEAR}${NAME}(?:假期|长假|小长假)?(?:之后|以后|后)(?:的)?(?:第一个工作日|上班(?:的)?第一天|开工(?:第一天)?|复工(?:第一天)?|收假(?:第一天)?)`,
      'g',
    ),
    (m, at) => {
      const o = occurrence(m[2], m[1], at);
      const first = o && nextWorkday(startOfDay(o.span.to));
      return first === undefined ? undefined : day(first);
    },
  ],
  // 节后第一个工作日, 假期后上班第一天: after the latest public holiday that has ended
  [
    /(?:节后|节假日后|假期后|长假后|放假回来|收假后)(?:的)?(?:第一个工作日|上班(?:的)?第一天|第一天上班)/g,
    (_, at) => {
      const before = latestBreakBefore(startOfDay(at));
      const first = before && nextWorkday(startOfDay(before.to));
      return first === undefined ? undefined : day(first);
    },
  ],
  // 国庆前最后一个工作日
  [
    new RegExp(`${YEAR}${NAME}(?:假期|长假)?(?:之前|以前|前)(?:的)?最后一个工作日`, 'g'),
    (m, at) => {
      const o = occurrence(m[2], m[1], at);
      const last = o && previousWorkday(o.span.from);
      return last === undefined ? undefined : day(last);
    },
  ],
  // 国庆第二天, 春节假期第三天
  [
    new RegExp(
      `${YEAR}${NAME}(?:节)?(?:假期|长假|小长假|期间)?(?:的)?第${S}(\\d{1,2}|[一二两三四五六七八九十]{1,3})${S}天`,
      'g',
    ),
    (m, at) => {
      const o = occurrence(m[2], m[1], at);
      const n = count(m[3] ?? '');
      return o && n > 0 ? day(o.span.from + (n - 1) * DAY) : undefined;
    },
  ],
  // 国庆假期, 春节期间, 五一小长假
  [
    new RegExp(`${YEAR}${NAME}(?:节)?(?:假期|长假|小长假|黄金周|期间|放假(?:那几天|的时候)?)`, 'g'),
    (m, at) => occurrence(m[2], m[1], at)?.span,
  ],
  // 端午节那天, 中秋当天
  [
    new RegExp(`${YEAR}${NAME}(?:那天|当天|当日|那一天|这天)`, 'g'),
    (m, at) => {
      const o = occurrence(m[2], m[1], at);
      return o && day(o.date);
    },
  ],
  // 国庆前, 春节后: the week before or after the break
  [
    new RegExp(`${YEAR}${NAME}(?:假期|长假)?(之前|以前|前夕|前|之后|以后|后)`, 'g'),
    (m, at) => {
      const o = occurrence(m[2], m[1], at);
      if (!o) return undefined;
      const before = (m[3] ?? '').includes('前');
      return before
        ? { from: o.span.from - 7 * DAY, to: o.span.from - 1 }
        : { from: o.span.to + 1, to: o.span.to + 7 * DAY };
    },
  ],
  // 中秋节, 国庆: a public holiday is its break, another festival its day
  [new RegExp(`${YEAR}${NAME}`, 'g'), (m, at) => occurrence(m[2], m[1], at)?.span],
  // 上个月第一个工作日, 十月最后一个工作日
  [
    new RegExp(`${MONTH}(?:的)?${ORDINAL}工作日`, 'g'),
    (m, at) => {
      const d = nth(workdaysIn(monthOf(m[1], m[2], at)), ordinal(m[3], m[4]));
      return d === undefined ? undefined : day(d);
    },
  ],
  // 上周第一个工作日, 这周最后一个工作日
  [
    new RegExp(`(上上|上|这|本|下)个?(?:周|星期|礼拜)(?:的)?${ORDINAL}工作日`, 'g'),
    (m, at) => {
      const monday = startOfWeek(at) - (MONTHS_BACK[m[1] ?? ''] ?? 0) * 7 * DAY;
      const d = nth(workdaysIn({ from: monday, to: monday + 7 * DAY - 1 }), ordinal(m[2], m[3]));
      return d === undefined ? undefined : day(d);
    },
  ],
  // 十月第三个周四, 上个月最后一个周五
  [
    new RegExp(`${MONTH}(?:的)?${ORDINAL}${WEEKDAY}`, 'g'),
    (m, at) => {
      const span = monthOf(m[1], m[2], at);
      const weekday = WEEKDAY_INDEX[m[5] ?? ''] ?? 1;
      const days: number[] = [];
      for (let d = span.from; d <= span.to; d += DAY) if (new Date(d).getUTCDay() === weekday) days.push(d);
      const d = nth(days, ordinal(m[3], m[4]));
      return d === undefined ? undefined : day(d);
    },
  ],
  // 上个月 27 号, 这个月 3 号
  [
    new RegExp(
      `(上上|上|这|本|下)个?月${S}(3[01]|[12]\\d|0?[1-9]|[二三]?十[一二三四五六七八九]?|[一二三四五六七八九])${S}[日号]`,
      'g',
    ),
    (m, at) => {
      const span = monthOf(m[1], undefined, at);
      const d = span.from + (count(m[2] ?? '') - 1) * DAY;
      return d <= span.to ? day(d) : undefined;
    },
  ],
  // 调休上班那天, 上次补班: the latest weekend day worked in lieu
  [
    /(?:上次|上一次|那次)?(?:调休上班|调休补班|补班)(?:的)?(?:那天|那个周六|那个周日)?/g,
    (_, at) => {
      for (let d = startOfDay(at), n = 0; n < 120; d -= DAY, n++) if (isMakeUpWorkday(d)) return day(d);
      return undefined;
    },
  ],
];
