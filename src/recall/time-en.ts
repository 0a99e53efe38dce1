// English time expressions → spans of wall-clock time, relative to the query's reference time.
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
  weekSpan,
  yearOf,
  yearSpan,
  type Span,
} from './calendar.js';
import { consume, type Found, type TimeRule } from './time-scan.js';

const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const MONTH_KEYS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAY = `(${WEEKDAYS.join('|')})`;
const COUNT_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  few: 3,
  'a few': 3,
  couple: 2,
  'a couple': 2,
  'a couple of': 2,
  several: 3,
};
const COUNT = String.raw`(\d{1,3}|a couple of|a couple|a few|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|several)`;
const UNIT = '(day|week|month|year)s?';
const PART = '(early|beginning of|start of|mid|middle of|late|end of)';

// "the week before", "the day after": a span next to the date that follows.
const AROUND = String.raw`(?:\b(?:the |last )?(day|week|weekend|month|few days|two days|couple of days) (before|after) )?`;
const AROUND_DAYS: Record<string, number> = { day: 1, week: 7, weekend: 7, month: 30 };

/** A date's span, stretched to the unit before or after it when the rule's first groups name one. */
function around(m: RegExpExecArray, span: Span | undefined): Span | undefined {
  if (!span || !m[1]) return span;
  const days = (AROUND_DAYS[m[1]] ?? 3) * DAY;
  return m[2] === 'before'
    ? { from: span.from - days, to: span.to }
    : { from: span.from, to: span.to + days };
}

const monthNumber = (name: string): number => MONTH_KEYS.indexOf(name.slice(0, 3)) + 1;
const countOf = (word: string): number => COUNT_WORDS[word] ?? Number(word);
const fullYear = (y: string): number => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** The part of a month an adverb names (early May: days 1–10). */
function monthPart(span: Span, part: string | undefined): Span {
  if (!part) return span;
  if (part === 'early' || part.startsWith('beginning') || part.startsWith('start'))
    return { from: span.from, to: span.from + 10 * DAY - 1 };
  if (part === 'mid' || part.startsWith('middle'))
    return { from: span.from + 10 * DAY, to: span.from + 20 * DAY - 1 };
  return { from: span.from + 20 * DAY, to: span.to };
}

/** Back `n` units from `at`, as a span as wide as one unit around that point. */
function ago(at: number, n: number, unit: string): Span {
  if (unit === 'day') return daySpan(at - n * DAY);
  if (unit === 'week')
    return { from: startOfDay(at - n * 7 * DAY) - 3 * DAY, to: startOfDay(at - n * 7 * DAY) + 4 * DAY - 1 };
  if (unit === 'month') {
    const point = addMonths(at, -n);
    return { from: startOfDay(point) - 15 * DAY, to: startOfDay(point) + 16 * DAY - 1 };
  }
  return yearSpan(yearOf(at) - n);
}

/** The last `n` units up to `at`. */
function past(at: number, n: number, unit: string): Span {
  const end = startOfDay(at) + DAY - 1;
  if (unit === 'day') return { from: startOfDay(at) - n * DAY, to: end };
  if (unit === 'week') return { from: startOfDay(at) - n * 7 * DAY, to: end };
  if (unit === 'month') return { from: startOfDay(addMonths(at, -n)), to: end };
  return { from: startOfDay(addMonths(at, -12 * n)), to: end };
}

/** The calendar unit before the one holding `at` (last week, last month, last year). */
function previous(at: number, unit: string): Span {
  if (unit === 'day') return daySpan(at - DAY);
  if (unit === 'week') return weekSpan(startOfWeek(at) - DAY);
  if (unit === 'month') return monthSpan(yearOf(at), monthOf(at) - 1);
  return yearSpan(yearOf(at) - 1);
}

/** The calendar unit holding `at`, up to `at`'s day. */
function current(at: number, unit: string): Span {
  const end = startOfDay(at) + DAY - 1;
  if (unit === 'day') return daySpan(at);
  if (unit === 'week') return { from: startOfWeek(at), to: end };
  if (unit === 'month') return { from: monthSpan(yearOf(at), monthOf(at)).from, to: end };
  return { from: yearSpan(yearOf(at)).from, to: end };
}

