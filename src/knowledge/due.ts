// When a todo is due: a day is due by the end of that workday (03:30 the next morning in the time zone),
// a time with its zone at that time.

import { wallClockAt, WORKDAY_START_MINUTES } from './workday.js';

const DAY = 86_400_000;
const WORKDAY_START = WORKDAY_START_MINUTES * 60_000;

/** Local wall-clock time minus UTC at `t`, in milliseconds. */
const offsetAt = (t: number, timeZone: string): number => wallClockAt(t, timeZone) - (t - (t % 1000));

/** The instant a due value falls due. */
export function dueAt(due: string, timeZone: string): number {
  if (due.includes('T')) return Date.parse(due);
  const wall = Date.parse(`${due}T00:00:00Z`) + DAY + WORKDAY_START;
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}
