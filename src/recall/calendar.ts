// Calendar arithmetic on wall-clock time: epoch milliseconds read as UTC fields (callers shift by the zone).

export const DAY = 86_400_000;

/** A span of wall-clock time, both ends inclusive, in epoch milliseconds. */
export interface Span {
  from: number;
  to: number;
}

export const startOfDay = (t: number): number => Math.floor(t / DAY) * DAY;

export const daySpan = (t: number): Span => ({ from: startOfDay(t), to: startOfDay(t) + DAY - 1 });

/** Monday 00:00 of the week holding `t`. */
export const startOfWeek = (t: number): number => {
  const day = startOfDay(t);
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
};

export const weekSpan = (t: number): Span => ({ from: startOfWeek(t), to: startOfWeek(t) + 7 * DAY - 1 });

/** Month `month` (1–12, may overflow either way) of `year`. */
export const monthSpan = (year: number, month: number): Span => ({
  from: Date.UTC(year, month - 1, 1),
  to: Date.UTC(year, month, 1) - 1,
});

export const yearSpan = (year: number): Span => ({
  from: Date.UTC(year, 0, 1),
  to: Date.UTC(year + 1, 0, 1) - 1,
});

export const yearOf = (t: number): number => new Date(t).getUTCFullYear();
export const monthOf = (t: number): number => new Date(t).getUTCMonth() + 1;

/** The date, or undefined when the day does not exist in that month (31 April). */
export const dateSpan = (year: number, month: number, day: number): Span | undefined => {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const t = Date.UTC(year, month - 1, day);
  return new Date(t).getUTCDate() === day ? daySpan(t) : undefined;
};

/** The latest day with weekday `weekday` (0 Sunday … 6 Saturday) on or before `t` (strictly before if asked). */
export const lastWeekday = (t: number, weekday: number, strict: boolean): number => {
  const day = startOfDay(t);
  let back = (new Date(day).getUTCDay() - weekday + 7) % 7;
  if (strict && back === 0) back = 7;
  return day - back * DAY;
};

/** The latest occurrence of month `month` that starts on or before `t`. */
export const latestMonth = (t: number, month: number): Span => {
  const year = yearOf(t);
  const span = monthSpan(year, month);
  return span.from <= t ? span : monthSpan(year - 1, month);
};

/** The latest occurrence of a month-day on or before `t` (a little after is read as this year's). */
export const latestDate = (t: number, month: number, day: number): Span | undefined => {
  const year = yearOf(t);
  const span = dateSpan(year, month, day);
  if (span && span.from <= t + 7 * DAY) return span;
  return dateSpan(year - 1, month, day);
};

/** `t` moved by whole calendar months (day of month clamped). */
export const addMonths = (t: number, months: number): number => {
  const d = new Date(t);
  const target = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
  const days = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months + 1, 0)).getUTCDate();
  return target + (Math.min(d.getUTCDate(), days) - 1) * DAY + (t - startOfDay(t));
};

/** Offset of an IANA time zone from UTC at instant `t`, in milliseconds (0 for unknown zones). */
export function zoneOffset(timeZone: string, t: number): number {
  if (timeZone === 'UTC') return 0;
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(t);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const wall = Date.UTC(
      get('year'),
      get('month') - 1,
      get('day'),
      get('hour'),
      get('minute'),
      get('second'),
    );
    return wall - Math.floor(t / 1000) * 1000;
  } catch {
    return 0;
  }
}
