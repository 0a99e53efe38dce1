import { describe, expect, it } from 'vitest';
import {
  festivalNamed,
  hasArrangement,
  holidayBreak,
  isMakeUpWorkday,
  isWorkday,
  latestBreakBefore,
  latestFestivalDay,
  type Festival,
} from './holidays.js';

const d = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const iso = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString().slice(0, 10));
const named = (name: string): Festival => {
  const f = festivalNamed(name);
  if (!f) throw new Error(`no festival ${name}`);
  return f;
};
const latest = (name: string, at: string, year?: number) => iso(latestFestivalDay(named(name), d(at), year));
const span = (s: { from: number; to: number }) => `${iso(s.from)}..${iso(s.to)}`;

describe('festival days: solar, lunar, solar terms and nth weekdays on their real dates', () => {
  it.each([
    ['端午节', '2026-06-19'],
    ['中秋节', '2026-09-25'],
    ['春节', '2026-02-17'],
    ['除夕', '2026-02-16'],
    ['七夕', '2026-08-19'],
    ['清明', '2026-04-05'],
    ['重阳', '2026-10-18'],
    ['母亲节', '2026-05-10'],
    ['感恩节', '2026-11-26'],
    ['双十一', '2026-11-11'],
    ['国庆', '2026-10-01'],
  ])('%s 2026 → %s', (name, day) => {
    expect(latest(name, '2026-12-31', 2026)).toBe(day);
  });

  it('takes the latest one, or the one just ahead within a week, relative to the reference day', () => {
    expect(latest('端午节', '2026-11-17')).toBe('2026-06-19');
    expect(latest('端午节', '2026-03-01')).toBe('2025-05-31');
    expect(latest('中秋', '2026-09-20')).toBe('2026-09-25');
    // 腊八 of lunar 2026 falls in January 2027.
    expect(latest('腊八', '2027-02-01')).toBe('2027-01-15');
  });
});

describe('public holidays and workdays from the official arrangement', () => {
  it('knows the break, the make-up workdays and the workdays of an arranged year', () => {
    expect(hasArrangement(2026)).toBe(true);
    expect(span(holidayBreak(named('国庆'), d('2026-10-01')))).toBe('2026-10-01..2026-10-07');
    expect(span(holidayBreak(named('春节'), d('2026-02-17')))).toBe('2026-02-15..2026-02-23');
    expect(isWorkday(d('2026-10-05'))).toBe(false);
    expect(isWorkday(d('2026-10-09'))).toBe(true);
    // Saturday 10 October 2026 is worked in lieu of the National Day break.
    expect(isWorkday(d('2026-10-10'))).toBe(true);
    expect(isMakeUpWorkday(d('2026-10-10'))).toBe(true);
    expect(isMakeUpWorkday(d('2026-10-17'))).toBe(false);
  });

  it('estimates a year the arrangement does not cover: weekends off, the break from its day', () => {
    expect(hasArrangement(2035)).toBe(false);
    expect(span(holidayBreak(named('国庆'), d('2035-10-01')))).toBe('2035-10-01..2035-10-07');
    expect(isWorkday(d('2035-10-01'))).toBe(true);
    expect(isWorkday(d('2035-10-06'))).toBe(false);
  });

  it('finds the latest break that has ended', () => {
    const before = latestBreakBefore(d('2026-10-12'));
    expect(before && span(before)).toBe('2026-10-01..2026-10-07');
  });
});