// Longest forms first: each match is blanked out before the next rule runs.
const RULES: TimeRule[] = [
  [/\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/g, (m, _) => dateSpan(Number(m[1]), Number(m[2]), Number(m[3]))],
  [
    /\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/g,
    (m) => dateSpan(fullYear(m[3] ?? ''), Number(m[1]), Number(m[2])),
  ],
  [
    new RegExp(String.raw`${AROUND}\b${MONTH}\.? (\d{1,2})(?:st|nd|rd|th)?\b(?:,? (\d{4})\b)?`, 'g'),
    (m, at) => {
      const month = monthNumber(m[3] ?? '');
      const day = Number(m[4]);
      return around(m, m[5] ? dateSpan(Number(m[5]), month, day) : latestDate(at, month, day));
    },
  ],
  [
    new RegExp(String.raw`${AROUND}\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH}\b\.?(?:,? (\d{4})\b)?`, 'g'),
    (m, at) => {
      const month = monthNumber(m[4] ?? '');
      const day = Number(m[3]);
      return around(m, m[5] ? dateSpan(Number(m[5]), month, day) : latestDate(at, month, day));
    },
  ],
  [
    new RegExp(
      String.raw`\b(?:from|between) ${MONTH} (?:to|and|until|through|till) ${MONTH}\b(?:,? (\d{4})\b)?`,
      'g',
    ),
    (m, at) => {
      const end = m[3]
        ? monthSpan(Number(m[3]), monthNumber(m[2] ?? ''))
        : latestMonth(at, monthNumber(m[2] ?? ''));
      let start = monthSpan(yearOf(end.from), monthNumber(m[1] ?? ''));
      if (start.from > end.from) start = monthSpan(yearOf(end.from) - 1, monthNumber(m[1] ?? ''));
      return { from: start.from, to: end.to };
    },
  ],
  [
    new RegExp(String.raw`\b(?:${PART}[- ](?:of )?)?${MONTH}\b\.?,? (?:of )?(\d{4})\b`, 'g'),
    (m) => monthPart(monthSpan(Number(m[3]), monthNumber(m[2] ?? '')), m[1]),
  ],
  [
    new RegExp(String.raw`\b(?:(?:the |on )?${WEEKDAY} )?${COUNT} ${UNIT} (?:ago|back|earlier)\b`, 'g'),
    (m, at) => ago(at, countOf(m[2] ?? ''), m[3] ?? 'day'),
  ],
  [
    new RegExp(String.raw`\b(?:past|last|previous|recent|next) ${COUNT} ${UNIT}\b`, 'g'),
    (m, at) => past(at, countOf(m[1] ?? ''), m[2] ?? 'day'),
  ],
  [
    new RegExp(String.raw`\b(?:past|last|previous) (day|week|month|year)s\b`, 'g'),
    (m, at) => past(at, 3, m[1] ?? 'day'),
  ],
  [/\b(?:the )?day before yesterday\b/g, (_, at) => daySpan(at - 2 * DAY)],
  [/\byesterday\b/g, (_, at) => daySpan(at - DAY)],
  [/\b(?:today|tonight|this (?:morning|afternoon|evening))\b/g, (_, at) => daySpan(at)],
  [
    /\b(?:last|past|this|previous) weekend\b|\bthe weekend\b/g,
    (_, at) => {
      const sunday = lastWeekday(at, 0, true);
      return { from: sunday - DAY, to: sunday + DAY - 1 };
    },
  ],
  [/\b(?:last|previous) (day|week|month|year)\b/g, (m, at) => previous(at, m[1] ?? 'day')],
  [/\bpast (day|week|month|year)\b/g, (m, at) => past(at, 1, m[1] ?? 'day')],
  [/\bthis (week|month|year)\b/g, (m, at) => current(at, m[1] ?? 'day')],
  [
    // Not "on a Sunday", "every Friday", "Tuesdays": those name no one day.
    new RegExp(
      String.raw`(?<!\b(?:a|every|each|any|per|one) )\b(?:(last|this|past|previous|on) )?${WEEKDAY}\b(?!s)`,
      'g',
    ),
    (m, at) => daySpan(lastWeekday(at, WEEKDAYS.indexOf(m[2] ?? ''), m[1] === 'last' || m[1] === 'previous')),
  ],
  [
    new RegExp(
      String.raw`\b(?:(last|this|in|during|since|until|by|of|from|to|through|and|or|early|mid|late)[- ])(?:of )?${MONTH}\b(?! \d)`,
      'g',
    ),
    (m, at) => {
      const month = monthNumber(m[2] ?? '');
      const part = m[1] === 'early' || m[1] === 'mid' || m[1] === 'late' ? m[1] : undefined;
      if (m[1] === 'this') return monthPart(monthSpan(yearOf(at), month), part);
      const span = latestMonth(at, month);
      // "last May" said in May means a year ago.
      return monthPart(
        m[1] === 'last' && monthOf(at) === month ? latestMonth(span.from - 1, month) : span,
        part,
      );
    },
  ],
  [
    /\b(?:in|during|since|of|by|from|until|before|after|year) (19\d{2}|20\d{2})\b/g,
    (m) => yearSpan(Number(m[1])),
  ],
];

/** Spans named by English time expressions in `text` (NFKC, lower case), each with the phrase that named it. */
export function findEnglishTimes(text: string, at: number): Found[] {
  return consume(text, RULES, at);
}

export const RECENT_EN =
  /\b(?:recent(?:ly)?|lately|latest|last time|most recent(?:ly)?|currently|current|these days|nowadays|now|so far|at the moment|right now|any ?more|still)\b/;
export const EARLIEST_EN =
  /\b(?:initially|originally|at first|first time|earliest|in the beginning|used to)\b/;
