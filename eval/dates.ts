// Date strings of the datasets → epoch milliseconds, read as UTC wall-clock times (the data has no zone).

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const utc = (year: number, month: number, day: number, hour: number, minute: number): number | undefined => {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute);
  // Date.UTC rolls 31 April over to 1 May: reject such days.
  return new Date(ms).getUTCDate() === day ? ms : undefined;
};

/** 1–12 for a full or three-letter English month name (and "Sept"), else 0. */
const monthOf = (name: string): number => {
  const lower = name.toLowerCase();
  return (
    MONTHS.findIndex(
      (m) => lower === m || lower === m.slice(0, 3) || (lower === 'sept' && m === 'september'),
    ) + 1
  );
};

const LOCOMO_DATE = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})\s*$/i;

/** LoCoMo session dates, e.g. `1:56 pm on 8 May, 2023`. */
export function parseLocomoDate(text: string): number | undefined {
  const m = LOCOMO_DATE.exec(text);
  if (!m) return undefined;
  const [, h, min, ampm, day, month, year] = m;
  const hour12 = Number(h);
  if (hour12 < 1 || hour12 > 12) return undefined;
  const hour = (hour12 % 12) + (ampm?.toLowerCase() === 'pm' ? 12 : 0);
  return utc(Number(year), monthOf(month ?? ''), Number(day), hour, Number(min));
}

const LONGMEMEVAL_DATE = /^\s*(\d{4})\/(\d{1,2})\/(\d{1,2})\s*(?:\([a-z]+\))?\s*(?:(\d{1,2}):(\d{2}))?\s*$/i;

/** LongMemEval dates, e.g. `2023/05/20 (Sat) 02:21`. */
export function parseLongMemEvalDate(text: string): number | undefined {
  const m = LONGMEMEVAL_DATE.exec(text);
  if (!m) return undefined;
  const [, year, month, day, hour, minute] = m;
  return utc(Number(year), Number(month), Number(day), Number(hour ?? 0), Number(minute ?? 0));
}
