// When the nightly deep review runs: inside the quiet window that follows the 03:30 workday boundary, once
// per workday, reviewing the workday that just ended.
import { workdayOf } from '../knowledge/workday.js';

const DAY = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes after local midnight of `t` in `timeZone`. */
export function localMinutes(t: number, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(t);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/** The workday before `workday` (`YYYY-MM-DD`). */
export const previousWorkday = (workday: string): string =>
  new Date(Date.parse(`${workday}T00:00:00Z`) - DAY).toISOString().slice(0, 10);

/**
 * The workday a deep review started at `t` reviews, or null outside the quiet window. The window starts at
 * or after 03:30, so inside it the current workday has just begun and the one before it is complete.
 */
export function nightlyWorkday(
  t: number,
  timeZone: string,
  window: { start: number; end: number },
): string | null {
  const minutes = localMinutes(t, timeZone);
  if (minutes < window.start || minutes >= window.end) return null;
  return previousWorkday(workdayOf(t, timeZone));
}
