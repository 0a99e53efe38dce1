// The workday: from 03:30 to 03:29:59.999 the next morning in the configured time zone, so that a late
// evening and the small hours after it count as one day of a person's life (ARCHITECTURE.md §8).

const DAY = 86_400_000;
/** Minutes after local midnight at which a workday starts. */
export const WORKDAY_START_MINUTES = 3 * 60 + 30;

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The local wall-clock time at `t` in `timeZone`, read as if it were UTC (whole seconds). */
export function wallClockAt(t: number, timeZone: string): number {
  const parts = formatFor(timeZone).formatToParts(t);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
}

/** The workday holding `t` as `YYYY-MM-DD` (the calendar date its 03:30 start falls on). */
export function workdayOf(t: number, timeZone: string): string {
  const wall = wallClockAt(t, timeZone);
  let date = wall - (wall % DAY);
  if ((wall - date) / 60_000 < WORKDAY_START_MINUTES) date -= DAY;
  return new Date(date).toISOString().slice(0, 10);
}

/** Whole workdays from workday `a` to workday `b` (`YYYY-MM-DD` each); negative when b is earlier. */
export const workdaysBetween = (a: string, b: string): number =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);
