// The Chinese calendar: festivals on their real dates per year (solar, lunar, solar terms), the official
// public holidays and make-up workdays (调休) from the `chinese-days` data, and workdays that skip holidays.
// Days are wall-clock days: epoch milliseconds of their 00:00 read as UTC (calendar.ts).
import chineseDays from 'chinese-days';
import { DAY, startOfDay, type Span } from './calendar.js';

type SolarTerm = Parameters<typeof chineseDays.getSolarTermDate>[2];

type DateRule =
  | { solar: [month: number, day: number] }
  | { lunar: [month: number, day: number]; shift?: number }
  | { term: [month: number, key: SolarTerm] }
  | { nth: [month: number, weekday: number, n: number] };

export interface Festival {
  names: readonly string[];
  rule: DateRule;
  /** The public holiday's name in the official arrangement; absent: an observance of one day. */
  holiday?: string;
  /** Days of the break in a year the official arrangement does not cover yet (an estimate). */
  breakDays?: number;
}

/** Names are matched longest first; each is a general name of the day, not a phrase of any data set. */
export const FESTIVALS: readonly Festival[] = [
  { names: ['元旦'], rule: { solar: [1, 1] }, holiday: '元旦', breakDays: 1 },
  { names: ['春节', '过年', '大年初一'], rule: { lunar: [1, 1] }, holiday: '春节', breakDays: 7 },
  { names: ['除夕', '大年三十'], rule: { lunar: [1, 1], shift: -1 } },
  { names: ['元宵节', '元宵'], rule: { lunar: [1, 15] } },
  { names: ['情人节'], rule: { solar: [2, 14] } },
  { names: ['妇女节', '三八节'], rule: { solar: [3, 8] } },
  { names: ['清明节', '清明'], rule: { term: [4, 'pure_brightness'] }, holiday: '清明', breakDays: 1 },
  { names: ['劳动节', '五一'], rule: { solar: [5, 1] }, holiday: '劳动节', breakDays: 5 },
  { names: ['母亲节'], rule: { nth: [5, 0, 2] } },
  { names: ['儿童节', '六一'], rule: { solar: [6, 1] } },
  { names: ['端午节', '端午'], rule: { lunar: [5, 5] }, holiday: '端午', breakDays: 1 },
  { names: ['父亲节'], rule: { nth: [6, 0, 3] } },
  { names: ['七夕节', '七夕'], rule: { lunar: [7, 7] } },
  { names: ['中元节'], rule: { lunar: [7, 15] } },
  { names: ['教师节'], rule: { solar: [9, 10] } },
  { names: ['中秋节', '中秋'], rule: { lunar: [8, 15] }, holiday: '中秋', breakDays: 1 },
  { names: ['国庆节', '国庆'], rule: { solar: [10, 1] }, holiday: '国庆', breakDays: 7 },
  { names: ['重阳节', '重阳'], rule: { lunar: [9, 9] } },
  { names: ['万圣节'], rule: { solar: [10, 31] } },
  { names: ['双十一', '双11', '光棍节'], rule: { solar: [11, 11] } },
  { names: ['感恩节'], rule: { nth: [11, 4, 4] } },
  { names: ['双十二', '双12'], rule: { solar: [12, 12] } },
  { names: ['平安夜'], rule: { solar: [12, 24] } },
  { names: ['圣诞节', '圣诞'], rule: { solar: [12, 25] } },
  { names: ['冬至'], rule: { term: [12, 'the_winter_solstice'] } },
  { names: ['腊八节', '腊八'], rule: { lunar: [12, 8] } },
  { names: ['小年'], rule: { lunar: [12, 23] } },
];

const BY_NAME = new Map(FESTIVALS.flatMap((f) => f.names.map((n) => [n, f] as const)));
/** Every festival name, longest first (for a regular expression). */
export const FESTIVAL_NAMES = [...BY_NAME.keys()].sort((a, b) => b.length - a.length);

export const festivalNamed = (name: string): Festival | undefined => BY_NAME.get(name);

const iso = (day: number): string => new Date(day).toISOString().slice(0, 10);
const dayOf = (date: string): number => Date.parse(`${date}T00:00:00Z`);
const pad = (n: number): string => String(n).padStart(2, '0');

/** The lunar calendar as the package computes it (1900–2100); undefined outside it. */
function lunarToSolar(year: number, month: number, day: number): number | undefined {
  if (year < 1901 || year > 2099) return undefined;
  const { date } = chineseDays.getSolarDateFromLunar(`${year}-${pad(month)}-${pad(day)}`);
  const t = dayOf(date);
  return Number.isFinite(t) ? t : undefined;
}

/** The `n`th `weekday` (0 Sunday) of a month. */
const nthWeekday = (year: number, month: number, weekday: number, n: number): number => {
  const first = Date.UTC(year, month - 1, 1);
  return first + (((weekday - new Date(first).getUTCDay() + 7) % 7) + 7 * (n - 1)) * DAY;
};

