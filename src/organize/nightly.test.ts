import { describe, expect, it } from 'vitest';
import { localMinutes, nightlyWorkday, previousWorkday } from './nightly.js';

const WINDOW = { start: 3 * 60 + 30, end: 6 * 60 };
const at = (local: string) => Date.parse(`${local}+08:00`);

describe('the nightly window', () => {
  it('opens at 03:30 local time and reviews the workday that just ended', () => {
    expect(nightlyWorkday(at('2026-10-02T03:29:59'), 'Asia/Shanghai', WINDOW)).toBeNull();
    expect(nightlyWorkday(at('2026-10-02T03:30:00'), 'Asia/Shanghai', WINDOW)).toBe('2026-10-01');
    expect(nightlyWorkday(at('2026-10-02T05:59:00'), 'Asia/Shanghai', WINDOW)).toBe('2026-10-01');
    expect(nightlyWorkday(at('2026-10-02T06:00:00'), 'Asia/Shanghai', WINDOW)).toBeNull();
    expect(nightlyWorkday(at('2026-10-02T23:00:00'), 'Asia/Shanghai', WINDOW)).toBeNull();
  });

  it('reads local time in the configured zone', () => {
    expect(localMinutes(Date.parse('2026-10-01T19:45:00Z'), 'Asia/Shanghai')).toBe(3 * 60 + 45);
    expect(localMinutes(Date.parse('2026-10-01T19:45:00Z'), 'UTC')).toBe(19 * 60 + 45);
    expect(previousWorkday('2026-03-01')).toBe('2026-02-28');
  });
});
