import { describe, expect, it } from 'vitest';
import { parseLocomoDate, parseLongMemEvalDate } from './dates.js';

describe('parseLocomoDate', () => {
  it('reads 12-hour times as UTC wall-clock time', () => {
    expect(parseLocomoDate('1:56 pm on 8 May, 2023')).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(parseLocomoDate('10:37 am on 27 June, 2023')).toBe(Date.UTC(2023, 5, 27, 10, 37));
    expect(parseLocomoDate('12:09 am on 13 September, 2023')).toBe(Date.UTC(2023, 8, 13, 0, 9));
    expect(parseLocomoDate('12:30 pm on 1 Jan, 2024')).toBe(Date.UTC(2024, 0, 1, 12, 30));
    expect(parseLocomoDate(' 9:55 AM on 22 October 2023 ')).toBe(Date.UTC(2023, 9, 22, 9, 55));
  });
  it('rejects what it cannot read', () => {
    expect(parseLocomoDate('31 April 2023')).toBeUndefined();
    expect(parseLocomoDate('1:56 pm on 31 April, 2023')).toBeUndefined();
    expect(parseLocomoDate('13:56 pm on 8 May, 2023')).toBeUndefined();
    expect(parseLocomoDate('1:56 pm on 8 Maybe, 2023')).toBeUndefined();
    expect(parseLocomoDate('')).toBeUndefined();
  });
});

describe('parseLongMemEvalDate', () => {
  it('reads the date with its weekday and time', () => {
    expect(parseLongMemEvalDate('2023/05/20 (Sat) 02:21')).toBe(Date.UTC(2023, 4, 20, 2, 21));
    expect(parseLongMemEvalDate('2023/10/22 (Sun) 15:38')).toBe(Date.UTC(2023, 9, 22, 15, 38));
    expect(parseLongMemEvalDate('2023/05/20')).toBe(Date.UTC(2023, 4, 20));
  });
  it('rejects what it cannot read', () => {
    expect(parseLongMemEvalDate('2023/02/30 (Thu) 10:00')).toBeUndefined();
    expect(parseLongMemEvalDate('2023/05/20 (Sat) 25:00')).toBeUndefined();
    expect(parseLongMemEvalDate('20 May 2023')).toBeUndefined();
  });
});
