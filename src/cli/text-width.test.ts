import { describe, expect, it } from 'vitest';
import { fit, renderTable, textWidth } from './text-width.js';

describe('terminal width', () => {
  it('counts CJK as two columns and combining marks as none', () => {
    expect(textWidth('李卫东')).toBe(6);
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('ｶﾅ全角Ａ')).toBe(2 + 2 + 2 + 2);
    expect(textWidth('e\u0301')).toBe(1);
  });

  it('cuts and pads to a width without splitting a wide character', () => {
    expect(fit('杭州出差', 5)).toBe('杭州…');
    expect(textWidth(fit('杭州出差', 5))).toBe(5);
    expect(fit('ab', 4)).toBe('ab  ');
  });

  it('fits every line of a table in 100 columns', () => {
    const rows = [
      ['obj_1', 'person', '李卫东'.repeat(30)],
      ['obj_2', 'project', 'Mnemo launch '.repeat(20)],
    ];
    const out = renderTable(['ID', 'TYPE', 'NAME'], rows);
    for (const line of out.trimEnd().split('\n')) expect(textWidth(line)).toBeLessThanOrEqual(100);
    expect(out.split('\n')[0]).toBe('ID     TYPE     NAME');
  });
});
