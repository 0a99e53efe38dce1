import { describe, expect, it } from 'vitest';
import { workdayOf, workdaysBetween } from './workday.js';

describe('workdayOf', () => {
  it('starts a workday at 03:30 local time', () => {
    const tz = 'Asia/Shanghai';
    expect(workdayOf(Date.parse('2026-11-16T03:29:59.999+08:00'), tz)).toBe('2026-11-15');
    expect(workdayOf(Date.parse('2026-11-16T03:30:00+08:00'), tz)).toBe('2026-11-16');
    expect(workdayOf(Date.parse('2026-11-16T23:59:00+08:00'), tz)).toBe('2026-11-16');
    expect(workdayOf(Date.parse('2026-11-17T01:00:00+08:00'), tz)).toBe('2026-11-16');
  });

  it('follows the zone, daylight saving time included', () => {
    // 2026-03-29 02:00 CET jumps to 03:00 CEST in Berlin.
    const tz = 'Europe/Berlin';
    expect(workdayOf(Date.parse('2026-03-29T03:15:00+02:00'), tz)).toBe('2026-03-28');
    expect(workdayOf(Date.parse('2026-03-29T03:30:00+02:00'), tz)).toBe('2026-03-29');
    expect(workdayOf(Date.parse('2026-10-25T03:29:00+01:00'), tz)).toBe('2026-10-24');
    expect(workdayOf(Date.parse('2026-11-16T03:30:00Z'), 'UTC')).toBe('2026-11-16');
  });

  it('counts whole workdays between two', () => {
    expect(workdaysBetween('2026-11-14', '2026-11-17')).toBe(3);
    expect(workdaysBetween('2026-11-17', '2026-11-17')).toBe(0);
    expect(workdaysBetween('2026-11-17', '2026-11-14')).toBe(-3);
  });
});
