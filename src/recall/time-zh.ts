// Chinese time expressions (上周三, 九月中旬, 去年, 三天前) → spans of wall-clock time.
import {
  DAY,
  addMonths,
  dateSpan,
  daySpan,
  lastWeekday,
  latestDate,
  latestMonth,
  monthOf,
  monthSpan,
  startOfDay,
  startOfWeek,
  yearOf,
  yearSpan,
  type Span,
} from './calendar.js';
import { consume, type Found, type TimeRule } from './time-scan.js';
import { HOLIDAY_RULES } from './time-zh-holiday.js';

const DIGITS: Record<string, number> = {
  〇: 0,
  零: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

/** 3, 十二, 二十三, 两, 几 (a few: 3), 二〇二三 → a number. */
export function chineseNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (text === '几') return 3;
  const tens = /^([一二两三四五六七八九])?十([一二三四五六七八九])?$/.exec(text);
  if (tens) return (tens[1] ? (DIGITS[tens[1]] ?? 1) : 1) * 10 + (tens[2] ? (DIGITS[tens[2]] ?? 0) : 0);
  let n = 0;
  for (const ch of text) {
    const d = DIGITS[ch];
    if (d === undefined) return undefined;
    n = n * 10 + d;
  }
  return text.length > 0 ? n : undefined;
}

const NUM = '(\\d{1,3}|[一二两三四五六七八九十]{1,3}|几)';
const MONTH_NUM = '(1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])';
const DAY_NUM = '(3[01]|[12]\\d|0?[1-9]|[二三]?十[一二三四五六七八九]?|[一二三四五六七八九])';
const PART = '(上旬|中旬|下旬|初|中|底|末)';
const WEEK = '(?:周|星期|礼拜)';
const WEEKDAY_ZH = '([一二三四五六日天])';
const UNIT = '(天|日|周|星期|礼拜|月|年)';

const WEEKDAY_INDEX: Record<string, number> = { 日: 0, 天: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6 };

const num = (text: string | undefined): number => chineseNumber(text ?? '') ?? 0;

function monthPart(span: Span, part: string | undefined): Span {
  if (part === '上旬' || part === '初') return { from: span.from, to: span.from + 10 * DAY - 1 };
  if (part === '中旬' || part === '中') return { from: span.from + 10 * DAY, to: span.from + 20 * DAY - 1 };
  if (part === '下旬' || part === '底' || part === '末') return { from: span.from + 20 * DAY, to: span.to };
  return span;
}

/** A year, then maybe a month, a day or a part of the month. */
function inYear(year: number, month: string | undefined, day: string | undefined, part: string | undefined) {
  if (!month) return yearSpan(year);
  if (day) return dateSpan(year, num(month), num(day));
  return monthPart(monthSpan(year, num(month)), part);
}

const unitDays = (unit: string): number => (unit === '天' || unit === '日' ? 1 : 7);

function ago(at: number, n: number, unit: string): Span {
  if (unit === '月') {
    const point = addMonths(at, -n);
    return { from: startOfDay(point) - 15 * DAY, to: startOfDay(point) + 16 * DAY - 1 };
  }
  if (unit === '年') return yearSpan(yearOf(at) - n);
  if (unitDays(unit) === 1) return daySpan(at - n * DAY);
  const point = startOfDay(at - n * 7 * DAY);
  return { from: point - 3 * DAY, to: point + 4 * DAY - 1 };
}

function past(at: number, n: number, unit: string): Span {
  const end = startOfDay(at) + DAY - 1;
  if (unit === '月') return { from: startOfDay(addMonths(at, -n)), to: end };
  if (unit === '年') return { from: startOfDay(addMonths(at, -12 * n)), to: end };
  return { from: startOfDay(at) - n * unitDays(unit) * DAY, to: end };
}

const WEEKS_BACK: Record<string, number> = { 上上: 2, 上: 1, 这: 0, 本: 0, 下: -1 };

