// When a todo is due: a day is due by the end of that workday (03:30 the next morning in the time zone),
// a time with its zone at that time.

const DAY = 86_400_000;
const WORKDAY_START = (3 * 60 + 30) * 60_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/** Local wall-clock time minus UTC at `t`, in milliseconds. */
function offsetAt(t: number, timeZone: string): number {
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
  const parts = format.formatToParts(t);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return local - (t - (t % 1000));
}

/** The instant a due value falls due. */
export function dueAt(due: string, timeZone: string): number {
  if (due.includes('T')) return Date.parse(due);
  const wall = Date.parse(`${due}T00:00:00Z`) + DAY + WORKDAY_START;
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}