/** The day of a festival in the year numbered `year` (a lunar date: of that lunar year). */
export function festivalDay(festival: Festival, year: number): number | undefined {
  const rule = festival.rule;
  if ('solar' in rule) return Date.UTC(year, rule.solar[0] - 1, rule.solar[1]);
  if ('nth' in rule) return nthWeekday(year, ...rule.nth);
  if ('term' in rule) {
    if (year < 1901 || year > 2099) return undefined;
    return dayOf(chineseDays.getSolarTermDate(year, rule.term[0], rule.term[1]));
  }
  const day = lunarToSolar(year, rule.lunar[0], rule.lunar[1]);
  return day === undefined ? undefined : day + (rule.shift ?? 0) * DAY;
}

/**
 * The latest day of the festival that is not after `at` by more than a week (the one just ahead is the one
 * meant), or the one of `year` when it is given.
 */
export function latestFestivalDay(festival: Festival, at: number, year?: number): number | undefined {
  const thisYear = new Date(at).getUTCFullYear();
  const years = year !== undefined ? [year] : [thisYear + 1, thisYear, thisYear - 1, thisYear - 2];
  for (const y of years) {
    // A lunar festival of lunar year y falls in Gregorian y or y + 1 (腊八): take the one in Gregorian y.
    const candidates = [festivalDay(festival, y), festivalDay(festival, y - 1)].filter(
      (d): d is number => d !== undefined && new Date(d).getUTCFullYear() === y,
    );
    const day = candidates[0];
    if (day === undefined) continue;
    if (year !== undefined || day <= startOfDay(at) + 7 * DAY) return day;
  }
  return undefined;
}

const yearsWithData = new Map<number, boolean>();

/** Whether the official arrangement (holidays and make-up workdays) of a year is in the data. */
export function hasArrangement(year: number): boolean {
  let known = yearsWithData.get(year);
  if (known === undefined) {
    known = chineseDays.getHolidaysInRange(`${year}-01-01`, `${year}-12-31`, false).length > 0;
    yearsWithData.set(year, known);
  }
  return known;
}

/** A workday: Monday to Friday but public holidays, and the weekend days worked in lieu (调休). */
export function isWorkday(day: number): boolean {
  if (hasArrangement(new Date(day).getUTCFullYear())) return chineseDays.isWorkday(iso(day));
  const weekday = new Date(day).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

/** A weekend day worked in lieu of a holiday (调休上班, 补班). */
export function isMakeUpWorkday(day: number): boolean {
  const weekday = new Date(day).getUTCDay();
  return (weekday === 0 || weekday === 6) && isWorkday(day);
}

/**
 * The break of a public holiday around its day: the days off in a row that hold it (weekends included), as
 * the official arrangement has them; for a year it does not cover, `breakDays` from the day, as an estimate.
 */
export function holidayBreak(festival: Festival, day: number): Span {
  const one = { from: day, to: day + DAY - 1 };
  if (!festival.holiday) return one;
  if (!hasArrangement(new Date(day).getUTCFullYear())) {
    return { from: day, to: day + (festival.breakDays ?? 1) * DAY - 1 };
  }
  // The festival's own day may be a workday next to its break (中秋 on a Sunday worked in lieu): look near.
  const start = [0, 1, -1, 2, -2].map((d) => day + d * DAY).find((d) => !isWorkday(d));
  if (start === undefined) return one;
  let from = start;
  let to = start;
  while (!isWorkday(from - DAY)) from -= DAY;
  while (!isWorkday(to + DAY)) to += DAY;
  return { from, to: to + DAY - 1 };
}

/** The first workday after `day` (exclusive), within a month. */
export const nextWorkday = (day: number): number | undefined => {
  for (let d = day + DAY, n = 0; n < 31; d += DAY, n++) if (isWorkday(d)) return d;
  return undefined;
};

/** The last workday before `day` (exclusive), within a month. */
export const previousWorkday = (day: number): number | undefined => {
  for (let d = day - DAY, n = 0; n < 31; d -= DAY, n++) if (isWorkday(d)) return d;
  return undefined;
};

/** The workdays of a span, in order. */
export function workdaysIn(span: Span): number[] {
  const days: number[] = [];
  for (let d = startOfDay(span.from); d <= span.to; d += DAY) if (isWorkday(d)) days.push(d);
  return days;
}

/** The latest public-holiday break that ended before `day` (within a year), from the official arrangement. */
export function latestBreakBefore(day: number): Span | undefined {
  let best: Span | undefined;
  for (const festival of FESTIVALS) {
    if (!festival.holiday) continue;
    const date = latestFestivalDay(festival, day - DAY);
    if (date === undefined) continue;
    const span = holidayBreak(festival, date);
    if (span.to < day && day - span.to < 366 * DAY && (!best || span.to > best.to)) best = span;
  }
  return best;
}