/** 上周 / 上周三 / 这周末: the week (Monday first) `back` weeks before `at`'s, or a day of it. */
function inWeek(at: number, back: number, day: string | undefined): Span {
  const monday = startOfWeek(at) - back * 7 * DAY;
  if (day === undefined) return { from: monday, to: monday + 7 * DAY - 1 };
  if (day === '末') return { from: monday + 5 * DAY, to: monday + 7 * DAY - 1 };
  return daySpan(monday + (((WEEKDAY_INDEX[day] ?? 1) + 6) % 7) * DAY);
}

const RELATIVE_YEAR: Record<string, number> = { 前年: -2, 去年: -1, 今年: 0, 明年: 1 };
const RELATIVE_DAY: Record<string, number> = { 大前天: -3, 前天: -2, 昨: -1, 今: 0 };

// People type spaces between numbers and units (11 月 24 号): `S` allows them.
const S = '\\s*';

const RULES: TimeRule[] = [
  // First: festivals and workdays hold month and weekday names the rules below would read alone.
  ...HOLIDAY_RULES,
  [
    new RegExp(
      `(\\d{4}|[〇零一二三四五六七八九]{4})${S}年(?:${S}${MONTH_NUM}${S}月份?(?:${S}${DAY_NUM}${S}[日号]|${PART})?)?`,
      'g',
    ),
    (m) => inYear(num(m[1]), m[2], m[3], m[4]),
  ],
  [
    new RegExp(
      `(前年|去年|今年|明年)(?:${S}${MONTH_NUM}${S}月份?(?:${S}${DAY_NUM}${S}[日号]|${PART})?)?`,
      'g',
    ),
    (m, at) => inYear(yearOf(at) + (RELATIVE_YEAR[m[1] ?? ''] ?? 0), m[2], m[3], m[4]),
  ],
  [new RegExp(`${NUM}${S}个?多?${UNIT}多?(?:之|以)?前`, 'g'), (m, at) => ago(at, num(m[1]), m[2] ?? '天')],
  [new RegExp(`(?:过去|最近|近)的?${NUM}个?${UNIT}`, 'g'), (m, at) => past(at, num(m[1]), m[2] ?? '天')],
  [
    new RegExp(`${MONTH_NUM}${S}月份?${S}${DAY_NUM}${S}[日号]`, 'g'),
    (m, at) => latestDate(at, num(m[1]), num(m[2])),
  ],
  [new RegExp(`${MONTH_NUM}${S}月份?${PART}?`, 'g'), (m, at) => monthPart(latestMonth(at, num(m[1])), m[2])],
  [
    /(大前天|前天)|(昨|今)(?:天|日|晚|早|夜|儿)/g,
    (m, at) => daySpan(at + (RELATIVE_DAY[m[1] ?? m[2] ?? ''] ?? 0) * DAY),
  ],
  [
    new RegExp(`(上上|上|这|本|下)个?${WEEK}([一二三四五六日天末])?`, 'g'),
    (m, at) => inWeek(at, WEEKS_BACK[m[1] ?? ''] ?? 0, m[2]),
  ],
  [/周末/g, (_, at) => inWeek(at, lastWeekday(at, 0, true) < startOfWeek(at) ? 1 : 0, '末')],
  [
    new RegExp(`${WEEK}${WEEKDAY_ZH}`, 'g'),
    (m, at) => daySpan(lastWeekday(at, WEEKDAY_INDEX[m[1] ?? ''] ?? 1, false)),
  ],
  [
    /(上上|上|这|本)个?月/g,
    (m, at) => {
      const back = WEEKS_BACK[m[1] ?? ''] ?? 0;
      const span = monthSpan(yearOf(at), monthOf(at) - back);
      return back === 0 ? { from: span.from, to: startOfDay(at) + DAY - 1 } : span;
    },
  ],
];

/** Spans named by Chinese time expressions in `text` (NFKC), each with the phrase that named it. */
export function findChineseTimes(text: string, at: number): Found[] {
  return consume(text, RULES, at);
}

export const RECENT_ZH = /最近|近来|近期|最新|上次|上一次|最后一次|目前|现在|如今|这些天|这阵子|这段时间/;
export const EARLIEST_ZH = /第一次|首次|最早|当初|起初|一开始|最初/;
